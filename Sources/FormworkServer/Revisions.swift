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

extension FormService {
    /// The refusal of a request that reads stored answers (or files) without the reader token; nil when it has it.
    func unauthorizedReader(_ authorization: String?) -> ServerResponse? {
        guard let readerToken else {
            return problem(
                404, "answers-not-served", "Answers are not served",
                "Stored answers are read over HTTP only from a server started with --reader-token-file; use `formwork submissions export`.")
        }
        let given = authorization.flatMap { $0.hasPrefix("Bearer ") ? Array($0.utf8.dropFirst(7)) : nil } ?? []
        guard Self.constantTimeEqual(given, readerToken) else {
            var response = problem(401, "unauthorized", "Unauthorized", "Send the reader token as 'Authorization: Bearer TOKEN'.")
            response.headers.append(("WWW-Authenticate", "Bearer realm=\"formwork\""))
            return response
        }
        return nil
    }

    /// `GET /api/forms/{id}/submissions[?as=current][&after=N][&limit=N]`: stored answers, for a reader that holds the
    /// server's reader token (`Authorization: Bearer …`; without `--reader-token-file` nobody does). `as=current`
    /// reads each answer in the current revision's shape, with its report, as `submissions export --as-current`.
    public func apiList(formID: String, authorization: String?, query: String) async -> ServerResponse {
        guard let served = catalog.form(formID) else { return noSuchForm(formID) }
        if let refusal = unauthorizedReader(authorization) { return refusal }
        var asCurrent = false, after: Int64 = 0, limit = 100
        let pairs = (try? SubmissionBody.urlEncoded(Array(query.utf8), limits: limits)) ?? []
        for (name, value) in pairs {
            switch name {
            case "as" where value == "current": asCurrent = true
            case "as" where value == "stored": asCurrent = false
            case "after" where Int64(value).map({ $0 >= 0 }) == true: after = Int64(value)!
            case "limit" where Int(value).map({ (1...1000).contains($0) }) == true: limit = Int(value)!
            default:
                return problem(
                    400, "bad-query", "Bad query",
                    "'\(TerminalSafe.clip(name))=\(TerminalSafe.clip(value))' is not understood: as=current|stored, after=N (0 or more), limit=1..1000."
                )
            }
        }
        let page: [(sequence: Int64, submission: StoredSubmission)]
        let reader: RevisionReader?
        do {
            page = try await timed("list") { () throws(StoreError) in try await store.list(formID: served.id, after: after, limit: limit) }
            reader =
                asCurrent
                ? RevisionReader(
                    revisions: try await store.revisions(formID: served.id), currentRevision: served.revision,
                    currentDocument: served.document,
                    form: served.form) : nil
        } catch {
            return problem(503, "store-unavailable", "Store unavailable", "The stored answers cannot be read just now; try again.")
        }
        let items: [JSON] = page.map { row in
            let s = row.submission
            var members: [(String, JSON)] = [
                ("id", .string(s.id)), ("revision", .string(s.revision)),
                ("receivedAt", .string(DateFormat.iso8601(s.receivedAt.rounded(.down)))),
            ]
            if let reader {
                let current = reader.read(s.values, revision: s.revision)
                members.append(("values", current.values))
                if !current.kept.isEmpty { members.append(("kept", .object(current.kept))) }
                members.append(("report", current.report))
            } else {
                members.append(("values", JSON.parse(s.values) ?? .object([])))
            }
            return .object(members)
        }
        var body: [(String, JSON)] = [
            ("form", .string(served.id)), ("revision", .string(served.revision)), ("submissions", .array(items)),
        ]
        if page.count == limit, let last = page.last { body.append(("next", .integer(last.sequence))) }
        return ServerResponse(
            status: 200, contentType: "application/json", text: JSON.object(body).serialized() + "\n",
            headers: [("Cache-Control", "no-store")])
    }

    /// Compares without stopping at the first difference (the time taken says nothing of the token).
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for i in a.indices { difference |= a[i] ^ b[i] }
        return difference == 0
    }
}
