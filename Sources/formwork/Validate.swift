import ArgumentParser
import FormworkCore
import FormworkHost

struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check a form document (and values) against the installed cell types; exits 0 or 65 (69 when a cell type is missing).")

    @Argument(help: "The form document (.json, .yaml).", completion: .file(extensions: ["json", "yaml", "yml"]))
    var form: String
    @Option(help: "A JSON object of values keyed by field id.", completion: .file(extensions: ["json"]))
    var values: String?
    @Option(
        help: ArgumentHelp(
            "The form's previous revision: warns of fields whose stored answers nothing declares a way for (renamedFrom, removed).",
            valueName: "file"), completion: .file(extensions: ["json", "yaml", "yml"]))
    var previous: String?
    @OptionGroup var packs: PackOptions

    /// Every problem in one run: the document, then the values (schema, required fields,
    /// date bounds) and what the cells' `value_changed` says, followed by the summary line.
    func run() throws {
        ProcessTuning.prepare(forDocument: form)  // before any thread or cell host is started
        let registry = packs.registry()
        if form == "-" && values == "-" {
            throw ValidationError("the form and --values cannot both be read from standard input (-); pass one of them as a file")
        }
        var loaded = try FormLoading.decode(form, registry: registry)
        if let previous { try warnOfUnexplainedChanges(since: previous) }
        if let values {
            let driver = packs.driver(registry)
            defer { packs.finish(driver) }
            let problems = try ValuesCheck.problems(path: values, form: &loaded, driver: driver)
            if !problems.isEmpty { throw FormError.invalid(problems) }
        }
        Console.out(
            "\(SourceFile.displayName(form)): valid (\(plural(loaded.fieldCount, "field")) in \(plural(loaded.sections.count, "section")))\n"
        )
    }

    /// The revisions' declarations compared: a warning per field whose stored answers would be lost or misread.
    func warnOfUnexplainedChanges(since previous: String) throws {
        guard form != "-" else {
            throw ValidationError("with --previous, name the form document as a file (it is read twice), not standard input")
        }
        func declarations(_ path: String) throws -> Migration.Declarations { try Migration.declarations(path: path) }
        let before = try declarations(previous), now = try declarations(form)
        for (_, message) in Migration.unexplained(previous: before, current: now) {
            Console.warning("\(SourceFile.displayName(form)): \(message)")
        }
    }
}
