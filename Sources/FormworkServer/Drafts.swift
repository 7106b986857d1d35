import Crypto
import FormworkCore
import Metrics

/// Draft tokens: the resume link's secret. 32 random bytes (base64url, 43 characters); the store keeps only its
/// SHA-256 (`draftKey`), so whoever reads the database cannot open a draft, and any instance that shares the store
/// resumes any draft (nothing is kept per instance).
extension FormTokens {
    public static func newDraftToken() -> String { base64url(randomBytes(32)) }

    /// A document's revision: the first 16 hex digits of the SHA-256 of its bytes.
    public static func revision(of bytes: [UInt8]) -> String { hex(Array(SHA256.hash(data: bytes).prefix(8))) }

    /// The store's key of a draft token: the first 32 hex digits of its SHA-256.
    public static func draftKey(_ token: String) -> String { hex(Array(SHA256.hash(data: Array(token.utf8)).prefix(16))) }

    /// Whether `text` has the shape of a draft token (43 base64url characters: 256 bits), as a client choosing its
    /// own token for `PUT` must give.
    public static func isDraftToken(_ text: String) -> Bool {
        text.utf8.count == 43 && unbase64url(text)?.count == 32
    }
}

extension FormService {
    // MARK: Pages

    /// The draft token a page carries (a hidden input), when it has the right shape.
    static func draftToken(in pairs: [(name: String, value: String)]) -> String? {
        pairs.last { $0.name == draftName }.map(\.value).flatMap { FormTokens.isDraftToken($0) ? $0 : nil }
    }

    /// `POST /forms/{id}` with the "Save and continue later" button: the answers given are checked (nothing is
    /// required yet), saved without any secure value, and the browser is sent to the draft's page, which shows the
    /// resume link.
    func saveDraftFromPage(
        _ served: ServedForm, pairs: [(name: String, value: String)], cookie: String?, draftToken: String?, requestID: String
    ) async -> ServerResponse {
        let values = Self.withoutFiles(
            Self.withoutSecureValues(FormPost(form: served.form).values(pairs), of: served.form), of: served.form)
        switch await checkDraft(served, values: values) {
        case .unavailable(let response): return response
        case .refused(let problems):
            count(served.id, "draft-refused")
            logger.info("draft refused", metadata: ["request": "\(requestID)", "form": "\(served.id)", "problems": "\(problems.count)"])
            return await render(
                served, values: values, problems: problems, token: tokens.issue(formID: served.id, cookie: cookie ?? ""), status: 422,
                draftToken: draftToken)
        case .accepted(let text):
            let token = draftToken ?? FormTokens.newDraftToken()
            do {
                let saved = try await saveDraft(served, token: token, values: text)
                if let submissionID = saved.submissionID { return confirmationRedirect(served, submissionID) }
                count(served.id, "draft-saved")
                logger.info("draft saved", metadata: ["request": "\(requestID)", "form": "\(served.id)"])
                return ServerResponse(
                    status: 303, headers: [("Location", Self.draftPath(served.id, token) + "?saved=1"), ("Cache-Control", "no-store")])
            } catch {
                count(served.id, "store-failed")
                logger.error("draft not saved", metadata: ["request": "\(requestID)", "form": "\(served.id)", "error": "\(error)"])
                return problemPage(
                    served, status: 503,
                    loc("Your answers could not be saved just now; nothing was stored. Go back and try again in a moment."))
            }
        }
    }

