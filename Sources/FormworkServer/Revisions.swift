import FormworkCore

/// A stored answer read in the current revision's shape: the values after every later revision's declarations
/// (`Migration`), the answers kept beside them, what changed on the way, and what today's rules say of the result.
public struct CurrentAnswers: Sendable {
    package var values: JSON
    package var kept: [(String, JSON)]
    public var changes: [Migration.Change]
    /// What the current document refuses in the migrated values: required answers now missing, answers now invalid.
    public var problems: [Diagnostic]

    /// The report, as `submissions export --as-current` writes it: each change, then each problem as `missing` or
    /// `invalid` with its JSON pointer.
    package var report: JSON {
        .array(
            changes.map(\.json)
                + problems.map { p in
                    .object([
                        ("change", .string(FormService.code(of: p) == "required" ? "missing" : "invalid")), ("pointer", .string(p.pointer)),
                        ("message", .string(p.message)),
                    ])
                })
    }

    /// The report in one line (a CSV cell).
    public var summary: String {
        (changes.map(\.summary)
            + problems.map { "\(FormService.code(of: $0) == "required" ? "missing" : "invalid") \($0.pointer): \($0.message)" })
            .joined(separator: "; ")
    }
}

/// Reads stored answers as the current revision of their form asks.
public struct RevisionReader: Sendable {
    /// The revisions the store has seen, oldest first.
    let revisions: [FormRevision]
    let current: (revision: String, declarations: Migration.Declarations)
    /// The current form decoded (with the cell types), when it could be: its rules judge the migrated answers.
    let form: Form?

    /// `revisions` from the store; the current revision's text and, when its cell types are at hand, its form.
    public init(revisions: [FormRevision], currentRevision: String, currentDocument: String, form: Form?) {
        self.revisions = revisions
        current = (currentRevision, Migration.declarations(text: currentDocument) ?? Migration.Declarations())
        self.form = form
    }

    /// The declarations of each revision after `revision`, the current one last.
    func steps(after revision: String) -> [Migration.Declarations] {
        if revision == current.revision { return [] }
        var steps: [Migration.Declarations] = []
        if let index = revisions.firstIndex(where: { $0.revision == revision }) {
            for later in revisions[(index + 1)...] where later.revision != current.revision {
                if let declarations = Migration.declarations(text: later.document) { steps.append(declarations) }
            }
        }
        return steps + [current.declarations]
    }

    /// `values` (a values file's JSON text), stored under `revision`, in the current revision's shape.
    public func read(_ values: String, revision: String) -> CurrentAnswers {
        let stored = JSON.parse(values) ?? .object([])
        let (migrated, kept, changes) = Migration.migrate(stored, through: steps(after: revision))
        var problems: [Diagnostic] = []
        if var form {
            problems = ValuesFile.collect(migrated, into: &form, file: nil, requireComplete: true)
        }
        return CurrentAnswers(values: migrated, kept: kept, changes: changes, problems: problems)
    }
}
