import Foundation
import FormworkServer
import FormworkTestSupport
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Hummingbird
import Testing

@testable import FormworkHummingbird

/// Each request in its language: `?lang=` and `Accept-Language` against the form's translations (the example
/// `feedback.yaml` carries French and Arabic), the host's own words from its French catalogue, and what is stored the
/// same in every language.
@Suite("Server languages")
struct LanguageTests {
    @Test("Accept-Language: the page, its refusal and the confirmation in French; the values stored as the document writes them")
    func french() async throws {
        let fixture = try ServerFixture(name: "language-fr", forms: ["feedback.yaml"])
        try await fixture.test { client throws in
            var browser = Browser()
            browser.language = "fr-CH, fr;q=0.9, en;q=0.5"
            let page = try await browser.open(client, "feedback")
            #expect(page.status == .ok)
            #expect(page.headers[.contentLanguage] == "fr")
            #expect(page.headers[.vary]?.contains("Accept-Language") == true)
            #expect(page.text.contains("<html lang=\"fr\">"))
            #expect(page.text.contains("<title>Parlez-nous de votre visite</title>"))
            #expect(page.text.contains(">Suivant</button>"))
            #expect(page.text.contains(">Envoyer</button>"))
            #expect(page.text.contains(">Enregistrer et continuer plus tard</button>"))
            // The host's words are made per page: nothing keeps the first language asked for.
            let english = try await client.execute(uri: "/forms/feedback", method: .get)
            #expect(english.text.contains(">Save and continue later</button>"), "\(english.text.suffix(800))")
            #expect(!english.text.contains("Enregistrer"))
            let refused = try await browser.post(client, "feedback", [("name", "Ada"), ("nps", "12")])
            #expect(refused.status == .unprocessableContent)
            #expect(refused.text.contains("<title>Erreur : Parlez-nous de votre visite</title>"), "\(refused.text.prefix(600))")
            #expect(refused.text.contains("Il y a un problème"))
            #expect(!refused.text.contains("There is a problem"))
            _ = try await browser.open(client, "feedback")
            let accepted = try await browser.post(
                client, "feedback", [("name", "Ada"), ("firstVisit", "true"), ("heardFrom", "A friend"), ("nps", "9")])
            #expect(accepted.status == .seeOther, "\(accepted.text)")
            let location = try #require(accepted.headers[.location])
            var headers = HTTPFields()
            headers[.acceptLanguage] = "fr"
            let thanks = try await client.execute(uri: location, method: .get, headers: headers)
            #expect(thanks.text.contains("<h1>Merci</h1>"), "\(thanks.text)")
            #expect(thanks.text.contains("<strong>Parlez-nous de votre visite</strong>"))
            let stored = try await fixture.stored("feedback")
            #expect(stored.count == 1)
            #expect(stored.first?.values.contains(#""heardFrom":"A friend""#) == true, "\(stored.first?.values ?? "")")
        }
    }

    @Test("?lang= before Accept-Language; Arabic is right to left; a language the form lacks shows it as written")
    func choice() async throws {
        let fixture = try ServerFixture(name: "language-choice", forms: ["feedback.yaml", "login.yaml"])
        try await fixture.test { client throws in
            var headers = HTTPFields()
            headers[.acceptLanguage] = "fr"
            let arabic = try await client.execute(uri: "/forms/feedback?lang=ar", method: .get, headers: headers)
            #expect(arabic.headers[.contentLanguage] == "ar")
            #expect(arabic.text.contains("<html lang=\"ar\" dir=\"rtl\">"))
            // login has no translations: English, whatever the browser asks; the host's words follow the form's.
            let login = try await client.execute(uri: "/forms/login", method: .get, headers: headers)
            #expect(login.headers[.contentLanguage] == "en")
            #expect(login.text.contains("<html lang=\"en\">"))
            // A page of no form: the host's catalogues.
            let missing = try await client.execute(uri: "/forms/nope", method: .get, headers: headers)
            #expect(missing.status == .notFound)
            #expect(missing.text.contains("Formulaire introuvable"), "\(missing.text)")
            headers[.acceptLanguage] = "de, *;q=0.1"
            let german = try await client.execute(uri: "/forms/feedback", method: .get, headers: headers)
            #expect(german.headers[.contentLanguage] == "en")
            // The blank page is kept once rendered: once per language, not the first language's for everyone.
            #expect(german.text.contains("<title>Tell us about your visit</title>"), "\(german.text.prefix(400))")
            let arabicAgain = try await client.execute(uri: "/forms/feedback?lang=ar", method: .get)
            #expect(arabicAgain.text.contains("<html lang=\"ar\" dir=\"rtl\">"))
            // A hostile header is read in one pass and ignored where it is not a language.
            headers[.acceptLanguage] = String(repeating: "<script>;q=2,", count: 5000)
            let hostile = try await client.execute(uri: "/forms/feedback", method: .get, headers: headers)
            #expect(hostile.status == .ok)
            #expect(hostile.headers[.contentLanguage] == "en")
        }
    }