    /// `GET /forms/{id}/drafts/{token}`: the form with the draft's answers and its resume link; a draft that expired
    /// or was sent says so.
    public func draftPage(formID: String, token: String, cookie: String?, saved: Bool) async -> ServerResponse {
        guard let served = served(formID) else { return notFound(formID) }
        let draft: Draft
        switch await openDraft(served, token: token) {
        case .failure(let refusal): return problemPage(served, status: refusal.status, refusal.message)
        case .success(let d): draft = d
        }
        if let submissionID = draft.submissionID { return confirmationRedirect(served, submissionID) }
        let (cookie, setCookie) = cookie.flatMap { Self.isCookieValue($0) ? $0 : nil }.map { ($0, false) } ?? (FormTokens.newCookie(), true)
        let (values, changed) = await currentValues(of: draft, served)
        let until = DateFormat.iso8601(draft.expiresAt.rounded(.down))
        let notice = WebPage.Notice(
            title: saved ? loc("Your answers are saved") : loc("You are continuing a saved form"),
            text: (changed ? loc("This form changed since your answers were saved: check them before you send it. ") : "")
                + loc("To come back to this form later, keep this link; it works until {0} (UTC). ", until)
                + loc("Anyone who has the link can see these answers. Passwords and other secret answers are never saved."),
            link: Self.draftPath(served.id, token))
        var response = await render(
            served, values: values, problems: [], token: tokens.issue(formID: served.id, cookie: cookie), draftToken: token, notice: notice)
        if setCookie { response.headers.append(("Set-Cookie", Self.cookieHeader(cookie))) }
        return response
    }

    // MARK: JSON API

    /// `POST /api/forms/{id}/drafts` (a new draft, its token chosen here) and `PUT /api/forms/{id}/drafts/{token}`
    /// (create or replace the draft of a token the client holds): 201/200 with the resume link, 422 with the
    /// problems, 409 when the draft was submitted already.
    public func apiSaveDraft(formID: String, token: String?, body: [UInt8], contentType: String?, requestID: String) async -> ServerResponse
    {
        guard let served = served(formID) else { return noSuchForm(formID) }
        if let token, !FormTokens.isDraftToken(token) {
            return problem(
                400, "bad-draft-token", "Bad draft token",
                "A draft token is 43 base64url characters (32 random bytes); POST /api/forms/\(Self.pathSegment(served.id))/drafts makes one."
            )
        }
        let values: JSON
        switch readValues(served, body: body, contentType: contentType) {
        case .failure(let failure): return failure.response
        case .success(let (v, _)): values = Self.withoutFiles(Self.withoutSecureValues(v, of: served.form), of: served.form)
        }
        switch await checkDraft(served, values: values) {
        case .unavailable(let response): return response
        case .refused(let problems):
            count(served.id, "draft-refused")
            return problemResponse(served, problems)
        case .accepted(let text):
            let token = token ?? FormTokens.newDraftToken()
            let existed = (try? await store.draft(formID: served.id, key: FormTokens.draftKey(token))) != nil
            do {
                let saved = try await saveDraft(served, token: token, values: text)
                if let submissionID = saved.submissionID {
                    return problem(
                        409, "draft-submitted", "Draft already submitted",
                        "This draft was sent as submission \(submissionID); a sent draft is not changed.",
                        extra: [("submission", .string(submissionID))])
                }
                count(served.id, "draft-saved")
                logger.info("draft saved", metadata: ["request": "\(requestID)", "form": "\(served.id)"])
                return ServerResponse(
                    status: existed ? 200 : 201, contentType: "application/json",
                    text: draftJSON(served, token: token, saved).serialized() + "\n",
                    headers: [("Location", "/api/forms/\(Self.pathSegment(served.id))/drafts/\(token)")])
            } catch {
                count(served.id, "store-failed")
                logger.error("draft not saved", metadata: ["request": "\(requestID)", "form": "\(served.id)", "error": "\(error)"])
                return problem(503, "not-stored", "Not stored", "The draft could not be saved; nothing was kept. Send it again.")
            }
        }
    }

    /// `GET /api/forms/{id}/drafts/{token}`: the draft's answers, revision and expiry.
    public func apiDraft(formID: String, token: String) async -> ServerResponse {
        guard let served = served(formID) else { return noSuchForm(formID) }
        switch await openDraft(served, token: token) {
        case .failure(let refusal): return problem(refusal.status, refusal.type, refusal.title, refusal.message)
        case .success(let draft):
            return ServerResponse(
                status: 200, contentType: "application/json", text: draftJSON(served, token: token, draft).serialized() + "\n")
        }
    }

