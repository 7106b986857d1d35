import ArgumentParser
import FormworkCore
import FormworkHost

struct Schema: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract:
            "Print a JSON Schema for form documents, generated from the installed cell types; or, with --values FORM, for the values that form accepts.",
        discussion: """
            EXAMPLES:
              formwork schema -o formwork.schema.json
                  For an editor's YAML and JSON language servers.
              formwork schema --values form.yaml
                  The schema of the values that form accepts, for another program.
            """
    )

    @Option(
        name: .customLong("values"), help: ArgumentHelp("Print the schema of the values FORM accepts instead.", valueName: "form"),
        completion: .file(extensions: ["json", "yaml", "yml"]))
    var valuesOf: String?
    @OptionGroup var packs: PackOptions
    @Option(name: .shortAndLong, help: "Write to this file (atomically).", completion: .file()) var output: String?

    func run() throws {
        let registry = packs.registry()
        let schema =
            try valuesOf.map { ValuesSchema.generate(try FormDecoder.load(path: $0, registry: registry)) }
            ?? DocumentSchema.generate(registry)
        let text = schema.serialized() + "\n"
        guard let output else { return Console.out(text) }
        try OutputFile.write(text, to: output)
    }
}
