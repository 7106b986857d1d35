import ArgumentParser
import FormworkCore
import FormworkHost

struct Schema: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print a JSON Schema for form documents, generated from the installed cell types.")

    @OptionGroup var packs: PackOptions
    @Option(name: .shortAndLong, help: "Write to this file (atomically).", completion: .file()) var output: String?

    func run() throws {
        let text = DocumentSchema.generate(packs.registry()).serialized() + "\n"
        guard let output else { return Console.out(text) }
        try OutputFile.write(text, to: output)
    }
}