    /// `POST /api/forms/{id}/drafts/{token}/submission`: sends the draft as a submission, checked as every
    /// submission is; a JSON body adds or replaces answers first (a password, never kept in the draft). Once: a
    /// second call answers 200 with the same submission.
    public func apiSubmitDraft(
        formID: String, token: String, body: [UInt8], contentType: String?, requestID: String
    ) async -> ServerResponse {
        guard let served = served(formID) else { return noSuchForm(formID) }
        let draft: Draft
        switch await openDraft(served, token: token) {
        case .failure(let refusal): return problem(refusal.status, refusal.type, refusal.title, refusal.message)
        case .success(let d): draft = d
        }
        if let submissionID = draft.submissionID, let stored = try? await store.submission(formID: served.id, id: submissionID) {
            return submissionCreated(served, stored)
        }
        var members: [(String, JSON)] = []
        if case .object(let saved) = await currentValues(of: draft, served).values { members = saved }
        if !body.isEmpty {
            switch readValues(served, body: body, contentType: contentType) {
            case .failure(let failure): return failure.response
            case .success((.object(let given), _)):
                let names = Set(given.map(\.0))
                members = members.filter { !names.contains($0.0) } + given
            case .success:
                return problem(400, "unreadable-body", "The body could not be read", "The body must be a JSON object of answers.")
            }
        }
        let key = FormTokens.draftKey(token)
        switch await check(served, values: .object(members)) {
        case .unavailable(let response): return response
        case .refused(let problems):
            count(served.id, "refused")
            return problemResponse(served, problems)
        case .accepted(let accepted):
            do {
                let stored = try await storeSubmission(
                    NewSubmission(
                        formID: served.id, revision: served.revision, values: accepted, idempotencyKey: "draft:" + key,
                        receivedAt: WallClock.seconds), of: served)
                try await finishDraft(served, key: key, submissionID: stored.id)
                count(served.id, stored.created ? "stored" : "repeated")
                logger.info(
                    "draft submitted",
                    metadata: ["request": "\(requestID)", "form": "\(served.id)", "submission": "\(stored.id)", "new": "\(stored.created)"])
                return submissionCreated(served, stored)
            } catch {
                count(served.id, "store-failed")
                logger.error("submission not stored", metadata: ["request": "\(requestID)", "form": "\(served.id)", "error": "\(error)"])
                return problem(503, "not-stored", "Not stored", "The submission could not be stored; nothing was kept. Send it again.")
            }
        }
    }

    // MARK: Shared steps

    /// A draft's answers in the current revision's shape (renamed, dropped and kept as the revisions in between
    /// declare); `changed` when the form changed since it was saved.
    func currentValues(of draft: Draft, _ served: ServedForm) async -> (values: JSON, changed: Bool) {
        let stored = JSON.parse(draft.values) ?? .object([])
        guard draft.revision != served.revision else { return (stored, false) }
        let revisions = (try? await store.revisions(formID: served.id)) ?? []
        let reader = RevisionReader(revisions: revisions, currentRevision: served.revision, currentDocument: served.document, form: nil)
        return (reader.read(draft.values, revision: draft.revision).values, true)
    }

    struct DraftRefusal: Error {
        var status: Int
        var type: String
        var title: String
        var message: String
    }

    /// The draft of `token`, unless the token is malformed, unknown or expired (a submitted draft is returned: the
    /// caller sends the user to its submission).
    func openDraft(_ served: ServedForm, token: String) async -> Result<Draft, DraftRefusal> {
        let unknown = DraftRefusal(
            status: 404, type: "no-such-draft", title: loc("No such draft"),
            message: loc("This link does not open a saved form: check that it was copied whole. Drafts are deleted once they expire."))
        guard FormTokens.isDraftToken(token) else { return .failure(unknown) }
        let draft: Draft?
        do { draft = try await store.draft(formID: served.id, key: FormTokens.draftKey(token)) } catch {
            logger.error("draft not read", metadata: ["form": "\(served.id)", "error": "\(error)"])
            return .failure(
                DraftRefusal(
                    status: 503, type: "store-unavailable", title: loc("Store unavailable"),
                    message: loc("Saved forms cannot be read just now. Try again in a moment.")))
        }
        guard let draft else { return .failure(unknown) }
        if draft.submissionID == nil, draft.expiresAt < WallClock.seconds {
            return .failure(
                DraftRefusal(
                    status: 410, type: "draft-expired", title: loc("Draft expired"),
                    message: loc(
                        "This saved form expired on {0} (UTC); its answers were deleted. Fill in the form again.",
                        DateFormat.iso8601(draft.expiresAt.rounded(.down)))
                ))
        }
        return .success(draft)
    }

