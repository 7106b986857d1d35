import Crypto
import FormworkCore
import Logging
import Metrics
import Synchronization

/// A response of the core, in no router's types: the adapter copies it into its own.
public struct ServerResponse: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public init(status: Int, contentType: String, text: String, headers: [(name: String, value: String)] = []) {
        self.init(status: status, headers: [("Content-Type", contentType)] + headers, body: Array(text.utf8))
    }

    /// The first value of header `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

/// The web runtime without HTTP: for each request the router hands it (the form id, the body and its content type,
/// the browser's cookie), it renders the page, decodes and checks a submission exactly as `formwork validate` checks
/// values (the same `ValuesCheck`, cells included), stores what is accepted, and answers with a `ServerResponse`.
public final class FormService: Sendable {
    /// The hidden input that carries the form token.
    public static let tokenName = "_formwork_token"
    /// The button name a page may add for other intents than submitting (drafts).
    public static let intentName = "_formwork_intent"
    /// The hidden input of a page resumed from a draft: the draft's token (the page's submission finishes it).
    public static let draftName = "_formwork_draft"
    /// The cookie the token is bound to.
    public static let cookieName = "formwork_csrf"

    public let catalog: FormCatalog
    public let store: any SubmissionStore
    let lanes: CellLanes
    /// Answers of packs' choices sources (`choicesFrom`), kept as long as each pack allows, for pages.
    let choicesCache = ChoicesCache()
    let tokens: FormTokens
    let limits: SubmissionLimits
    let logger: Logger
    /// Seconds a saved draft can be resumed.
    public let draftLifetime: Double
    /// The bearer token that may read stored answers over HTTP (`GET /api/forms/{id}/submissions`); nil: nobody.
    let readerToken: [UInt8]?
    /// The (form, revision) pairs this process recorded in the store already.
    let recordedRevisions = Mutex<Set<String>>([])
    /// When this process last deleted expired drafts (seconds since 1970).
    let lastPurge = Mutex<Double>(0)
    /// Blank pages, rendered once per form revision, split where the token goes.
    private let blankPages = Mutex<[String: (revision: String, before: [UInt8], after: [UInt8])]>([:])

    public init(
        catalog: FormCatalog, store: any SubmissionStore, lanes: CellLanes, tokens: FormTokens, limits: SubmissionLimits, logger: Logger,
        draftLifetime: Double = 30 * 86400, readerToken: [UInt8]? = nil
    ) {
        self.draftLifetime = draftLifetime
        self.readerToken = readerToken
        self.catalog = catalog
        self.store = store
        self.lanes = lanes
        self.tokens = tokens
        self.limits = limits
        self.logger = logger
    }

    // MARK: Pages

    /// `GET /`: the forms, each a link to its page.
    public func index() -> ServerResponse {
        var items = ""
        for served in catalog.forms {
            items += "<li><a href=\"/forms/\(Self.pathSegment(served.id))\">\(HTML.escape(served.title))</a></li>\n"
        }
        if items.isEmpty { items = "<li>\(HTML.escape(loc("No forms are served from this folder yet.")))</li>\n" }
        return htmlPage(status: 200, title: "Forms", body: "<h1>Forms</h1>\n<ul class=\"fw-form-list\">\n\(items)</ul>\n")
    }

