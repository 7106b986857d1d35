import Foundation
import FormworkCore
import FormworkHost
import FormworkHummingbird
import FormworkServer
import FormworkTestSupport
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore

/// A `FormService` over real parts: the example forms (copied into a folder of the test's own), the first-party packs
/// in a real cell host, and a SQLite store in that folder.
final class ServerFixture: @unchecked Sendable {
    let folder: String
    let store: SQLiteStore
    let lanes: CellLanes
    let service: FormService
    let limits: SubmissionLimits

    init(
        name: String, forms: [String] = ServerFixture.exampleForms, limits: SubmissionLimits = SubmissionLimits(), lifetime: Double = 3600,
        draftLifetime: Double = 86400, packs: [String] = [], documents: [String] = [], readerToken: [UInt8]? = nil
    ) throws {
        folder = "\(Scratch.directory)/server-\(name)"
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for form in forms {
            try FileManager.default.copyItem(atPath: "\(Source.root)/Examples/Forms/\(form)", toPath: "\(folder)/\(form)")
        }
        // Documents from elsewhere (beside the packs they need), by path.
        for document in documents {
            try FileManager.default.copyItem(atPath: document, toPath: "\(folder)/\((document as NSString).lastPathComponent)")
        }
        let registry = firstPartyRegistry(plus: packs)
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        store = try SQLiteStore(path: "\(folder)/submissions.sqlite")
        let launcher = IsolationLauncher(
            executable: Build.formwork, timeout: 10,
            packLocations: [Build.directory] + packs.map { ($0 as NSString).deletingLastPathComponent })
        lanes = CellLanes(
            count: 1, makeDriver: { IsolatedCells(launcher: launcher, mode: .shared) }, finish: { ($0 as? IsolatedCells)?.finish() })
        self.limits = limits
        service = FormService(
            catalog: FormCatalog(paths: [folder], registry: registry, logger: logger, interval: 0), store: store, lanes: lanes,
            tokens: FormTokens(secret: Array(repeating: 7, count: 32), lifetime: lifetime), limits: limits, logger: logger,
            draftLifetime: draftLifetime, readerToken: readerToken)
    }

    static let exampleForms = [
        "application.yaml", "delivery.yaml", "feedback.yaml", "forgot-password.json", "kitchen-sink.yaml", "login.yaml", "order.yaml",
        "register.yaml",
        "shipping.yaml", "signup.yaml", "survey.yaml", "tasks.yaml",
    ]

    func stop() async {
        lanes.stop()
        await store.close()
    }

    /// The Hummingbird router of the web runtime, as `formwork serve` mounts it.
    func router() -> Router<BasicRequestContext> {
        let router = Router()
        FormworkRoutes.add(to: router, service: service, limits: limits)
        return router
    }

    /// Runs `body` with a client of the application on a free port of 127.0.0.1 (HummingbirdTesting's live framework: the router framework's embedded channels are never freed, which LeakSanitizer reports), then stops the fixture.
    func test(_ body: @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        let app = Application(router: router())
        do { try await app.test(.live, body) } catch {
            await stop()
            throw error
        }
        await stop()
    }

    /// Every stored submission of `form`.
    func stored(_ form: String) async throws -> [StoredSubmission] {
        try await store.list(formID: form, after: 0, limit: 10_000).map(\.submission)
    }
}

/// A browser's session: its cookie, and the token of the page it loaded last.
struct Browser {
    var cookie: String?
    var token: String?
    /// The browser's `Accept-Language`, sent with every request when set.
    var language: String?

    /// GETs the page of `form` as a browser does: keeps the cookie the server sets and the token of the page.
    mutating func open(_ client: any TestClientProtocol, _ form: String, query: String = "") async throws -> TestResponse {
        var headers = HTTPFields()
        if let cookie { headers[.cookie] = "\(FormService.cookieName)=\(cookie)" }
        if let language { headers[.acceptLanguage] = language }
        let response = try await client.execute(uri: "/forms/\(form)\(query)", method: .get, headers: headers)
        if let set = response.headers[.setCookie], let value = set.split(separator: ";").first?.split(separator: "=").last {
            cookie = String(value)
        }
        token = Self.token(in: String(buffer: response.body))
        return response
    }

    static func token(in html: String) -> String? {
        guard let start = html.range(of: "name=\"\(FormService.tokenName)\" value=\"") else { return nil }
        guard let end = html.range(of: "\"", range: start.upperBound..<html.endIndex) else { return nil }
        return String(html[start.upperBound..<end.lowerBound])
    }

    /// POSTs `pairs` (with the page's token) as `application/x-www-form-urlencoded`.
    func post(
        _ client: any TestClientProtocol, _ form: String, _ pairs: [(String, String)], token: String? = nil
    ) async throws -> TestResponse {
        var headers = HTTPFields()
        headers[.contentType] = "application/x-www-form-urlencoded"
        if let cookie { headers[.cookie] = "\(FormService.cookieName)=\(cookie)" }
        if let language { headers[.acceptLanguage] = language }
        let all = [(FormService.tokenName, token ?? self.token ?? "")] + pairs
        return try await client.execute(
            uri: "/forms/\(form)", method: .post, headers: headers, body: ByteBuffer(string: Self.urlEncoded(all)))
    }

    /// POSTs `pairs` and `files` (with the page's token) as `multipart/form-data`, as a browser sends a form with file
    /// inputs: a file input left empty is a part with an empty file name and no content.
    func postMultipart(
        _ client: any TestClientProtocol, _ form: String, _ pairs: [(String, String)],
        files: [(name: String, filename: String, content: [UInt8])]
    ) async throws -> TestResponse {
        let boundary = "----formworkBoundary\(UInt32.random(in: 0...UInt32.max))"
        var body: [UInt8] = []
        for (name, value) in [(FormService.tokenName, token ?? "")] + pairs {
            body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8)
        }
        for file in files {
            body += Array(
                "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(file.name)\"; filename=\"\(file.filename)\"\r\nContent-Type: application/pdf\r\n\r\n"
                    .utf8)
            body += file.content + Array("\r\n".utf8)
        }
        body += Array("--\(boundary)--\r\n".utf8)
        var headers = HTTPFields()
        headers[.contentType] = "multipart/form-data; boundary=\(boundary)"
        if let cookie { headers[.cookie] = "\(FormService.cookieName)=\(cookie)" }
        return try await client.execute(uri: "/forms/\(form)", method: .post, headers: headers, body: ByteBuffer(bytes: body))
    }

    static func urlEncoded(_ pairs: [(String, String)]) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return pairs.map {
            "\($0.0.addingPercentEncoding(withAllowedCharacters: allowed)!)=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed)!)"
        }
        .joined(separator: "&")
    }
}

extension TestClientProtocol {
    /// POSTs `json` to the JSON API of `form`.
    func submit(
        _ form: String, json: String, idempotencyKey: String? = nil, contentType: String = "application/json"
    ) async throws -> TestResponse {
        var headers = HTTPFields()
        headers[.contentType] = contentType
        if let idempotencyKey { headers[HTTPField.Name("Idempotency-Key")!] = idempotencyKey }
        return try await execute(uri: "/api/forms/\(form)/submissions", method: .post, headers: headers, body: ByteBuffer(string: json))
    }
}

extension TestResponse {
    var text: String { String(buffer: body) }
    var json: Any? { try? JSONSerialization.jsonObject(with: Data(text.utf8)) }
}