    /// The draft's verdict: what is given must be right; nothing is required yet. Accepted: the answers as a values
    /// file writes them, without a secure value.
    func checkDraft(_ served: ServedForm, values: JSON) async -> Verdict {
        let form = served.form, cache = choicesCache
        let result: Result<(problems: [Diagnostic], values: String), RuntimeError>
        do {
            result = try await lanes.run { driver in
                do throws(RuntimeError) {
                    var form = try Self.withChoices(form, driver: driver, cache: cache, fresh: false)
                    let problems = try ValuesCheck.draftProblems(values: values, file: nil, form: &form, driver: driver)
                    let kept = Self.withoutSecureValues(form.valuesJSON, of: form)
                    return .success((problems, problems.isEmpty ? kept.serialized(pretty: false) : ""))
                } catch { return .failure(error) }
            }
        } catch {
            return .unavailable(busy(served))
        }
        switch result {
        case .success(let outcome): return outcome.problems.isEmpty ? .accepted(outcome.values) : .refused(outcome.problems)
        case .failure(let error):
            logger.error("a cell failed while checking a draft", metadata: ["form": "\(served.id)", "error": "\(error)"])
            count(served.id, "cell-failed")
            return .unavailable(
                problemPage(
                    served, status: 503, loc("Part of this form (cell '{0}') is not working just now. Try again in a moment.", error.cellID)
                ))
        }
    }

    func saveDraft(_ served: ServedForm, token: String, values: String) async throws(StoreError) -> Draft {
        try await recordRevision(of: served)
        let now = WallClock.seconds
        let saved = try await timed("save-draft") { () throws(StoreError) in
            try await store.saveDraft(
                Draft(
                    key: FormTokens.draftKey(token), formID: served.id, revision: served.revision, values: values, savedAt: now,
                    expiresAt: now + draftLifetime))
        }
        await purgeExpiredDrafts(now: now)
        return saved
    }

    func finishDraft(_ served: ServedForm, key: String, submissionID: String) async throws(StoreError) {
        try await timed("finish-draft") { () throws(StoreError) in
            try await store.finishDraft(formID: served.id, key: key, submissionID: submissionID)
        }
    }

    /// At most once an hour per process: expired drafts are deleted (their answers with them).
    func purgeExpiredDrafts(now: Double) async {
        let due = lastPurge.withLock { last in
            guard now - last >= 3600 else { return false }
            last = now
            return true
        }
        guard due else { return }
        do {
            let deleted = try await store.purgeDrafts(expiredBefore: now)
            if deleted > 0 { logger.info("expired drafts deleted", metadata: ["count": "\(deleted)"]) }
        } catch {
            logger.warning("expired drafts not deleted", metadata: ["error": "\(error)"])
        }
    }

    /// Stores a submission after recording the revision it was checked against.
    func storeSubmission(_ submission: NewSubmission, of served: ServedForm) async throws(StoreError) -> StoredSubmission {
        try await recordRevision(of: served)
        return try await timed("insert") { () throws(StoreError) in try await store.insert(submission) }
    }

    /// The store keeps each revision of a document that answers were stored under (once per process and revision).
    func recordRevision(of served: ServedForm) async throws(StoreError) {
        let name = served.id + "\u{0}" + served.revision
        guard !recordedRevisions.withLock({ $0.contains(name) }) else { return }
        try await timed("record-revision") { () throws(StoreError) in
            try await store.recordRevision(
                FormRevision(formID: served.id, revision: served.revision, document: served.document, firstSeen: WallClock.seconds))
        }
        _ = recordedRevisions.withLock { $0.insert(name) }
    }