    /// `GET /forms/{id}`: the blank page (or prefilled from `query`, the page's own names), with a fresh token bound
    /// to `cookie`. `setCookie` is set when the browser had none.
    public func page(formID: String, cookie: String?, query rawQuery: String = "") async -> ServerResponse {
        guard let served = served(formID) else { return notFound(formID) }
        // The query is read as the page's own form would send it (`+` is a space).
        let query: [(name: String, value: String)]
        do throws(SubmissionBody.Refusal) { query = try SubmissionBody.urlEncoded(Array(rawQuery.utf8), limits: limits) } catch {
            return problemPage(served, status: error.status, loc("The address could not be read: {0}.", error.message))
        }
        let (cookie, setCookie) = cookie.flatMap { Self.isCookieValue($0) ? $0 : nil }.map { ($0, false) } ?? (FormTokens.newCookie(), true)
        let token = tokens.issue(formID: served.id, cookie: cookie)
        var response: ServerResponse
        // One blank page per form and language (a page in French is not one in English).
        let blankKey = served.id + "\u{0}" + served.form.language
        if query.isEmpty, let cached = blankPages.withLock({ $0[blankKey] }), cached.revision == served.revision {
            response = htmlResponse(200, Self.joined(cached.before, token, cached.after))
        } else {
            let values = query.isEmpty ? nil : FormPost(form: served.form).values(query, prefill: true)
            response = await render(served, values: values, problems: [], token: query.isEmpty ? Self.tokenPlaceholder : token)
            if query.isEmpty, response.status == 200 {
                let html = String(decoding: response.body, as: UTF8.self)
                if let range = html.range(of: Self.tokenPlaceholder) {
                    let before = Array(html[..<range.lowerBound].utf8), after = Array(html[range.upperBound...].utf8)
                    blankPages.withLock { $0[blankKey] = (served.revision, before, after) }
                    response = htmlResponse(200, Self.joined(before, token, after))
                }
            }
        }
        if setCookie { response.headers.append(("Set-Cookie", Self.cookieHeader(cookie))) }
        return response
    }

    static let tokenPlaceholder = "formwork-token-placeholder-0d9c1e"

    /// A cached page's two halves with the token between them, in one array made at its size (`a + b + c` made two).
    static func joined(_ before: [UInt8], _ token: String, _ after: [UInt8]) -> [UInt8] {
        var page: [UInt8] = []
        page.reserveCapacity(before.count + token.utf8.count + after.count)
        page += before
        page += token.utf8
        page += after
        return page
    }

    /// `POST /forms/{id}`: a page posted by a browser. Accepted: stored, then 303 to the confirmation page. Refused:
    /// 422 and the page again, with the answers (never a secure one), an error summary and each field's errors.
    public func post(formID: String, body: [UInt8], contentType: String?, cookie: String?, requestID: String) async -> ServerResponse {
        guard let served = served(formID) else { return notFound(formID) }
        let pairs: [(name: String, value: String)]
        var uploads: Uploads
        do {
            switch try SubmissionBody.parse(body, contentType: contentType, limits: limits) {
            case .fields(let fields, let files):
                pairs = fields
                uploads = try Uploads(files, form: served.form)
            case .json:
                return problemPage(served, status: 415, loc("This page posts a form; send JSON to /api/forms/{0}/submissions.", formID))
            }
        } catch {
            count(served.id, "refused-body")
            return problemPage(served, status: error.status, loc("The form could not be read: {0}.", error.message))
        }
        let sentToken = pairs.last { $0.name == Self.tokenName }?.value
        let nonce: String
        switch tokens.verify(sentToken, formID: served.id, cookie: cookie) {
        case .valid(let n): nonce = n
        case .forged:
            count(served.id, "refused-token")
            logger.notice("form post refused: missing or forged token", metadata: ["request": "\(requestID)", "form": "\(served.id)"])
            return problemPage(
                served, status: 403,
                loc(
                    "This form was not sent from its page on this site, or your browser does not keep this site's cookie. Open the form again and send it from there."
                )
            )
        case .expired:
            // The answers are kept: the page comes back with a fresh token and says why.
            let values = FormPost(form: served.form).values(pairs)
            return await render(
                served, values: values,
                problems: [
                    WebPage.Problem(
                        message: loc("This page was open too long to be sent. Check your answers and send it again."), target: nil)
                ],
                token: tokens.issue(formID: served.id, cookie: cookie ?? ""), status: 422, draftToken: Self.draftToken(in: pairs))
        }
        let draftToken = Self.draftToken(in: pairs)
        if pairs.last(where: { $0.name == Self.intentName })?.value == "draft" {
            return await saveDraftFromPage(served, pairs: pairs, cookie: cookie, draftToken: draftToken, requestID: requestID)
        }
        let values = FormPost(form: served.form).values(pairs + uploads.pairs)
        uploads.refuseNamesWithoutFiles(in: values, form: served.form)
        uploads.dropFilesWithoutValues(in: values, form: served.form)
        let verdict = Self.adding(uploads, to: await check(served, values: values))
        switch verdict {
        case .unavailable(let response): return response
        case .refused(let problems):
            count(served.id, "refused")
            logger.info(
                "form post refused", metadata: ["request": "\(requestID)", "form": "\(served.id)", "problems": "\(problems.count)"])
            return await render(
                served, values: values, problems: problems, token: tokens.issue(formID: served.id, cookie: cookie ?? ""), status: 422,
                draftToken: draftToken)
        case .accepted(let accepted):
            do {
                // A page resumed from a draft is stored once per draft (two tabs, or a resend, store one row).
                let draftKey = draftToken.map(FormTokens.draftKey)
                let stored = try await storeSubmission(
                    NewSubmission(
                        formID: served.id, revision: served.revision, values: accepted,
                        idempotencyKey: draftKey.map { "draft:" + $0 } ?? "page:" + nonce, receivedAt: WallClock.seconds,
                        files: uploads.files), of: served)
                if let draftKey { try await finishDraft(served, key: draftKey, submissionID: stored.id) }
                count(served.id, stored.created ? "stored" : "repeated")
                logger.info(
                    "submission stored",
                    metadata: ["request": "\(requestID)", "form": "\(served.id)", "submission": "\(stored.id)", "new": "\(stored.created)"])
                return ServerResponse(
                    status: 303,
                    headers: [("Location", "/forms/\(Self.pathSegment(served.id))/submitted/\(stored.id)"), ("Cache-Control", "no-store")])
            } catch {
                count(served.id, "store-failed")
                logger.error("submission not stored", metadata: ["request": "\(requestID)", "form": "\(served.id)", "error": "\(error)"])
                return problemPage(
                    served, status: 503,
                    loc("Your answers could not be saved just now; nothing was stored. Go back and send the form again in a moment."))
            }
        }
    }

