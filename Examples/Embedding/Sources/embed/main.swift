import Formwork
import Foundation

// The README's library example, with the packs built beside this executable.
let packs = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path
let registry = Registry.discover(packPaths: [packs], environment: [:], executableDirectory: nil)
guard CommandLine.arguments.count > 1 else {
    FileHandle.standardError.write(Data("usage: embed FORM\n".utf8))
    exit(64)
}
do {
    var form = try FormDecoder.load(path: CommandLine.arguments[1], registry: registry)
    try ValuesFile.apply(
        ["username": .string("ada@example.com"), "password": .string("correct horse")], to: &form,
        requireComplete: false)
    let tree = try FormRuntime(registry: registry).render(form)
    print(Renderer.render(tree, as: .text, width: 60))
} catch {
    FileHandle.standardError.write(Data("embed: \(error)\n".utf8))
    exit(65)
}
