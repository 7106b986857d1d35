import Foundation
import Testing
import FormworkTestSupport

/// Translations through the real command: the document's `language` and `translations`, the language chosen by
/// `--locale` or the environment, the host's words in French, right-to-left HTML, `validate --strict`, and the
/// document's refusals.
@Suite("Translations: --locale, the environment, validate --strict, the document's refusals")
struct TranslationCommandTests {
    let environment = ["PATH": "/usr/bin:/bin", "HOME": Scratch.directory]
    let feedback = "\(Source.root)/Examples/Forms/feedback.yaml"

    @Test("--locale fr: the document's texts and the host's words in French; values and ids as written")
    func french() throws {
        let text = try run(Build.formwork, ["render", feedback, "--locale", "fr", "--format", "text"], environment: environment)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("Parlez-nous de votre visite"))
        #expect(text.stdout.contains("Page 1 sur 3 : À propos de vous"))
        #expect(text.stdout.contains("de 0 à 10"))
        #expect(!text.stdout.contains("Tell us about your visit"))
        let html = try run(Build.formwork, ["render", feedback, "--locale", "fr-CA", "--format", "html"], environment: environment)
        #expect(html.stdout.contains("<html lang=\"fr\">"))
        #expect(html.stdout.contains(">Suivant</button>"))
        #expect(html.stdout.contains("data-page-number=\"Page {0} sur {1}\""))
        // A choice's label is translated; its value is not.
        let json = try run(
            Build.formwork, ["render", feedback, "--locale", "fr", "--format", "json", "--values", try values(#"{"firstVisit": true}"#)],
            environment: environment)
        #expect(json.stdout.contains("\"language\": \"fr\""), "\(json.stdout.prefix(400))")
        #expect(json.stdout.contains("\"label\": \"Par un ami\""), "\(json.stdout)")
        #expect(json.stdout.contains("\"value\": \"A friend\""), "\(json.stdout)")
    }

    @Test("HTML in French: the page script numbers the pages shown in French as answers change (headless Chromium)")
    func frenchPages() throws {
        let html = try run(Build.formwork, ["render", feedback, "--locale", "fr", "--format", "html"], environment: environment).stdout
        guard Chromium.path != nil else {
            print("skipped: chromium is not installed (apt-get install chromium)")
            return
        }
        let script = """
            (function () {
              var pages = document.querySelectorAll(".fw-page"), out = [];
              function heading(i) { return pages[i].querySelector("h2").textContent; }
              out.push(heading(0), pages[0].querySelector(".fw-page-nav").getAttribute("aria-label"));
              document.getElementById("firstVisit").click();
              out.push(heading(0), heading(1), pages[1].querySelector(".fw-primary").textContent);
              document.getElementById("probe").textContent = out.join(" | ");
            })();
            """
        let seen = try Chromium.probe(html, script: script, name: "pages-fr")
        #expect(
            seen == "Page 1 sur 3 : À propos de vous | Page 1 sur 3 | Page 1 sur 4 : À propos de vous | Page 2 sur 4 : Bienvenue | Suivant",
            "\(seen)")
    }

    func values(_ json: String) throws -> String {
        try Scratch.file("translations/values-\(UInt32.random(in: 0...UInt32.max)).json", contents: json)
    }