    /// `GET /forms/{id}/submitted/{submission}`: the confirmation (no answer shown: the link may be shared).
    public func confirmation(formID: String, submissionID: String) async -> ServerResponse {
        guard let served = served(formID) else { return notFound(formID) }
        guard submissionID.utf8.count == 32, submissionID.utf8.allSatisfy({ FormPost.isHexDigit($0) }),
            (try? await store.submission(formID: served.id, id: submissionID)) != nil
        else {
            return htmlPage(
                status: 404, title: loc("Not found"),
                body: "<h1>\(HTML.escape(loc("Not found")))</h1>\n<p>\(HTML.escape(loc("There is no such submission.")))</p>\n")
        }
        // The form's title is set in bold inside the translated sentence: the sentence is escaped, then the title's
        // own escaped text is wrapped.
        let title = HTML.escape(served.title)
        let received = HTML.escape(loc("Your answers to {0} were received.", served.title)).replacing(
            title, with: "<strong>\(title)</strong>")
        return htmlPage(
            status: 200, title: loc("Thank you"),
            body: """
                <h1>\(HTML.escape(loc("Thank you")))</h1>
                <p>\(received)</p>
                <p>\(HTML.escape(loc("Reference:"))) <code>\(submissionID.prefix(12))</code></p>
                <p><a href="/forms/\(Self.pathSegment(served.id))">\(HTML.escape(loc("Fill in the form again")))</a></p>

                """)
    }

    // MARK: JSON API

