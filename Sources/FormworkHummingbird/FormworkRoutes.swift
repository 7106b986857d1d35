import FormworkServer
import Hummingbird
import Logging
import HTTPTypes
import NIOCore

/// The Hummingbird 2 adapter of `FormService`: its routes on a router, and the middleware every response passes.
/// Each route copies the request into the core's terms (form id, body bytes, content type, cookie) and the core's
/// `ServerResponse` back; no rule lives here.
public enum FormworkRoutes {
    /// Adds the web runtime's routes to `router`:
    /// `GET /`, `GET|POST /forms/{id}`, `GET /forms/{id}/submitted/{submission}`,
    /// `GET|POST /api/forms/{id}/submissions`, `GET /api/forms/{id}/submissions/{submission}`,
    /// `GET /api/forms/{id}/submissions/{submission}/files/{field}`, `GET /api/forms/{id}/schema`,
    /// `GET /forms/{id}/drafts/{token}`, `POST /api/forms/{id}/drafts`, `GET|PUT /api/forms/{id}/drafts/{token}`,
    /// `POST /api/forms/{id}/drafts/{token}/submission`, `GET /openapi.json`, `GET /healthz`, `GET /readyz`.
    public static func add<Context: RequestContext>(to router: Router<Context>, service: FormService, limits: SubmissionLimits) {
        router.add(middleware: SecurityHeaders())
        router.add(middleware: LanguageNegotiation(service: service))
        router.get("/") { _, _ in response(service.index()) }
        router.get("/forms/:form") { request, context in
            let id = try context.parameters.require("form")
            return response(
                await service.page(formID: id, cookie: request.cookies[FormService.cookieName]?.value, query: request.uri.query ?? ""))
        }
        router.post("/forms/:form") { request, context in
            let id = try context.parameters.require("form")
            let body = try await collect(request, limits: limits)
            return response(
                await service.post(
                    formID: id, body: body, contentType: request.headers[.contentType],
                    cookie: request.cookies[FormService.cookieName]?.value,
                    requestID: context.id))
        }
        router.get("/forms/:form/submitted/:submission") { _, context in
            response(
                await service.confirmation(
                    formID: try context.parameters.require("form"), submissionID: try context.parameters.require("submission")))
        }
        router.post("/api/forms/:form/submissions") { request, context in
            let id = try context.parameters.require("form")
            let body = try await collect(request, limits: limits)
            return response(
                await service.apiSubmit(
                    formID: id, body: body, contentType: request.headers[.contentType],
                    idempotencyKey: request.headers[HeaderNames.idempotencyKey], requestID: context.id))
        }
        router.get("/api/forms/:form/submissions") { request, context in
            response(
                await service.apiList(
                    formID: try context.parameters.require("form"), authorization: request.headers[.authorization],
                    query: request.uri.query ?? ""))
        }
        router.get("/api/forms/:form/submissions/:submission") { _, context in
            response(
                await service.apiSubmission(
                    formID: try context.parameters.require("form"), submissionID: try context.parameters.require("submission")))
        }
        router.get("/api/forms/:form/submissions/:submission/files/:field") { request, context in
            response(
                await service.apiFile(
                    formID: try context.parameters.require("form"), submissionID: try context.parameters.require("submission"),
                    field: try context.parameters.require("field"), authorization: request.headers[.authorization]))
        }
        router.get("/forms/:form/drafts/:token") { request, context in
            response(
                await service.draftPage(
                    formID: try context.parameters.require("form"), token: try context.parameters.require("token"),
                    cookie: request.cookies[FormService.cookieName]?.value, saved: request.uri.queryParameters["saved"] == "1"))
        }
        router.post("/api/forms/:form/drafts") { request, context in
            let body = try await collect(request, limits: limits)
            return response(
                await service.apiSaveDraft(
                    formID: try context.parameters.require("form"), token: nil, body: body, contentType: request.headers[.contentType],
                    requestID: context.id))
        }
        router.put("/api/forms/:form/drafts/:token") { request, context in
            let body = try await collect(request, limits: limits)
            return response(
                await service.apiSaveDraft(
                    formID: try context.parameters.require("form"), token: try context.parameters.require("token"), body: body,
                    contentType: request.headers[.contentType], requestID: context.id))
        }
        router.get("/api/forms/:form/drafts/:token") { _, context in
            response(await service.apiDraft(formID: try context.parameters.require("form"), token: try context.parameters.require("token")))
        }
        router.post("/api/forms/:form/drafts/:token/submission") { request, context in
            let body = try await collect(request, limits: limits)
            return response(
                await service.apiSubmitDraft(
                    formID: try context.parameters.require("form"), token: try context.parameters.require("token"), body: body,
                    contentType: request.headers[.contentType], requestID: context.id))
        }
        router.get("/api/forms/:form/schema") { _, context in response(service.schema(formID: try context.parameters.require("form"))) }
        router.get("/openapi.json") { _, _ in response(service.openAPI()) }
        router.get("/healthz") { _, _ in response(service.health()) }
        router.get("/readyz") { _, _ in response(await service.readiness()) }
    }

