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
        let schema: JSON
        if let valuesOf {
            var form = try FormDecoder.load(path: valuesOf, registry: registry)
            // The choices packs list now (`choicesFrom`) become the values' `enum`, as `validate` checks them.
            if form.hasPackChoices {
                let driver = packs.driver(registry)
                defer { packs.finish(driver) }
                try FormLoading.resolveChoices(&form, path: valuesOf, driver: driver)
            }
            schema = ValuesSchema.generate(form)
        } else {
            schema = DocumentSchema.generate(registry)
        }
        let text = schema.serialized() + "\n"
        guard let output else { return Console.out(text) }
        try OutputFile.write(text, to: output)
    }
}