    /// `POST /api/forms/{id}/submissions`: a values-file object (JSON), or a form body. 201 with `Location` once
    /// stored; 422 `application/problem+json` (RFC 9457) with every problem's pointer.
    public func apiSubmit(
        formID: String, body: [UInt8], contentType: String?, idempotencyKey: String?, requestID: String
    ) async -> ServerResponse {
        guard let served = served(formID) else { return noSuchForm(formID) }
        if let key = idempotencyKey,
            key.isEmpty || key.utf8.count > 255 || key.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value > 0x7E })
        {
            return problem(400, "bad-idempotency-key", "Bad Idempotency-Key", "Idempotency-Key must be 1 to 255 visible ASCII characters.")
        }
        let values: JSON
        var uploads: Uploads
        switch readValues(served, body: body, contentType: contentType) {
        case .failure(let failure): return failure.response
        case .success(let read): (values, uploads) = read
        }
        uploads.refuseNamesWithoutFiles(in: values, form: served.form)
        uploads.dropFilesWithoutValues(in: values, form: served.form)
        switch Self.adding(uploads, to: await check(served, values: values)) {
        case .unavailable(let response): return response
        case .refused(let problems):
            count(served.id, "refused")
            logger.info(
                "API submission refused", metadata: ["request": "\(requestID)", "form": "\(served.id)", "problems": "\(problems.count)"])
            return problemResponse(served, problems)
        case .accepted(let accepted):
            do {
                let stored = try await storeSubmission(
                    NewSubmission(
                        formID: served.id, revision: served.revision, values: accepted, idempotencyKey: idempotencyKey.map { "api:" + $0 },
                        receivedAt: WallClock.seconds, files: uploads.files), of: served)
                count(served.id, stored.created ? "stored" : "repeated")
                logger.info(
                    "submission stored",
                    metadata: ["request": "\(requestID)", "form": "\(served.id)", "submission": "\(stored.id)", "new": "\(stored.created)"])
                return submissionCreated(served, stored)
            } catch {
                count(served.id, "store-failed")
                logger.error("submission not stored", metadata: ["request": "\(requestID)", "form": "\(served.id)", "error": "\(error)"])
                return problem(503, "not-stored", "Not stored", "The submission could not be stored; nothing was kept. Send it again.")
            }
        }
    }

    /// `GET /api/forms/{id}/submissions/{submission}`: that a submission exists, and when (its answers are not served).
    public func apiSubmission(formID: String, submissionID: String) async -> ServerResponse {
        guard let served = served(formID), submissionID.utf8.count == 32,
            let stored = try? await store.submission(formID: served.id, id: submissionID)
        else { return problem(404, "no-such-submission", "No such submission", "There is no such submission of this form.") }
        let json = JSON.object([
            ("id", .string(stored.id)), ("form", .string(stored.formID)), ("revision", .string(stored.revision)),
            ("receivedAt", .string(DateFormat.iso8601(stored.receivedAt.rounded(.down)))),
        ])
        return ServerResponse(status: 200, contentType: "application/json", text: json.serialized() + "\n")
    }

    /// `GET /api/forms/{id}/schema`: the JSON Schema of the values the form accepts (`formwork schema --values`).
    public func schema(formID: String) -> ServerResponse {
        guard let served = served(formID) else {
            return problem(
                404, "no-such-form", "No such form", "There is no form '\(TerminalSafe.clip(formID))' here; GET / lists the forms.")
        }
        return ServerResponse(
            status: 200, contentType: "application/schema+json", text: ValuesSchema.generate(served.form).serialized() + "\n")
    }

    /// `GET /openapi.json`: OpenAPI 3.1 of the JSON API, with each form's values schema.
    public func openAPI() -> ServerResponse {
        ServerResponse(status: 200, contentType: "application/json", text: OpenAPIDocument.generate(catalog.forms).serialized() + "\n")
    }

    /// `GET /healthz`: 200 while the process serves (liveness).
    public func health() -> ServerResponse {
        ServerResponse(status: 200, contentType: "application/json", text: "{\"status\": \"ok\", \"forms\": \(catalog.forms.count)}\n")
    }

    /// `GET /readyz`: 200 while the store answers, 503 while it does not (a proxy then sends requests elsewhere).
    public func readiness() async -> ServerResponse {
        do {
            _ = try await store.list(formID: "", after: 0, limit: 1)
            return ServerResponse(status: 200, contentType: "application/json", text: "{\"status\": \"ready\"}\n")
        } catch {
            return ServerResponse(status: 503, contentType: "application/json", text: "{\"status\": \"store unavailable\"}\n")
        }
    }

    // MARK: The verdict

    enum Verdict: Sendable {
        /// The values as a values file writes them (JSON text).
        case accepted(String)
        case refused([Diagnostic])
        case unavailable(ServerResponse)
    }

    /// What `formwork validate` says of `values`, in a cell lane.
    func check(_ served: ServedForm, values: JSON) async -> Verdict {
        let form = served.form, cache = choicesCache
        let result: Result<(problems: [Diagnostic], values: String), RuntimeError>
        do {
            result = try await lanes.run { driver in
                do throws(RuntimeError) {
                    // Checked against the choices packs list now, not a kept answer.
                    var form = try Self.withChoices(form, driver: driver, cache: cache, fresh: true)
                    let problems = try ValuesCheck.problems(values: values, file: nil, form: &form, driver: driver)
                    return .success((problems, problems.isEmpty ? form.valuesJSON.serialized(pretty: false) : ""))
                } catch { return .failure(error) }
            }
        } catch {
            return .unavailable(busy(served))
        }
        switch result {
        case .success(let outcome): return outcome.problems.isEmpty ? .accepted(outcome.values) : .refused(outcome.problems)
        case .failure(let error):
            logger.error("a cell failed while checking a submission", metadata: ["form": "\(served.id)", "error": "\(error)"])
            count(served.id, "cell-failed")
            return .unavailable(
                problemPage(
                    served, status: 503, loc("Part of this form (cell '{0}') is not working just now. Try again in a moment.", error.cellID)
                ))
        }
    }

    /// `form` with the choices its packs supply (`choicesFrom`): for a page, an answer kept as long as the pack
    /// allows; for a submission (`fresh`), the pack's answer now. A source that cannot be listed, or a value of the
    /// document it no longer lists, fails like a cell: the page says part of the form is not working.
    static func withChoices(_ form: Form, driver: any CellDriver, cache: ChoicesCache, fresh: Bool) throws(RuntimeError) -> Form {
        guard form.hasPackChoices else { return form }
        var form = form
        var failed: ChoicesSource?
        do throws(FormError) {
            try form.resolveChoices { (source) throws(RuntimeError) in
                failed = source
                return try cache.choices(source, fresh: fresh) { (s) throws(RuntimeError) in
                    try driver.choices(packPath: s.packPath, source: s.source)
                }
            }
        } catch {
            let message = if case .invalid(let problems) = error { problems.map(\.message).joined(separator: "; ") } else { "\(error)" }
            throw RuntimeError(
                cellID: failed.map(\.description) ?? "choices", fieldID: nil, packPath: failed?.packPath ?? "", message: message)
        }
        return form
    }

    // MARK: Rendering

    /// The page of `served` with `values` (nil: blank) and the problems of a refused submission.
    func render(
        _ served: ServedForm, values: JSON?, problems: [Diagnostic], token: String, status: Int = 200, draftToken: String? = nil,
        notice: WebPage.Notice? = nil
    ) async -> ServerResponse {
        await render(
            served, values: values, summary: nil, problems: problems, token: token, status: status, draftToken: draftToken, notice: notice)
    }

    func render(
        _ served: ServedForm, values: JSON?, problems: [WebPage.Problem], token: String, status: Int, draftToken: String? = nil
    ) async -> ServerResponse {
        await render(
            served, values: values, summary: problems, problems: [], token: token, status: status, draftToken: draftToken, notice: nil)
    }

    /// The button that saves a draft: it skips the browser's checks, as the server's draft check asks less. Made for
    /// each page, in its language (a stored `static let` kept the first request's language for every later one).
    static var draftButton: WebPage.Button {
        WebPage.Button(label: loc("Save and continue later"), name: intentName, value: "draft", primary: false, skipsValidation: true)
    }

    private func render(
        _ served: ServedForm, values: JSON?, summary: [WebPage.Problem]?, problems: [Diagnostic], token: String, status: Int,
        draftToken: String?, notice: WebPage.Notice?
    ) async -> ServerResponse {
        let form = served.form, cache = choicesCache
        let action = "/forms/" + Self.pathSegment(served.id)
        let result: Result<String, RuntimeError>
        do {
            result = try await lanes.run { driver in
                let runtime = FormRuntime(driver: driver)
                do throws(RuntimeError) {
                    var form = try Self.withChoices(form, driver: driver, cache: cache, fresh: false)
                    if let values {
                        _ = ValuesFile.collect(Self.withoutSecureValues(values, of: form), into: &form, file: nil, requireComplete: false)
                    }
                    var tree = try runtime.render(form)
                    let links = (summary ?? []) + Self.attach(problems, to: &tree)
                    var hidden = [WebPage.HiddenInput(name: Self.tokenName, value: token)]
                    if let draftToken { hidden.append(.init(name: Self.draftName, value: draftToken)) }
                    var page = WebPage(action: action, hiddenInputs: hidden, problems: links, notice: notice)
                    page.buttons = (Renderer.hasSubmitButton(tree) ? [] : [.init(label: loc("Submit"))]) + [Self.draftButton]
                    return .success(Renderer.html(tree, page: page))
                } catch { return .failure(error) }
            }
        } catch {
            return busy(served)
        }
        switch result {
        case .success(let html): return htmlResponse(status, html)
        case .failure(let error):
            logger.error("a cell failed while rendering a page", metadata: ["form": "\(served.id)", "error": "\(error)"])
            count(served.id, "cell-failed")
            return problemPage(
                served, status: 503, loc("Part of this form (cell '{0}') is not working just now. Try again in a moment.", error.cellID))
        }
    }

    /// `values` without the values of secure fields, in repeated groups' items too: a refused page never sends a
    /// password back, and a draft never keeps one.
    static func withoutSecureValues(_ values: JSON, of form: Form) -> JSON {
        var secure: Set<String> = []
        for section in form.sections {
            for field in section.fields + section.template where field.textInput.secureEntry == true { secure.insert(field.id) }
        }
        guard !secure.isEmpty else { return values }
        // An object's members are its fields' (`{"account": {"password": …}}` is the field `account.password`), and
        // an object inside it is walked too (`billing.card.pin`).
        let objects = form.objectPaths
        func strip(_ value: JSON, _ prefix: String) -> JSON {
            switch value {
            case .object(let members):
                .object(
                    members.filter { !secure.contains(prefix + $0.0) }.map {
                        ($0.0, strip($0.1, objects.contains(prefix + $0.0) ? prefix + $0.0 + "." : ""))
                    })
            case .array(let items): .array(items.map { strip($0, "") })
            default: value
            }
        }
        return strip(values, "")
    }

    /// Puts each problem under its field (unless the field shows that message already) and returns the summary's
    /// links, in the order of the form.
    static func attach(_ problems: [Diagnostic], to tree: inout ViewTree) -> [WebPage.Problem] {
        var byField: [String: [String]] = [:]
        var unplaced: [String] = []
        for problem in problems {
            let id = Self.fieldID(of: problem.pointer)
            if !id.isEmpty { byField[id, default: []].append(problem.message) } else { unplaced.append(problem.message) }
        }
        var links: [WebPage.Problem] = []
        var placed: Set<String> = []
        for s in tree.sections.indices {
            if let messages = byField[tree.sections[s].id], tree.sections[s].repeatGroup != nil {
                placed.insert(tree.sections[s].id)
                for message in messages { links.append(.init(message: message, target: "section-" + tree.sections[s].id)) }
            }
            for f in tree.sections[s].fields.indices {
                // A field of an object, `billing.city`, is refused at `/billing/city`.
                var id = tree.sections[s].fields[f].id
                if id.utf8.contains(0x2E) { id = id.replacing(".", with: "/") }
                guard let messages = byField[id] else { continue }
                placed.insert(id)
                for message in messages {
                    let shown = tree.sections[s].fields[f].nodes.contains {
                        if case .message(.error, let text) = $0 { text == message } else { false }
                    }
                    if !shown { tree.sections[s].fields[f].nodes.append(.message(kind: .error, text: message)) }
                    links.append(.init(message: message, target: tree.sections[s].fields[f].accessibilityId))
                }
            }
        }
        for (id, messages) in byField.sorted(by: { $0.key < $1.key }) where !placed.contains(id) {
            for message in messages { links.append(.init(message: message, target: nil)) }
        }
        return links + unplaced.map { .init(message: $0, target: nil) }
    }

    /// `/tasks/0/title` → `tasks/0/title` (the id of the item's field), `/a~1b` → `a/b`.
    static func fieldID(of pointer: String) -> String {
        guard pointer.hasPrefix("/") else { return "" }
        return String(pointer.dropFirst()).replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
    }

    // MARK: Responses

    func htmlResponse(_ status: Int, _ html: String) -> ServerResponse { htmlResponse(status, Array(html.utf8)) }

    func htmlResponse(_ status: Int, _ bytes: [UInt8]) -> ServerResponse {
        ServerResponse(status: status, headers: [("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-store")], body: bytes)
    }

    func htmlPage(status: Int, title: String, body: String) -> ServerResponse {
        htmlResponse(
            status,
            """
            <!DOCTYPE html>
            <html lang="\(HTML.escape(Self.language ?? "en"))"\(LanguageTag.isRightToLeft(Self.language ?? "en") ? " dir=\"rtl\"" : "")>
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(HTML.escape(title))</title>
            <style>\(Renderer.inlineStyles[0])</style>
            </head>
            <body>
            <main>
            \(body)</main>
            </body>
            </html>

            """)
    }

    func notFound(_ formID: String) -> ServerResponse {
        htmlPage(
            status: 404, title: loc("Form not found"),
            body:
                "<h1>\(HTML.escape(loc("Form not found")))</h1>\n<p>\(HTML.escape(loc("There is no form “{0}” here.", TerminalSafe.clip(formID)))) <a href=\"/\">\(HTML.escape(loc("See the forms")))</a>.</p>\n"
        )
    }

    func problemPage(_ served: ServedForm, status: Int, _ message: String) -> ServerResponse {
        htmlPage(
            status: status, title: loc("{0}: not sent", served.title),
            body:
                "<h1>\(HTML.escape(served.title))</h1>\n<p role=\"alert\">\(HTML.escape(message))</p>\n<p><a href=\"/forms/\(Self.pathSegment(served.id))\">\(HTML.escape(loc("Back to the form")))</a></p>\n"
        )
    }

    func busy(_ served: ServedForm) -> ServerResponse {
        var response = problemPage(served, status: 503, loc("The server is busy. Try again in a moment."))
        response.headers.append(("Retry-After", "1"))
        return response
    }

    /// RFC 9457 problem details.
    func problem(_ status: Int, _ type: String, _ title: String, _ detail: String, extra: [(String, JSON)] = []) -> ServerResponse {
        let json = JSON.object(
            [
                ("type", .string("https://formwork.dev/problems/\(type)")), ("title", .string(title)), ("status", .integer(Int64(status))),
                ("detail", .string(detail)),
            ]
                + extra)
        return ServerResponse(status: status, contentType: "application/problem+json", text: json.serialized() + "\n")
    }

    func problemResponse(_ served: ServedForm, _ problems: [Diagnostic]) -> ServerResponse {
        let errors = problems.map { p in
            JSON.object([("pointer", .string(p.pointer)), ("message", .string(p.message)), ("code", .string(Self.code(of: p)))])
        }
        return problem(
            422, "invalid-values", "The values were refused",
            problems.count == 1
                ? "1 problem with the values of form '\(served.id)'."
                : "\(problems.count) problems with the values of form '\(served.id)'.",
            extra: [("form", .string(served.id)), ("revision", .string(served.revision)), ("errors", .array(errors))])
    }

    /// A stable, coarse code for a problem, for clients that branch on it: the one the check gave it, else (a cell's
    /// `value_changed` says only a message) `invalid`.
    static func code(of problem: Diagnostic) -> String { problem.code ?? "invalid" }

    func count(_ formID: String, _ outcome: String) {
        Counter(label: "formwork_submissions_total", dimensions: [("form", formID), ("outcome", outcome)]).increment()
    }

    // MARK: Helpers

    /// A form id as one URL path segment (percent-encoded beyond unreserved characters).
    public static func pathSegment(_ id: String) -> String {
        var out = ""
        for b in id.utf8 {
            switch b {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(b))
            default:
                out += "%" + FormTokens.hex([b]).uppercased()
            }
        }
        return out
    }

    static func isCookieValue(_ value: String) -> Bool { value.utf8.count == 32 && value.utf8.allSatisfy(FormPost.isHexDigit) }

    static func cookieHeader(_ value: String) -> String { "\(cookieName)=\(value); Path=/; HttpOnly; SameSite=Strict" }

    /// The Content-Security-Policy of every page: no script or style but the renderer's own (by hash).
    public static let contentSecurityPolicy: String = {
        func hash(_ text: String) -> String {
            "'sha256-" + FormTokens.base64Standard(Array(SHA256.hash(data: Array(text.utf8)))) + "'"
        }
        let scripts = Renderer.inlineScripts.map(hash).joined(separator: " ")
        let styles = Renderer.inlineStyles.map(hash).joined(separator: " ")
        return "default-src 'none'; script-src \(scripts); style-src \(styles); style-src-attr 'unsafe-inline'; img-src 'self' data:; "
            + "form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
    }()
}

extension FormPost {
    static func isHexDigit(_ b: UInt8) -> Bool { SubmissionBody.hexValue(b) != nil && !(UInt8(ascii: "A")...UInt8(ascii: "F")).contains(b) }
}