    /// The body, at most `limits.maxBytes` (413 beyond, without reading the rest).
    static func collect(_ request: Request, limits: SubmissionLimits) async throws -> [UInt8] {
        let limit = limits.bodyLimit(contentType: request.headers[.contentType])
        if let length = request.headers[.contentLength].flatMap(Int.init), length > limit {
            throw HTTPError(.contentTooLarge, message: "the body is \(length) bytes; this server takes at most \(limit)")
        }
        let buffer = try await request.body.collect(upTo: limit)
        return Array(buffer.readableBytesView)
    }

    /// The core's response in Hummingbird's terms.
    public static func response(_ r: ServerResponse) -> Response {
        var headers = HTTPFields()
        headers.reserveCapacity(r.headers.count + 8)  // and the middleware's
        for (name, value) in r.headers {
            if let field = HeaderNames.named(name) { headers.append(HTTPField(name: field, value: value)) }
        }
        headers[.contentLength] = String(r.body.count)
        return Response(status: .init(code: r.status), headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: r.body)))
    }
}

/// Each request's language (`FormService.language`): `?lang=` first, then `Accept-Language`, against the languages of
/// the form the path names (`/forms/{id}…`, `/api/forms/{id}…`), or the host's catalogues. The response says which
/// (`Content-Language`) and that it varies with the header (`Vary`).
struct LanguageNegotiation<Context: RequestContext>: RouterMiddleware {
    let service: FormService

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let language = service.language(
            formID: Self.formID(in: request.uri.path), acceptLanguage: request.headers[HeaderNames.acceptLanguage],
            asked: request.uri.queryParameters["lang"].map(String.init))
        var response = try await FormService.inLanguage(language) { try await next(request, context) }
        response.headers[HeaderNames.contentLanguage] = language
        response.headers[HeaderNames.vary] = "Accept-Language"
        return response
    }

    /// `abc` in `/forms/abc/…` or `/api/forms/abc/…` (still percent-encoded ids are not forms: nil). Read from the
    /// path's bytes in one pass: every request asks, and splitting the whole path into an array showed in a GET's
    /// profile (docs/performance.md, "A token signed from bytes").
    static func formID(in path: String) -> String? {
        var utf8 = path.utf8[...]
        // Empty segments are skipped, as the router does: `//forms//abc` names `abc`.
        func segment() -> Substring.UTF8View? {
            while utf8.first == UInt8(ascii: "/") { utf8 = utf8.dropFirst() }
            guard !utf8.isEmpty else { return nil }
            let end = utf8.firstIndex(of: UInt8(ascii: "/")) ?? utf8.endIndex
            defer { utf8 = utf8[end...] }
            return Substring(utf8[..<end]).utf8
        }
        guard var first = segment() else { return nil }
        if first.elementsEqual("api".utf8) {
            guard let next = segment() else { return nil }
            first = next
        }
        guard first.elementsEqual("forms".utf8), let id = segment() else { return nil }
        return String(Substring(id))
    }
}

/// The headers every response carries: a Content-Security-Policy that allows no script or style but the renderer's
/// own (by hash, no `unsafe-inline`), no MIME sniffing, no referrer beyond the origin, no framing.
struct SecurityHeaders<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response: Response
        do { response = try await next(request, context) } catch let error as HTTPResponseError {
            response = try error.response(from: request, context: context)
        }
        // The fixed fields made once: a field made from text checks every byte of its value (the policy's 500).
        response.headers[fields: .contentSecurityPolicy] = Fixed.policy
        response.headers[fields: .xContentTypeOptions] = Fixed.noSniff
        response.headers[fields: HeaderNames.referrerPolicy] = Fixed.referrer
        response.headers[fields: HeaderNames.frameOptions] = Fixed.frames
        response.headers[HeaderNames.requestID] = context.id
        return response
    }
}

/// The security headers' fields (a generic type has no stored statics).
private enum Fixed {
    static let policy = [HTTPField(name: .contentSecurityPolicy, value: FormService.contentSecurityPolicy)]
    static let noSniff = [HTTPField(name: .xContentTypeOptions, value: "nosniff")]
    static let referrer = [HTTPField(name: HeaderNames.referrerPolicy, value: "same-origin")]
    static let frames = [HTTPField(name: HeaderNames.frameOptions, value: "DENY")]
}

/// Header names read or set on every request, made once (`HTTPField.Name(_:)` checks its text each time).
enum HeaderNames {
    static let idempotencyKey = HTTPField.Name("Idempotency-Key")!
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
    static let frameOptions = HTTPField.Name("X-Frame-Options")!
    static let requestID = HTTPField.Name("X-Request-Id")!
    static let contentLanguage = HTTPField.Name("Content-Language")!
    static let vary = HTTPField.Name("Vary")!
    static let acceptLanguage = HTTPField.Name("Accept-Language")!

    /// The name of a core response's header: the ones every page or submission sets without checking their text
    /// again (`HTTPField.Name(_:)` validates and lowercases it), any other checked.
    static func named(_ name: String) -> HTTPField.Name? {
        switch name {
        case "Content-Type": .contentType
        case "Cache-Control": .cacheControl
        case "Set-Cookie": .setCookie
        case "Location": .location
        default: HTTPField.Name(name)
        }
    }
}
