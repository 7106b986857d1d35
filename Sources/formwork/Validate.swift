import ArgumentParser
import FormworkCore
import FormworkHost

struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check a form document (and values) against the installed cell types; exits 0 or 65 (69 when a cell type is missing).",
        discussion: """
            EXAMPLES:
              formwork validate form.yaml --values values.json
                  Check a values file against its form.
              formwork validate form.yaml --json
                  The problems as JSON (file, line, pointer, code, message) for an editor.
              formwork validate form.yaml --previous old-form.yaml
                  Check that a changed form still reads the answers the old one stored.
            """)

    @Argument(help: "The form document (.json, .yaml).", completion: .file(extensions: ["json", "yaml", "yml"]))
    var form: String
    @Option(help: "A JSON object of values keyed by field id.", completion: .file(extensions: ["json"]))
    var values: String?
    @Option(
        help: ArgumentHelp(
            "The form's previous revision: warns of fields whose stored answers nothing declares a way for (renamedFrom, removed).",
            valueName: "file"), completion: .file(extensions: ["json", "yaml", "yml"]))
    var previous: String?
    @Flag(
        help: ArgumentHelp(
            "Print the verdict as one JSON object on standard output (the problems with file, line, pointer, code and message; docs/cli.md); the exit status is the same."
        ))
    var json = false
    @Flag(
        help: ArgumentHelp(
            "Also refuse what a form may say but probably should not: a text with no translation into a language the document has (it would show untranslated), a translation no text uses."
        ))
    var strict = false
    @OptionGroup var packs: PackOptions
    @OptionGroup var language: LanguageOptions

    /// Every problem in one run: the document, then the values (schema, required fields,
    /// date bounds) and what the cells' `value_changed` says, followed by the summary line.
    func run() throws {
        language.apply()
        guard json else {
            try check()
            return
        }
        do {
            let (fields, sections) = try check(quiet: true)
            Console.out(
                JSON.object([
                    ("valid", .bool(true)), ("file", .string(SourceFile.displayName(form))), ("fields", .integer(Int64(fields))),
                    ("sections", .integer(Int64(sections))), ("problems", .array([])),
                ]).serialized() + "\n")
        } catch FormError.invalid(let problems) {
            Console.out(Self.verdict(problems, file: form).serialized() + "\n")
            throw problems.contains { $0.kind == .unavailable } ? Exit.unavailable : Exit.dataError
        }
    }

    /// The `--json` verdict of a document (or values) with problems: a contract (docs/cli.md, "validate --json").
    static func verdict(_ problems: [Diagnostic], file: String) -> JSON {
        .object([
            ("valid", .bool(false)), ("file", .string(SourceFile.displayName(file))),
            (
                "problems",
                .array(
                    problems.map { p in
                        var members: [(String, JSON)] = [("file", p.file.map(JSON.string) ?? .null)]
                        members.append(("line", p.line.map { .integer(Int64($0)) } ?? .null))
                        members.append(("pointer", .string(p.pointer)))
                        members.append(("code", .string(p.kind == .unavailable ? "unavailable" : p.code ?? "invalid")))
                        members.append(("message", .string(p.message)))
                        if let hint = p.hint { members.append(("hint", .string(hint))) }
                        return .object(members)
                    })
            ),
        ])
    }

    /// The check itself; prints the one-line verdict unless `quiet`. Returns the form's field and section counts.
    @discardableResult
    func check(quiet: Bool = false) throws -> (fields: Int, sections: Int) {
        ProcessTuning.prepare(forDocument: form)  // before any thread or cell host is started
        let registry = packs.registry()
        if form == "-" && values == "-" {
            throw ValidationError("the form and --values cannot both be read from standard input (-); pass one of them as a file")
        }
        let written = try FormLoading.decodeAsWritten(form, registry: registry)
        if strict {
            let problems = Self.translationProblems(written, file: SourceFile.displayName(form))
            if !problems.isEmpty { throw FormError.invalid(problems) }
        }
        var loaded = FormLoading.inLanguage(written)
        if let previous { try warnOfUnexplainedChanges(since: previous) }
        // A cell host only when there is something for it: values to offer, or choices a pack supplies.
        if values != nil || loaded.hasPackChoices {
            let driver = packs.driver(registry)
            defer { packs.finish(driver) }
            try FormLoading.resolveChoices(&loaded, path: form, driver: driver)
            if let values {
                let problems = try ValuesCheck.problems(path: values, form: &loaded, driver: driver)
                if !problems.isEmpty { throw FormError.invalid(problems) }
            }
        }
        if !quiet {
            Console.out(
                "\(SourceFile.displayName(form)): valid (\(plural(loaded.fieldCount, "field")) in \(plural(loaded.sections.count, "section")))\n"
            )
        }
        return (loaded.fieldCount, loaded.sections.count)
    }

    /// `--strict`: each text with no translation into one of the document's languages (shown untranslated there), and
    /// each translation that no text uses (its text changed after it was translated).
    static func translationProblems(_ form: Form, file: String) -> [Diagnostic] {
        var out: [Diagnostic] = []
        for tag in form.translations.keys.sorted() {
            let pointer = "/translations/" + Pointer.escape(tag)
            for (place, text) in form.untranslated(in: tag) {
                out.append(
                    Diagnostic(
                        kind: .invalid, file: file, pointer: pointer, line: nil,
                        message:
                            "no \(tag) translation of \(place) '\(SchemaValidator.truncated(text))': it shows in \(form.language); add it to the \(tag) table",
                        code: "untranslated"))
            }
            for text in form.unusedTranslations(in: tag) {
                out.append(
                    Diagnostic(
                        kind: .invalid, file: file, pointer: pointer + "/" + Pointer.escape(text), line: nil,
                        message:
                            "no text of the form is '\(SchemaValidator.truncated(text))': remove this translation, or make it match the text it translates",
                        code: "unused-translation"))
            }
        }
        return out
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
