import Foundation
import FormworkServer
import FormworkTestSupport
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing

/// "Save and continue later": drafts through the page and the JSON API, over the real example forms, a real cell host
/// and a real SQLite store (the store suite runs the same draft calls on PostgreSQL).
@Suite("Drafts")
struct DraftTests {
    static func json(_ response: TestResponse) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(String(buffer: response.body).utf8)) as? [String: Any])
    }

    static func draftToken(in html: String) -> String? {
        guard let start = html.range(of: "name=\"\(FormService.draftName)\" value=\"") else { return nil }
        guard let end = html.range(of: "\"", range: start.upperBound..<html.endIndex) else { return nil }
        return String(html[start.upperBound..<end.lowerBound])
    }

    @Test("The page saves partial answers (nothing required yet, never a password), refuses a wrong one, and resumes from its link")
    func pageDraft() async throws {
        let fixture = try ServerFixture(name: "draft-page")
        try await fixture.test { client throws in
            var browser = Browser()
            let blank = try await browser.open(client, "register")
            #expect(
                blank.text.contains("name=\"\(FormService.intentName)\" value=\"draft\" formnovalidate>Save and continue later</button>"))
            // A wrong answer is refused even in a draft, and nothing is saved.
            let wrong = try await browser.post(
                client, "register", [("birthday", "2030-01-01"), (FormService.intentName, "draft")])
            #expect(wrong.status == .unprocessableContent)
            #expect(wrong.text.contains("fw-error-summary"))
            // Required fields left empty are fine in a draft; the password is not kept.
            let saved = try await browser.post(
                client, "register", [("name", "Ada Lovelace"), ("password", "hunter2-secret-PW"), (FormService.intentName, "draft")])
            #expect(saved.status == .seeOther)
            let location = try #require(saved.headers[.location])
            #expect(location.hasPrefix("/forms/register/drafts/") && location.hasSuffix("?saved=1"))
            let token = String(location.dropFirst("/forms/register/drafts/".count).prefix(while: { $0 != "?" }))
            #expect(token.count == 43)
            #expect(try await fixture.stored("register").isEmpty)
            let draft = try #require(try await fixture.store.draft(formID: "register", key: FormTokens.draftKey(token)))
            #expect(draft.values.contains("Ada Lovelace"))
            #expect(!draft.values.contains("hunter2"))
            #expect(!draft.values.contains("password"))
            // The store holds the token's hash, never the token.
            #expect(!draft.key.contains(token) && draft.key.count == 32)
            // The resume link prefills the form and says where to come back.
            let resumed = try await browser.open(client, "register/drafts/\(token)", query: "?saved=1")
            #expect(resumed.status == .ok)
            #expect(resumed.text.contains("value=\"Ada Lovelace\""))
            #expect(resumed.text.contains("Your answers are saved"))
            #expect(resumed.text.contains("role=\"status\""))
            #expect(resumed.text.contains("href=\"/forms/register/drafts/\(token)\""))
            #expect(Self.draftToken(in: resumed.text) == token)
            #expect(!resumed.text.contains("hunter2"))
            // Saving again from the resumed page updates the same draft.
            let again = try await browser.post(
                client, "register", [("name", "Ada King"), (FormService.draftName, token), (FormService.intentName, "draft")])
            #expect(again.headers[.location] == location)
            #expect(try await fixture.store.draft(formID: "register", key: FormTokens.draftKey(token))?.values.contains("Ada King") == true)
        }
    }

    @Test("Sending a resumed page stores one submission per draft (two tabs store one row); the link then shows the confirmation")
    func pageDraftSubmittedOnce() async throws {
        let fixture = try ServerFixture(name: "draft-submit")
        try await fixture.test { client throws in
            var first = Browser()
            _ = try await first.open(client, "signup")
            let saved = try await first.post(client, "signup", [("name", "Ada Lovelace"), (FormService.intentName, "draft")])
            let location = try #require(saved.headers[.location])
            let token = String(location.dropFirst("/forms/signup/drafts/".count).prefix(while: { $0 != "?" }))
            let answers = [("name", "Ada Lovelace"), ("email", "ada@example.com"), ("age", "36"), (FormService.draftName, token)]
            // Two tabs opened on the same draft, each with its own page token, both sent.
            var second = Browser()
            _ = try await first.open(client, "signup/drafts/\(token)")
            _ = try await second.open(client, "signup/drafts/\(token)")
            let a = try await first.post(client, "signup", answers)
            let b = try await second.post(client, "signup", answers)
            #expect(a.status == .seeOther && b.status == .seeOther)
            #expect(a.headers[.location] == b.headers[.location])
            let stored = try await fixture.stored("signup")
            #expect(stored.count == 1)
            let draft = try #require(try await fixture.store.draft(formID: "signup", key: FormTokens.draftKey(token)))
            #expect(draft.submissionID == stored.first?.id)
            #expect(draft.values == "{}")
            let reopened = try await client.execute(uri: "/forms/signup/drafts/\(token)", method: .get)
            #expect(reopened.status == .seeOther)
            #expect(reopened.headers[.location] == a.headers[.location])
        }
    }

    @Test("An unknown or malformed draft link is 404 and an expired one 410, each a page that says what to do")
    func unknownAndExpired() async throws {
        let fixture = try ServerFixture(name: "draft-expired", draftLifetime: 0.5)
        try await fixture.test { client throws in
            let unknown = try await client.execute(uri: "/forms/signup/drafts/\(String(repeating: "A", count: 43))", method: .get)
            #expect(unknown.status == .notFound)
            #expect(unknown.text.contains("copied whole"))
            let malformed = try await client.execute(uri: "/forms/signup/drafts/%3Cscript%3E", method: .get)
            #expect(malformed.status == .notFound)
            #expect(!malformed.text.contains("<script>"))
            var headers = HTTPFields()
            headers[.contentType] = "application/json"
            let created = try await client.execute(
                uri: "/api/forms/signup/drafts", method: .post, headers: headers, body: ByteBuffer(string: #"{"name": "Ada"}"#))
            let token = try #require(try Self.json(created)["token"] as? String)
            try await Task.sleep(for: .milliseconds(700))
            let expired = try await client.execute(uri: "/forms/signup/drafts/\(token)", method: .get)
            #expect(expired.status == .gone)
            #expect(expired.text.contains("expired"))
            #expect(try await client.execute(uri: "/api/forms/signup/drafts/\(token)", method: .get).status == .gone)
        }
    }

    @Test("JSON API: POST makes a draft (201), PUT replaces it (200) or makes one under a client's token, GET reads it, submission once")
    func api() async throws {
        let fixture = try ServerFixture(name: "draft-api")
        try await fixture.test { client throws in
            var headers = HTTPFields()
            headers[.contentType] = "application/json"
            func send(_ method: HTTPRequest.Method, _ uri: String, _ body: String) async throws -> TestResponse {
                try await client.execute(uri: uri, method: method, headers: headers, body: ByteBuffer(string: body))
            }
            let created = try await send(.post, "/api/forms/register/drafts", #"{"name": "Bo Li", "password": "hunter2-secret-PW"}"#)
            #expect(created.status == .created)
            let body = try Self.json(created)
            let token = try #require(body["token"] as? String)
            #expect(created.headers[.location] == "/api/forms/register/drafts/\(token)")
            #expect(body["resume"] as? String == "/forms/register/drafts/\(token)")
            #expect(body["expiresAt"] is String)
            #expect((body["values"] as? [String: Any])?["password"] == nil)
            // Wrong stays wrong in a draft: 422 with the pointer.
            let wrong = try await send(.put, "/api/forms/register/drafts/\(token)", #"{"birthday": "2030-01-01"}"#)
            #expect(wrong.status == .unprocessableContent)
            #expect(((try Self.json(wrong)["errors"] as? [[String: Any]])?.first?["pointer"] as? String) == "/birthday")
            let replaced = try await send(.put, "/api/forms/register/drafts/\(token)", #"{"name": "Bo Li", "email": "bo@example.com"}"#)
            #expect(replaced.status == .ok)
            let read = try await client.execute(uri: "/api/forms/register/drafts/\(token)", method: .get)
            #expect((try Self.json(read)["values"] as? [String: Any])?["email"] as? String == "bo@example.com")
            // A client may hold a token of its own (32 random bytes); a short one is refused.
            let own = Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            #expect(try await send(.put, "/api/forms/register/drafts/\(own)", "{}").status == .created)
            #expect(try await send(.put, "/api/forms/register/drafts/short", "{}").status == .badRequest)
            // Submitting: incomplete is refused; with the password added it is stored, once.
            let incomplete = try await send(.post, "/api/forms/register/drafts/\(token)/submission", "")
            #expect(incomplete.status == .unprocessableContent)
            let rest = #"{"password": "hunter2-secret-PW", "confirm": "hunter2-secret-PW", "plan": "Free", "terms": true}"#
            let sent = try await send(.post, "/api/forms/register/drafts/\(token)/submission", rest)
            #expect(sent.status == .created)
            let location = try #require(sent.headers[.location])
            let repeated = try await send(.post, "/api/forms/register/drafts/\(token)/submission", rest)
            #expect(repeated.status == .ok)
            #expect(repeated.headers[.location] == location)
            #expect(try await fixture.stored("register").count == 1)
            // Stored answers are not served over HTTP without a reader token.
            #expect(try await client.execute(uri: "/api/forms/register/submissions", method: .get).status == .notFound)
            let locked = try await send(.put, "/api/forms/register/drafts/\(token)", "{}")
            #expect(locked.status == .conflict)
            #expect(try Self.json(locked)["submission"] as? String == location.split(separator: "/").last.map(String.init))
        }
    }
}
