import Crypto
import Foundation
import FormworkServer
import FormworkTestSupport
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing

/// The web runtime through its Hummingbird routes (HummingbirdTesting's router client), over the real example
/// forms, cells in a real cell host, and a real SQLite store.
@Suite("Server routes")
struct RouterTests {
    @Test("GET / lists every form, each linked to its page")
    func index() async throws {
        let fixture = try ServerFixture(name: "index")
        try await fixture.test { client throws in
            let response = try await client.execute(uri: "/", method: .get)
            #expect(response.status == .ok)
            for id in ["signup", "login", "tasks", "kitchen-sink"] { #expect(response.text.contains("href=\"/forms/\(id)\"")) }
            #expect(response.headers[.contentSecurityPolicy]?.contains("unsafe-inline") == true)  // style attributes only
            #expect(response.headers[.contentSecurityPolicy]?.contains("script-src 'sha256-") == true)
            #expect(response.headers[.xContentTypeOptions] == "nosniff")
        }
    }

    @Test("GET /forms/{id}: the page posts to itself with a token bound to a new SameSite=Strict cookie; each page its own token")
    func page() async throws {
        let fixture = try ServerFixture(name: "page")
        try await fixture.test { client throws in
            var browser = Browser()
            let response = try await browser.open(client, "signup")
            #expect(response.status == .ok)
            #expect(response.text.contains("action=\"/forms/signup\""))
            #expect(response.headers[.setCookie]?.contains("SameSite=Strict") == true)
            #expect(response.headers[.setCookie]?.contains("HttpOnly") == true)
            #expect(response.headers[.cacheControl] == "no-store")
            // signup has no submit button of its own: the server adds one.
            #expect(response.text.contains("<button type=\"submit\""))
            let first = try #require(browser.token)
            let again = try await browser.open(client, "signup")
            #expect(again.headers[.setCookie] == nil)
            #expect(browser.token != first)
            let missing = try await client.execute(uri: "/forms/nope", method: .get)
            #expect(missing.status == .notFound)
        }
    }

    @Test("A refused post: 422, the answers kept, an error summary linking each field, inline errors with aria-invalid")
    func refused() async throws {
        let fixture = try ServerFixture(name: "refused")
        try await fixture.test { client throws in
            var browser = Browser()
            _ = try await browser.open(client, "signup")
            let response = try await browser.post(client, "signup", [("name", "A"), ("email", "x"), ("age", "12")])
            #expect(response.status == .unprocessableContent)
            let html = response.text
            #expect(html.contains("<title>Error: "))
            #expect(html.contains("class=\"fw-error-summary\""))
            #expect(html.contains("autofocus"))
            #expect(html.contains("<a href=\"#name\">Your name needs at least 2 letters.</a>"))
            #expect(html.contains("<a href=\"#age\">You must be 18 or older to sign up.</a>"))
            #expect(html.contains("value=\"A\""))
            #expect(html.contains("id=\"age\" name=\"age\" required aria-required=\"true\" aria-invalid=\"true\""))
            // The refused page carries a fresh token, and nothing was stored.
            #expect(Browser.token(in: html) != nil)
            #expect(try await fixture.stored("signup").isEmpty)
        }
    }

    @Test("A required field left empty is named in the summary and under the field")
    func requiredMissing() async throws {
        let fixture = try ServerFixture(name: "required")
        try await fixture.test { client throws in
            var browser = Browser()
            _ = try await browser.open(client, "signup")
            let response = try await browser.post(client, "signup", [("name", "Ada"), ("email", ""), ("age", "40")])
            #expect(response.status == .unprocessableContent)
            #expect(response.text.contains("<li><a href=\"#email\">"))
            #expect(response.text.contains("id=\"email-message-1\""))
        }
    }

    @Test("A secure value is never sent back on a refused page")
    func secureNotEchoed() async throws {
        let fixture = try ServerFixture(name: "secure")
        try await fixture.test { client throws in
            var browser = Browser()
            _ = try await browser.open(client, "register")
            let response = try await browser.post(
                client, "register", [("email", "not-an-email"), ("password", "hunter2-secret-PW"), ("confirm", "hunter2-secret-PW")])
            #expect(response.status == .unprocessableContent)
            #expect(!response.text.contains("hunter2-secret-PW"))
        }
    }

    @Test("An accepted post is stored, then 303 to its confirmation; the same page sent twice stores one row")
    func accepted() async throws {
        let fixture = try ServerFixture(name: "accepted")
        try await fixture.test { client throws in
            var browser = Browser()
            _ = try await browser.open(client, "signup")
            let answers = [
                ("name", "Ada Lovelace"), ("email", "ada@example.com"), ("age", "36"), ("interests", "Music"), ("interests", "Travel"),
            ]
            let response = try await browser.post(client, "signup", answers)
            #expect(response.status == .seeOther)
            let location = try #require(response.headers[.location])
            #expect(location.hasPrefix("/forms/signup/submitted/"))
            let again = try await browser.post(client, "signup", answers)
            #expect(again.status == .seeOther)
            #expect(again.headers[.location] == location)
            let stored = try await fixture.stored("signup")
            #expect(stored.count == 1)
            let values = try #require(JSONSerialization.jsonObject(with: Data(stored[0].values.utf8)) as? [String: Any])
            #expect(values["name"] as? String == "Ada Lovelace")
            #expect(values["age"] as? Int == 36)
            #expect(values["interests"] as? [String] == ["Music", "Travel"])
            let confirmation = try await client.execute(uri: location, method: .get)
            #expect(confirmation.status == .ok)
            #expect(confirmation.text.contains("Thank you"))
            #expect(!confirmation.text.contains("Ada Lovelace"))
        }
    }

    @Test("A forged, foreign or missing token, or no cookie, is refused with 403 and nothing is stored")
    func forgedTokens() async throws {
        let fixture = try ServerFixture(name: "forged")
        try await fixture.test { client throws in
            var browser = Browser()
            _ = try await browser.open(client, "login")
            let answers = [("username", "ada@example.com"), ("password", "secret")]
            let token = try #require(browser.token)
            // One character of the signature changed (the middle one: every bit of it counts).
            var characters = Array(token)
            let middle = characters.count - 20
            characters[middle] = characters[middle] == "A" ? "B" : "A"
            let tampered = String(characters)
            #expect(try await browser.post(client, "login", answers, token: tampered).status == .forbidden)
            #expect(try await browser.post(client, "login", answers, token: "").status == .forbidden)
            // Another form's token.
            var other = browser
            _ = try await other.open(client, "signup")
            #expect(try await browser.post(client, "login", answers, token: other.token).status == .forbidden)
            // Another browser (another cookie) replaying this one's token.
            var stranger = Browser()
            _ = try await stranger.open(client, "login")
            stranger.token = browser.token
            #expect(try await stranger.post(client, "login", answers).status == .forbidden)
            var cookieless = browser
            cookieless.cookie = nil
            #expect(try await cookieless.post(client, "login", answers).status == .forbidden)
            #expect(try await fixture.stored("login").isEmpty)
            #expect(try await browser.post(client, "login", answers).status == .seeOther)
        }
    }

    @Test("An expired page keeps the answers and asks to send again (422, fresh token)")
    func expired() async throws {
        let fixture = try ServerFixture(name: "expired", lifetime: -1)
        try await fixture.test { client throws in
            var browser = Browser()
            _ = try await browser.open(client, "signup")
            let response = try await browser.post(
                client, "signup", [("name", "Ada Lovelace"), ("email", "ada@example.com"), ("age", "36")])
            #expect(response.status == .unprocessableContent)
            #expect(response.text.contains("open too long"))
            #expect(response.text.contains("value=\"Ada Lovelace\""))
            #expect(try await fixture.stored("signup").isEmpty)
        }
    }

    @Test("JSON API: 201 with Location once stored; the same Idempotency-Key stores once; 422 problem details with pointers")
    func api() async throws {
        let fixture = try ServerFixture(name: "api")
        try await fixture.test { client throws in
            let valid = #"{"name": "Ada", "email": "ada@example.com", "age": 36}"#
            let created = try await client.submit("signup", json: valid, idempotencyKey: "key-1")
            #expect(created.status == .created)
            let location = try #require(created.headers[.location])
            #expect(location.hasPrefix("/api/forms/signup/submissions/"))
            let repeated = try await client.submit("signup", json: valid, idempotencyKey: "key-1")
            #expect(repeated.status == .ok)
            #expect(repeated.headers[.location] == location)
            #expect(try await fixture.stored("signup").count == 1)
            let read = try await client.execute(uri: location, method: .get)
            #expect(read.status == .ok)
            #expect(!read.text.contains("ada@example.com"))

            let refused = try await client.submit("signup", json: #"{"name": "A", "age": "old", "colour": "red"}"#)
            #expect(refused.status == .unprocessableContent)
            #expect(refused.headers[.contentType] == "application/problem+json")
            let problem = try #require(refused.json as? [String: Any])
            #expect(problem["status"] as? Int == 422)
            let errors = try #require(problem["errors"] as? [[String: Any]])
            let pointers = Set(errors.compactMap { $0["pointer"] as? String })
            #expect(pointers == ["/name", "/age", "/colour", "/email"])
            #expect(errors.allSatisfy { $0["message"] is String && $0["code"] is String })
            #expect(errors.first { $0["pointer"] as? String == "/email" }?["code"] as? String == "required")
            #expect(errors.first { $0["pointer"] as? String == "/colour" }?["code"] as? String == "unknown-field")
            #expect(errors.first { $0["pointer"] as? String == "/age" }?["code"] as? String == "type")
            // "A" breaks the name's minLength rule, whose message says "needs": a rule is `invalid`, whatever it says.
            #expect(errors.first { $0["pointer"] as? String == "/name" }?["code"] as? String == "invalid")
            // The code comes from the check, not from the message: a custom required message is `required`, and a
            // rule whose message says "must be" is `invalid`, not `type`.
            let worded = try await client.submit("signup", json: #"{"email": "ada@example.com", "age": 12}"#)
            let wordedErrors = try #require((worded.json as? [String: Any])?["errors"] as? [[String: Any]])
            #expect(wordedErrors.first { $0["pointer"] as? String == "/name" }?["code"] as? String == "required")
            #expect(wordedErrors.first { $0["pointer"] as? String == "/age" }?["code"] as? String == "invalid")
        }
    }

    @Test("Hostile bodies: too large (413), too many fields (413), bad encodings (400), wrong type (415), no such form (404)")
    func hostileBodies() async throws {
        let fixture = try ServerFixture(name: "hostile", limits: SubmissionLimits(maxBytes: 4096, maxFields: 50))
        try await fixture.test { client throws in
            let big = String(repeating: "x", count: 5000)
            #expect(try await client.submit("signup", json: #"{"name": "\#(big)"}"#).status == .contentTooLarge)
            let many = (0..<60).map { "f\($0)=1" }.joined(separator: "&")
            #expect(
                try await client.submit("signup", json: many, contentType: "application/x-www-form-urlencoded").status == .contentTooLarge)
            #expect(
                try await client.submit("signup", json: "name=%ZZ", contentType: "application/x-www-form-urlencoded").status == .badRequest)
            #expect(
                try await client.submit("signup", json: "name=%C3%28", contentType: "application/x-www-form-urlencoded").status
                    == .badRequest)
            #expect(try await client.submit("signup", json: "{\"name\": ", contentType: "application/json").status == .badRequest)
            #expect(try await client.submit("signup", json: "[1]", contentType: "application/json").status == .unprocessableContent)
            #expect(
                try await client.submit("signup", json: "--x\r\nbroken", contentType: "multipart/form-data; boundary=x").status
                    == .badRequest)
            #expect(try await client.submit("signup", json: "a", contentType: "multipart/form-data").status == .badRequest)
            #expect(try await client.submit("signup", json: "<a/>", contentType: "text/xml").status == .unsupportedMediaType)
            #expect(try await client.submit("nope", json: "{}").status == .notFound)
            #expect(try await client.submit("signup", json: "{}", idempotencyKey: "bad key\u{7F}").status == .badRequest)
            #expect(try await fixture.stored("signup").isEmpty)
        }
    }

    @Test("multipart/form-data is read as a browser sends it; a file part for a form without file fields is refused")
    func multipart() async throws {
        let fixture = try ServerFixture(name: "multipart")
        try await fixture.test { client throws in
            let boundary = "----formwork7MA4YWxkTrZu0gW"
            func part(_ name: String, _ value: String, filename: String? = nil) -> String {
                "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\(filename.map { "; filename=\"\($0)\"" } ?? "")\r\n\r\n\(value)\r\n"
            }
            let body = part("name", "Ada Lovelace") + part("email", "ada@example.com") + part("age", "36") + "--\(boundary)--\r\n"
            let response = try await client.submit("signup", json: body, contentType: "multipart/form-data; boundary=\"\(boundary)\"")
            #expect(response.status == .created)
            let file = part("name", "x", filename: "a.txt") + "--\(boundary)--\r\n"
            #expect(
                try await client.submit("signup", json: file, contentType: "multipart/form-data; boundary=\(boundary)").status
                    == .unsupportedMediaType)
        }
    }

    @Test(
        "file fields: the page posts multipart; the file is stored beside the submission, typed by its content; a wrong type, a file too large or a name without its file is refused at the field"
    )
    func uploads() async throws {
        let token = Array("reader-token-of-thirty-two-bytes!".utf8)
        let fixture = try ServerFixture(name: "uploads", readerToken: token)
        try await fixture.test { client throws in
            var browser = Browser()
            let page = try await browser.open(client, "application")
            #expect(
                page.text.contains(#"enctype="multipart/form-data""#) && page.text.contains(#"type="file" accept="application/pdf,.pdf""#))
            let pdf = Array("%PDF-1.4\n".utf8) + [UInt8](repeating: 0x41, count: 5000) + Array("\n%%EOF\n".utf8)
            let you = [("name", "Ada Lovelace"), ("email", "ada@example.com")]
            let accepted = try await browser.postMultipart(
                client, "application", you, files: [("cv", "C:\\Users\\ada\\cv.pdf", pdf), ("photo", "", [])])
            #expect(accepted.status == .seeOther, "\(accepted.text)")
            let stored = try #require(try await fixture.stored("application").first)
            #expect(stored.values.contains(#""cv":"cv.pdf""#) && !stored.values.contains("photo"), "\(stored.values)")
            let file = try #require(try await fixture.store.file(formID: "application", submissionID: stored.id, field: "cv"))
            #expect(file.content == pdf && file.type == "application/pdf" && file.name == "cv.pdf" && file.size == pdf.count)
            #expect(file.sha256 == SHA256.hash(data: pdf).map { String(format: "%02x", $0) }.joined())

            // Served to the reader (with the token only), as an attachment of the sniffed type.
            let path = "/api/forms/application/submissions/\(stored.id)/files/cv"
            #expect(try await client.execute(uri: path, method: .get).status == .unauthorized)
            var reader = HTTPFields()
            reader[.authorization] = "Bearer reader-token-of-thirty-two-bytes!"
            let download = try await client.execute(uri: path, method: .get, headers: reader)
            #expect(download.status == .ok && Array(download.body.readableBytesView) == pdf)
            #expect(download.headers[.contentType] == "application/pdf")
            #expect(download.headers[.contentDisposition]?.hasPrefix("attachment; filename=\"cv.pdf\"") == true)

            // A text file named .pdf, and a PDF over the field's limit: the page again, the field named.
            _ = try await browser.open(client, "application")
            let text = try await browser.postMultipart(client, "application", you, files: [("cv", "cv.pdf", Array("just text\n".utf8))])
            #expect(text.status == .unprocessableContent)
            #expect(
                text.text.contains(##"<a href="#cv">CV: the file is plain text (read from its content, not its name)"##), "\(text.text)")
            _ = try await browser.open(client, "application")
            let big = Array("%PDF-".utf8) + [UInt8](repeating: 0x20, count: 2_000_000)
            let tooBig = try await browser.postMultipart(client, "application", you, files: [("cv", "big.pdf", big)])
            #expect(tooBig.status == .unprocessableContent && tooBig.text.contains("the file is 2 MB; this field takes PDF, at most 2 MB"))
            #expect(try await fixture.stored("application").count == 1)

            // The JSON API: a name is not a file.
            let named = try await client.submit("application", json: #"{"name": "A", "email": "a@example.com", "cv": "cv.pdf"}"#)
            #expect(
                named.status == .unprocessableContent && named.text.contains(#""pointer": "/cv""#) && named.text.contains("takes a file"))
            // A file sent for a field that takes none.
            _ = try await browser.open(client, "application")
            let misplaced = try await browser.postMultipart(client, "application", you, files: [("name", "x.pdf", pdf)])
            #expect(misplaced.status == .unsupportedMediaType)
        }
    }

    @Test("a file for a field the answers hide is not stored, as its value is not")
    func hiddenUpload() async throws {
        let document = try Scratch.file(
            "documents-hidden-upload/claim.yaml",
            contents: """
                formwork: 1
                id: claim
                sections:
                  - id: s
                    fields:
                      - { id: receipt, cell: org.formwork.toggle, model: { title: I have a receipt } }
                      - { id: scan, cell: org.formwork.text-field, model: { title: Scan }, visibleIf: "receipt", file: { accept: [application/pdf] } }
                """)
        let fixture = try ServerFixture(name: "hidden-upload", forms: [], documents: [document])
        try await fixture.test { client throws in
            var browser = Browser()
            _ = try await browser.open(client, "claim")
            let pdf = Array("%PDF-1.4\n%%EOF\n".utf8)
            // JavaScript off: the hidden input is still in the page and the browser sends its file.
            let hidden = try await browser.postMultipart(client, "claim", [], files: [("scan", "scan.pdf", pdf)])
            #expect(hidden.status == .seeOther, "\(hidden.text)")
            let first = try #require(try await fixture.stored("claim").first)
            #expect(!first.values.contains("scan"), "\(first.values)")
            #expect(try await fixture.store.files(formID: "claim", submissionID: first.id).isEmpty)
            _ = try await browser.open(client, "claim")
            let shown = try await browser.postMultipart(client, "claim", [("receipt", "true")], files: [("scan", "scan.pdf", pdf)])
            #expect(shown.status == .seeOther, "\(shown.text)")
            let second = try #require(try await fixture.stored("claim").last)
            #expect(try await fixture.store.files(formID: "claim", submissionID: second.id).map(\.name) == ["scan.pdf"])
        }
    }

    @Test("GET /api/forms/{id}/schema is `formwork schema --values`; /openapi.json names every form's submissions path")
    func schemas() async throws {
        let fixture = try ServerFixture(name: "schemas")
        try await fixture.test { client throws in
            let schema = try await client.execute(uri: "/api/forms/signup/schema", method: .get)
            #expect(schema.status == .ok)
            let cli = try run(Build.formwork, ["schema", "--values", "\(fixture.folder)/signup.yaml", "--pack-path", Build.directory])
            #expect(schema.text == cli.stdout)
            let openapi = try await client.execute(uri: "/openapi.json", method: .get)
            let document = try #require(openapi.json as? [String: Any])
            #expect(document["openapi"] as? String == "3.1.0")
            let paths = try #require(document["paths"] as? [String: Any])
            for id in ["signup", "login", "tasks"] { #expect(paths["/api/forms/\(id)/submissions"] != nil) }
        }
    }

    @Test("A field of an object posts as object.id and is stored nested; a refused one is named by its pointer; same ids apart")
    func objects() async throws {
        let fixture = try ServerFixture(name: "objects")
        try await fixture.test { client throws in
            var browser = Browser()
            let page = try await browser.open(client, "shipping")
            #expect(page.text.contains(#"name="billing.street""#) && page.text.contains(#"name="shipping.name""#), "\(page.text)")
            // A required field of an object left empty: the page again, naming it.
            let refused = try await browser.post(
                client, "shipping",
                [
                    ("name", "Ada"), ("sameAddress", "true"), ("billing.street", "Keizersgracht 1"), ("billing.postcode", "1015 CJ"),
                    ("billing.city", ""), ("parcels/0/name", "Books"),
                ])
            #expect(refused.status == .unprocessableContent, "\(refused.text)")
            #expect(refused.text.contains("href=\"#billing.city\""), "\(refused.text)")
            _ = try await browser.open(client, "shipping")
            let response = try await browser.post(
                client, "shipping",
                [
                    ("name", "Ada"), ("billing.street", "Keizersgracht 1"), ("billing.postcode", "1015 CJ"), ("billing.city", "Amsterdam"),
                    ("shipping.name", "Ada (office)"), ("shipping.street", "Stationsplein 2"), ("shipping.postcode", "3511 ED"),
                    ("shipping.city", "Utrecht"), ("parcels/0/name", "Books"),
                ])
            #expect(response.status == .seeOther, "\(response.text)")
            let stored = try #require(try await fixture.stored("shipping").first)
            let values = try #require(JSONSerialization.jsonObject(with: Data(stored.values.utf8)) as? [String: Any])
            #expect(values["name"] as? String == "Ada")
            #expect(values["sameAddress"] as? Bool == false)
            let billing = try #require(values["billing"] as? [String: Any])
            #expect(billing["city"] as? String == "Amsterdam")
            let shipping = try #require(values["shipping"] as? [String: Any])
            #expect(shipping["name"] as? String == "Ada (office)" && shipping["city"] as? String == "Utrecht")
            #expect(values["billing.city"] == nil && values["shipping.name"] == nil, "stored flat: \(values)")
            let parcels = try #require(values["parcels"] as? [[String: Any]])
            #expect(parcels.first?["name"] as? String == "Books")
        }
    }

    @Test(
        "Objects inside objects post as person.address.city and are stored two levels deep; a refused one is named; a secure member is never sent back"
    )
    func deeperObjects() async throws {
        let document = try Scratch.file(
            "server-deep/deep.yaml",
            contents: """
                formwork: 1
                id: deep
                sections:
                  - id: who
                    object: person
                    fields:
                      - { id: name, cell: org.formwork.text-field, required: true, model: { title: Name } }
                  - id: home
                    object: person.address
                    fields:
                      - { id: city, cell: org.formwork.text-field, required: true, model: { title: City } }
                  - id: secret
                    object: person.account.login
                    fields:
                      - { id: pin, cell: org.formwork.text-field, model: { title: PIN }, textInput: { secure: true } }
                """)
        let fixture = try ServerFixture(name: "deep-objects", forms: [], documents: [document])
        try await fixture.test { client throws in
            var browser = Browser()
            let page = try await browser.open(client, "deep")
            #expect(page.text.contains(#"name="person.address.city""#) && page.text.contains(#"name="person.account.login.pin""#))
            let refused = try await browser.post(
                client, "deep", [("person.name", "Ada"), ("person.address.city", ""), ("person.account.login.pin", "4321")])
            #expect(refused.status == .unprocessableContent && refused.text.contains(##"href="#person.address.city""##), "\(refused.text)")
            #expect(!refused.text.contains("4321"), "a secure value was sent back")
            _ = try await browser.open(client, "deep")
            let accepted = try await browser.post(
                client, "deep", [("person.name", "Ada"), ("person.address.city", "Paris"), ("person.account.login.pin", "4321")])
            #expect(accepted.status == .seeOther, "\(accepted.text)")
            let stored = try #require(try await fixture.stored("deep").first)
            let values = try #require(JSONSerialization.jsonObject(with: Data(stored.values.utf8)) as? [String: Any])
            let person = try #require(values["person"] as? [String: Any])
            #expect((person["address"] as? [String: Any])?["city"] as? String == "Paris" && person["name"] as? String == "Ada")
            let login = ((person["account"] as? [String: Any])?["login"] as? [String: Any])
            #expect(login?["pin"] as? String == "4321", "\(values)")
        }
    }

    @Test("A link's query prefills what it names and nothing else: a default-on toggle it leaves out stays on")
    func prefill() async throws {
        let fixture = try ServerFixture(name: "prefill")
        try await fixture.test { client throws in
            var browser = Browser()
            let page = try await browser.open(client, "shipping", query: "?name=Ada&billing.city=Utrecht")
            #expect(page.status == .ok)
            #expect(page.text.contains(#"value="Ada""#) && page.text.contains(#"value="Utrecht""#), "\(page.text)")
            let toggle = try #require(page.text.range(of: #"<input id="sameAddress""#))
            let tag = page.text[toggle.lowerBound...].prefix { $0 != ">" }
            #expect(tag.contains("checked"), "\(tag)")
        }
    }

    @Test("A repeated group posts as group/index/name; the spare item left empty is no item; toggles not sent are false")
    func repeatedGroups() async throws {
        let fixture = try ServerFixture(name: "repeat")
        try await fixture.test { client throws in
            var browser = Browser()
            _ = try await browser.open(client, "tasks")
            let response = try await browser.post(
                client, "tasks",
                [
                    ("owner", "Ada"), ("tasks/0/title", "Write the report"), ("tasks/0/due", "2026-12-01"), ("tasks/0/done", "true"),
                    ("tasks/1/title", "Send it"), ("tasks/1/due", ""), ("tasks/2/title", ""), ("tasks/2/due", ""),
                ])
            #expect(response.status == .seeOther, "\(response.text)")
            let stored = try #require(try await fixture.stored("tasks").first)
            let values = try #require(JSONSerialization.jsonObject(with: Data(stored.values.utf8)) as? [String: Any])
            let tasks = try #require(values["tasks"] as? [[String: Any]])
            #expect(tasks.count == 2)
            #expect(tasks[0]["title"] as? String == "Write the report")
            #expect(tasks[0]["done"] as? Bool == true)
            #expect(tasks[1]["done"] as? Bool == false)
        }
    }
}

/// ABI 1.2: a form whose choices a pack lists (`choicesFrom`), served: the page offers them, a submission is checked
/// against them.
@Suite("Served choices from a pack")
struct ServedChoicesTests {
    @Test("the page lists the pack's choices; a value outside them is refused with 422, one inside them stored")
    func choices() async throws {
        let places = try ExamplePack.build("places-c", library: "libplaces.so")
        let fixture = try ServerFixture(
            name: "choices", forms: [], packs: [places],
            documents: ["\(Source.root)/Examples/Packs/places-c/trip.yaml"])
        try await fixture.test { client throws in
            var browser = Browser()
            let page = try await browser.open(client, "trip")
            #expect(page.status == .ok, "\(page.text)")
            #expect(page.text.contains("<option value=\"LHR\">London Heathrow</option>"), "\(page.text)")
            let refused = try await browser.post(client, "trip", [("from", "JFK")])
            #expect(refused.status == .unprocessableContent)
            #expect(refused.text.contains("not one of choices"), "\(refused.text)")
            _ = try await browser.open(client, "trip")
            let accepted = try await browser.post(client, "trip", [("from", "LHR"), ("visit", "FR"), ("visit", "NL")])
            #expect(accepted.status == .seeOther, "\(accepted.text)")
            let stored = try await fixture.stored("trip")
            #expect(stored.count == 1)
            #expect(stored.first?.values.contains("\"LHR\"") == true, "\(stored)")
        }
    }
}