    @Test("a translation file beside its document: not served as a form; a change to it is read again")
    func translationFile() async throws {
        let source = "\(Scratch.directory)/language-file-source"
        try? FileManager.default.removeItem(atPath: source)
        try FileManager.default.createDirectory(atPath: source, withIntermediateDirectories: true)
        try """
        formwork: 1
        id: club
        title: Join the club
        sections:
          - id: s
            fields:
              - { id: name, cell: org.formwork.text-field, model: { title: Name } }
        translations:
          fr: club.fr.yaml
        """.write(toFile: "\(source)/club.yaml", atomically: true, encoding: .utf8)
        try "Join the club: Rejoindre le club\nName: Nom\n".write(toFile: "\(source)/club.fr.yaml", atomically: true, encoding: .utf8)
        let fixture = try ServerFixture(name: "language-file", forms: [], documents: ["\(source)/club.yaml", "\(source)/club.fr.yaml"])
        try await fixture.test { client throws in
            let index = try await client.execute(uri: "/", method: .get)
            #expect(index.text.contains("href=\"/forms/club\""))
            #expect(!index.text.contains("club.fr"))
            #expect(fixture.service.catalog.forms.count == 1)
            let french = try await client.execute(uri: "/forms/club?lang=fr", method: .get)
            #expect(french.text.contains("<h1>Rejoindre le club</h1>"), "\(french.text.prefix(500))")
            try "Join the club: Adhérer au club\nName: Nom\n".write(
                toFile: "\(fixture.folder)/club.fr.yaml", atomically: true, encoding: .utf8)
            fixture.service.catalog.refresh(force: true)
            let changed = try await client.execute(uri: "/forms/club?lang=fr", method: .get)
            #expect(changed.text.contains("<h1>Adhérer au club</h1>"), "\(changed.text.prefix(500))")
        }
    }

    @Test("the form a path names is read as the router reads the path: /forms/{id}… and /api/forms/{id}…, empty segments skipped")
    func formOfAPath() {
        // The reading before it was one pass over the bytes: the path split into its non-empty segments.
        func bySplitting(_ path: String) -> String? {
            let parts = path.split(separator: "/", omittingEmptySubsequences: true)
            let rest = parts.first == "api" ? parts.dropFirst() : parts[...]
            guard rest.first == "forms", rest.count >= 2 else { return nil }
            return String(rest[rest.index(after: rest.startIndex)])
        }
        let paths = [
            "", "/", "//", "/forms", "/forms/", "/forms/login", "/forms/login/", "/forms/login/submitted/abc", "//forms//login",
            "/api", "/api/", "/api/forms", "/api/forms/login", "/api/forms/login/submissions", "/api/api/forms/x", "/apiforms/x",
            "/form/x", "/formsx/y", "/FORMS/x", "forms/x", "/forms/é/x", "/forms/%C3%A9", "/x/forms/y", "/api/x/forms/y",
            "/forms/" + String(repeating: "a", count: 10_000),
        ]
        for path in paths {
            #expect(LanguageNegotiation<BasicRequestContext>.formID(in: path) == bySplitting(path), "\(path.prefix(40))")
        }
        #expect(LanguageNegotiation<BasicRequestContext>.formID(in: "/api/forms/kitchen-sink/schema") == "kitchen-sink")
    }
}
