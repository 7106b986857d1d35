import ArgumentParser
import FormworkCore
import FormworkHost

struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check a form document (and values) against the installed cell types; exits 0 or 65 (69 when a cell type is missing).")

    @Argument(help: "The form document (.json, .yaml).", completion: .file(extensions: ["json", "yaml", "yml"]))
    var form: String
    @Option(help: "A JSON object of values keyed by field id.", completion: .file(extensions: ["json"]))
    var values: String?
    @OptionGroup var packs: PackOptions

    func run() throws {
        let registry = packs.registry()
        let loaded = try FormLoading.load(form, values: values, registry: registry)
        if values != nil {
            // Values also pass through each cell's value_changed.
            let runtime = FormRuntime(registry: registry)
            _ = try runtime.render(loaded)
            if !runtime.rejections.isEmpty {
                for rejection in runtime.rejections { Console.error("\(SourceFile.displayName(values!)): \(rejection.pointer): \(rejection.message)") }
                Console.write(2, "formwork: \(plural(runtime.rejections.count, "problem")) found\n")
                throw Exit.dataError
            }
        }
        Console.out("\(SourceFile.displayName(form)): valid (\(plural(loaded.fields.count, "field")) in \(plural(loaded.sections.count, "section")))\n")
    }
}
