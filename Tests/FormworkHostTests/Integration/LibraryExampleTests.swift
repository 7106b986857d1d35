import Foundation
import Testing
import FormworkTestSupport

// The README's library example, compiled and run here. `readmeExample` is the
// README's code block line for line (the test below checks they stay the same).
import Formwork

func readmeExample(packs: String, form path: String) throws -> String {
    // BEGIN README EXAMPLE
    let registry = Registry.discover(packPaths: [packs], environment: ProcessInfo.processInfo.environment)
    var form = try FormDecoder.load(path: path, registry: registry)
    try ValuesFile.apply(["username": .string("ada@example.com"), "password": .string("correct horse")], to: &form)
    let tree = try FormRuntime(registry: registry).render(form)
    let html = Renderer.render(tree, as: .html)
    // END README EXAMPLE
    return html
}

func readmeLiveCellExample(registry: Registry) throws -> [ViewNode] {
    // BEGIN README LIVE CELL EXAMPLE
    let cells = InProcessCells(registry: registry)
    let rating = try cells.liveCell(registry.cellType("org.formwork.c.rating"))
    try rating.configure(["title": .string("Service"), "value": .integer(4)])
    let views = try rating.render(accessibilityId: "service")  // [ViewNode]: what the cell drew
    // END README LIVE CELL EXAMPLE
    return views
}

@Suite("The README's library example")
struct LibraryExampleTests {
    @Test("it compiles, runs, and the README shows exactly this code")
    func example() throws {
        let html = try readmeExample(packs: Build.directory, form: "\(Source.root)/Examples/Forms/login.yaml")
        #expect(html.contains("value=\"ada@example.com\""))
        let source = try String(contentsOfFile: #filePath, encoding: .utf8)
        let lines = source.components(separatedBy: "// BEGIN README EXAMPLE\n")[1].components(separatedBy: "    // END README EXAMPLE")[0]
        let code = lines.split(separator: "\n").map { $0.dropFirst(4) }.joined(separator: "\n")
        let readme = try String(contentsOfFile: "\(Source.root)/README.md", encoding: .utf8)
        #expect(readme.contains(code), "README.md's library example differs from LibraryExampleTests.swift")
    }

    @Test("the live-cell example compiles, runs, and the README shows exactly this code")
    func liveCell() throws {
        let views = try readmeLiveCellExample(registry: Registry.discover(packPaths: [Build.directory], environment: [:]))
        #expect(views == [.group(role: "row", title: nil, children: [.value(label: "Service", text: "★★★★☆  4/5")])])
        let source = try String(contentsOfFile: #filePath, encoding: .utf8)
        let lines = source.components(separatedBy: "// BEGIN README LIVE CELL EXAMPLE\n")[1].components(
            separatedBy: "    // END README LIVE CELL EXAMPLE")[0]
        let code = lines.split(separator: "\n").map { $0.dropFirst(4) }.joined(separator: "\n")
        let readme = try String(contentsOfFile: "\(Source.root)/README.md", encoding: .utf8)
        #expect(readme.contains(code), "README.md's live-cell example differs from LibraryExampleTests.swift")
    }
}