    @Test("the environment chooses as gettext does; C and a language the form lacks show it as written")
    func environmentChooses() throws {
        func title(_ env: [String: String]) throws -> String {
            let result = try run(Build.formwork, ["render", feedback, "--format", "text"], environment: environment.merging(env) { $1 })
            #expect(result.status == 0, "\(result.stderr)")
            return String(result.stdout.prefix { $0 != "\n" })
        }
        #expect(try title(["LANG": "fr_FR.UTF-8"]) == "Parlez-nous de votre visite")
        #expect(try title(["LANG": "fr_FR.UTF-8", "LC_ALL": "C"]) == "Tell us about your visit")
        #expect(try title(["LANG": "en_US.UTF-8", "LANGUAGE": "ar:fr"]) == "أخبرنا عن زيارتك")
        #expect(try title(["LANG": "de_DE.UTF-8"]) == "Tell us about your visit")
        #expect(try title([:]) == "Tell us about your visit")
        // An explicit --locale the form has no translation into is noted, and the form shown as written.
        let german = try run(Build.formwork, ["render", feedback, "--locale", "de", "--format", "text"], environment: environment)
        #expect(german.status == 0)
        #expect(
            german.stderr.contains(
                "formwork: note: form 'feedback' has no translation into de; it is shown in en (its languages: en, ar, fr)"),
            "\(german.stderr)")
        let bad = try run(Build.formwork, ["render", feedback, "--locale", "fr;rm -rf"], environment: environment)
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("--locale 'fr;rm -rf' is not a language tag"), "\(bad.stderr)")
    }

    @Test("Arabic: the page is right to left; the host's words, with no Arabic catalogue, are English")
    func rightToLeft() throws {
        let html = try run(Build.formwork, ["render", feedback, "--locale", "ar", "--format", "html"], environment: environment)
        #expect(html.stdout.contains("<html lang=\"ar\" dir=\"rtl\">"))
        #expect(html.stdout.contains("<h1>أخبرنا عن زيارتك</h1>"))
        #expect(html.stdout.contains(">Next</button>"))
        let text = try run(
            Build.formwork, ["render", feedback, "--locale", "ar", "--format", "text", "--width", "40"], environment: environment)
        for line in text.stdout.split(separator: "\n") { #expect(line.count <= 40, "\(line)") }
    }

    @Test("validate: values refused in French; --strict names each text left untranslated and each unused translation")
    func validate() throws {
        let refused = try run(
            Build.formwork, ["validate", feedback, "--locale", "fr", "--values", try values(#"{"nps": "neuf", "email": "x"}"#)],
            environment: environment)
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("/nps: nps doit être un entier, pas une chaîne"), "\(refused.stderr)")
        #expect(try run(Build.formwork, ["validate", "--strict", feedback], environment: environment).status == 0)
        let document = try Scratch.file(
            "translations/partial.yaml",
            contents: """
                formwork: 1
                id: partial
                title: Sign up
                sections:
                  - id: s
                    fields:
                      - id: email
                        cell: org.formwork.text-field
                        model: { title: E-mail, placeholder: you@example.com }
                        rules: { required: Tell us your e-mail address. }
                translations:
                  fr:
                    Sign up: Inscription
                    E-mial: Adresse e-mail
                """)
        let lenient = try run(Build.formwork, ["validate", document], environment: environment)
        #expect(lenient.status == 0, "\(lenient.stderr)")
        let strict = try run(Build.formwork, ["validate", "--strict", "--json", document], environment: environment)
        #expect(strict.status == 65)
        #expect(strict.stdout.contains(#""code": "untranslated""#), "\(strict.stdout)")
        #expect(strict.stdout.contains("no fr translation of field 'email' title 'E-mail': it shows in en"), "\(strict.stdout)")
        #expect(strict.stdout.contains("no fr translation of field 'email' required message 'Tell us your e-mail address.'"))
        #expect(strict.stdout.contains(#""pointer": "/translations/fr/E-mial""#), "\(strict.stdout)")
        #expect(strict.stdout.contains(#""code": "unused-translation""#))
    }

    @Test("the document's refusals: a tag that is not one, a table that is not, a translation that is not a string")
    func refusals() throws {
        let document = try Scratch.file(
            "translations/bad.yaml",
            contents: """
                formwork: 1
                id: bad
                language: english
                sections:
                  - id: s
                    fields:
                      - { id: name, cell: org.formwork.text-field, model: { title: Name } }
                translations:
                  "fr FR": { Name: Nom }
                  de: [Name]
                  es: { Name: 3 }
                """)
        let result = try run(Build.formwork, ["validate", document], environment: environment)
        #expect(result.status == 65)
        #expect(result.stderr.contains("/translations/fr FR: 'fr FR' is not a language tag"), "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "/translations/de: a translation table maps each text of the document to its translation (or names a file that does), not a list"
            ))
        #expect(result.stderr.contains("/translations/es/Name: a translation is a string, not an integer"), "\(result.stderr)")
        // `english` is a well-formed tag (a primary subtag of up to 8 letters), so the document is read as written.
        let own = try Scratch.file(
            "translations/own.yaml",
            contents: """
                formwork: 1
                id: own
                language: fr
                sections:
                  - id: s
                    fields:
                      - { id: name, cell: org.formwork.text-field, model: { title: Nom } }
                translations:
                  fr: { Nom: Nom }
                """)
        let same = try run(Build.formwork, ["validate", own], environment: environment)
        #expect(same.stderr.contains("/translations/fr: the document is written in 'fr' ('language')"), "\(same.stderr)")
    }

    @Test("a translation kept in a file of its own, named relative to the document; a missing or malformed one refused")
    func files() throws {
        let directory = "\(Scratch.directory)/translations/files"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let document = try Scratch.file(
            "translations/files/signup.yaml",
            contents: """
                formwork: 1
                id: signup
                title: Sign up
                sections:
                  - id: s
                    fields:
                      - { id: name, cell: org.formwork.text-field, model: { title: Name } }
                translations:
                  fr: signup.fr.yaml
                """)
        _ = try Scratch.file("translations/files/signup.fr.yaml", contents: "Sign up: Inscription\nName: Nom\n")
        // From another working directory: the path is the document's.
        let text = try run(
            Build.formwork, ["render", document, "--locale", "fr", "--format", "text"], environment: environment, directory: "/")
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.hasPrefix("Inscription\n"), "\(text.stdout)")
        #expect(try run(Build.formwork, ["validate", "--strict", document], environment: environment).status == 0)
        _ = try Scratch.file("translations/files/signup.fr.yaml", contents: "Sign up: [Inscription]\n")
        let malformed = try run(Build.formwork, ["validate", document], environment: environment)
        #expect(malformed.status == 65)
        #expect(malformed.stderr.contains("signup.fr.yaml:1: /Sign up: a translation is a string, not a list"), "\(malformed.stderr)")
        // Only files beside the document or below it, of translations: a document cannot make Formwork read any file.
        for outside in ["/etc/passwd", "../secret.yaml", "sub/../../x.yaml", "notes.txt"] {
            let hostile = try Scratch.file(
                "translations/files/hostile.yaml",
                contents: "formwork: 1\nid: h\nsections:\n  - id: s\n    fields: []\ntranslations:\n  fr: \"\(outside)\"\n")
            let refused = try run(Build.formwork, ["validate", hostile], environment: environment)
            #expect(refused.status == 65)
            #expect(
                refused.stderr.contains("/translations/fr: '\(outside)' is not a translation file beside the document"), "\(refused.stderr)"
            )
            #expect(!refused.stderr.contains("root:"))
        }
        try FileManager.default.removeItem(atPath: "\(directory)/signup.fr.yaml")
        let missing = try run(Build.formwork, ["validate", document], environment: environment)
        #expect(missing.status == 65)
        #expect(
            missing.stderr.contains(
                "/translations/fr: there is no file 'signup.fr.yaml' (a translation file's path is relative to the document)"),
            "\(missing.stderr)")
    }
}