    /// Runs a store operation and records its latency (`formwork_store_seconds`, by operation and outcome).
    func timed<T>(_ operation: String, _ body: () async throws(StoreError) -> T) async throws(StoreError) -> T {
        let start = ContinuousClock.now
        do {
            let result = try await body()
            Timer(label: "formwork_store_seconds", dimensions: [("operation", operation), ("outcome", "ok")])
                .recordNanoseconds(Self.nanoseconds(since: start))
            return result
        } catch {
            Timer(label: "formwork_store_seconds", dimensions: [("operation", operation), ("outcome", "failed")])
                .recordNanoseconds(Self.nanoseconds(since: start))
            throw error
        }
    }

    static func nanoseconds(since start: ContinuousClock.Instant) -> Int64 {
        let elapsed = ContinuousClock.now - start
        return elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000
    }

    static func draftPath(_ formID: String, _ token: String) -> String { "/forms/\(pathSegment(formID))/drafts/\(token)" }

    func confirmationRedirect(_ served: ServedForm, _ submissionID: String) -> ServerResponse {
        ServerResponse(
            status: 303,
            headers: [("Location", "/forms/\(Self.pathSegment(served.id))/submitted/\(submissionID)"), ("Cache-Control", "no-store")])
    }

    func draftJSON(_ served: ServedForm, token: String, _ draft: Draft) -> JSON {
        var members: [(String, JSON)] = [
            ("token", .string(token)), ("form", .string(served.id)), ("revision", .string(draft.revision)),
            ("resume", .string(Self.draftPath(served.id, token))),
            ("savedAt", .string(DateFormat.iso8601(draft.savedAt.rounded(.down)))),
            ("expiresAt", .string(DateFormat.iso8601(draft.expiresAt.rounded(.down)))),
            ("values", (JSON.parse(draft.values)) ?? .object([])),
        ]
        if let submissionID = draft.submissionID { members.append(("submission", .string(submissionID))) }
        return .object(members)
    }

    func noSuchForm(_ formID: String) -> ServerResponse {
        problem(404, "no-such-form", "No such form", "There is no form '\(TerminalSafe.clip(formID))' here; GET / lists the forms.")
    }

    /// A JSON API body as answers: a values-file object, or a form body read as the page's names (with its files, for
    /// a form with file fields; a draft keeps no file).
    func readValues(_ served: ServedForm, body: [UInt8], contentType: String?) -> Result<(JSON, Uploads), ResponseFailure> {
        do {
            switch try SubmissionBody.parse(body, contentType: contentType, limits: limits) {
            case .json(let json): return .success((json, try Uploads([], form: served.form)))
            case .fields(let pairs, let files):
                let uploads = try Uploads(files, form: served.form)
                let named = pairs.filter { $0.name != Self.tokenName && $0.name != Self.draftName } + uploads.pairs
                return .success((FormPost(form: served.form).values(named), uploads))
            }
        } catch {
            count(served.id, "refused-body")
            return .failure(ResponseFailure(problem(error.status, "unreadable-body", "The body could not be read", error.message)))
        }
    }

    func submissionCreated(_ served: ServedForm, _ stored: StoredSubmission) -> ServerResponse {
        let location = "/api/forms/\(Self.pathSegment(served.id))/submissions/\(stored.id)"
        let json = JSON.object([
            ("id", .string(stored.id)), ("form", .string(served.id)), ("revision", .string(stored.revision)),
            ("receivedAt", .string(DateFormat.iso8601(stored.receivedAt.rounded(.down)))),
        ])
        return ServerResponse(
            status: stored.created ? 201 : 200, contentType: "application/json", text: json.serialized() + "\n",
            headers: [("Location", location)])
    }
}

/// A response that ends a request early, as an error (so a `Result` can carry it).
struct ResponseFailure: Error {
    var response: ServerResponse
    init(_ response: ServerResponse) { self.response = response }
}
