import Foundation
import FormworkTestSupport
import Testing

@testable import FormworkCore

/// The host's message catalogues: every message written with `loc`/`locPlural` in the sources has a French
/// translation with the same placeholders, and the French table has nothing the sources no longer say. The keys are
/// read from the sources by `scripts/message-keys` (the same list a translator works from).
@Suite("Message catalogues")
struct MessageCatalogTests {
    /// The keys as the running program sees them (the script prints them as Swift writes them: `\n`, `\"`).
    static let keys: [String] = {
        let result = try! run("/usr/bin/env", ["python3", "\(Source.root)/scripts/message-keys"])
        return result.stdout.split(separator: "\n", omittingEmptySubsequences: true).map { line in
            var out = ""
            var escaped = false
            for c in line {
                if escaped {
                    out.append(c == "n" ? "\n" : c == "t" ? "\t" : c)
                    escaped = false
                } else if c == "\\" {
                    escaped = true
                } else {
                    out.append(c)
                }
            }
            return out
        }
    }()

    static func placeholders(_ text: String) -> [String] {
        text.matches(of: /\{[0-9]\}/).map { String(text[$0.range]) }.sorted()
    }

    @Test("the sources' messages are found, and none is built by interpolation")
    func keysAreFound() {
        #expect(Self.keys.count > 150)
        #expect(Self.keys.contains("Page {0} of {1}"))
        #expect(Self.keys.contains("There are {0} problems"))
        for key in Self.keys { #expect(!key.contains("\\("), "a message built by interpolation cannot be translated: \(key)") }
    }

    @Test("French has every message, with the same placeholders, and nothing else")
    func frenchIsComplete() {
        let table = Messages.french.table
        for key in Self.keys {
            guard let french = table[key] else {
                Issue.record("no French for \"\(key)\"")
                continue
            }
            #expect(Self.placeholders(french) == Self.placeholders(key), "placeholders differ: \"\(key)\" → \"\(french)\"")
        }
        let stale = Set(table.keys).subtracting(Self.keys)
        #expect(stale.isEmpty, "French entries no message uses: \(stale.sorted())")
    }

    @Test("placeholders are filled in any order; a brace that is not one is kept")
    func fill() {
        #expect(Messages.fill("{1} then {0}", ["a", "b"]) == "b then a")
        #expect(Messages.fill("{x} {0} {", ["a"]) == "{x} a {")
        #expect(Messages.fill("{5}", ["a"]) == "")
        #expect(Messages.french.text("Page {0} of {1}", ["2", "3"]) == "Page 2 sur 3")
        #expect(Messages.english.text("Page {0} of {1}", ["2", "3"]) == "Page 2 of 3")
    }

    @Test("plural forms follow each language's rule: French says zero in the singular")
    func plurals() {
        #expect(Messages.english.plural(0, one: "{0} byte", other: "{0} bytes", ["0"]) == "0 bytes")
        #expect(Messages.french.plural(0, one: "{0} byte", other: "{0} bytes", ["0"]) == "0 octet")
        #expect(Messages.french.plural(2, one: "{0} byte", other: "{0} bytes", ["2"]) == "2 octets")
    }

    @Test("a bound catalogue reaches the workers of a parallel map")
    func boundOnWorkers() {
        let texts = Messages.$bound.withValue(.french) {
            Parallel.map(64, worthIt: true) { _ in loc("Next") }
        }
        #expect(Set(texts) == ["Suivant"])
        #expect(loc("Next") == "Next")
    }
}

@Suite("Language tags")
struct LanguageTagTests {
    @Test("locale names become tags; C and malformed ones are none")
    func normalized() {
        #expect(LanguageTag.normalized("fr_CA.UTF-8") == "fr-CA")
        #expect(LanguageTag.normalized("de_DE@euro") == "de-DE")
        #expect(LanguageTag.normalized("EN") == "en")
        #expect(LanguageTag.normalized("C") == nil)
        #expect(LanguageTag.normalized("C.UTF-8") == nil)
        #expect(LanguageTag.normalized("POSIX") == nil)
        #expect(LanguageTag.normalized("") == nil)
        #expect(LanguageTag.normalized("fr--CA") == nil)
        #expect(LanguageTag.normalized("<script>") == nil)
        #expect(LanguageTag.normalized(String(repeating: "a", count: 40)) == nil)
    }

    @Test("the environment is read as gettext reads it")
    func environment() {
        #expect(LanguageTag.fromEnvironment(["LANG": "fr_FR.UTF-8"]) == ["fr-FR"])
        #expect(LanguageTag.fromEnvironment(["LANG": "fr_FR.UTF-8", "LC_ALL": "de_DE.UTF-8"]) == ["de-DE"])
        #expect(LanguageTag.fromEnvironment(["LANG": "en_GB.UTF-8", "LANGUAGE": "fr:de"]) == ["fr", "de", "en-GB"])
        // LANGUAGE is ignored when the locale is C, as gettext does.
        #expect(LanguageTag.fromEnvironment(["LANG": "C", "LANGUAGE": "fr"]) == [])
        #expect(LanguageTag.fromEnvironment([:]) == [])
    }

    @Test("Accept-Language is ordered by weight, then by position; q=0 and junk are left out")
    func acceptLanguage() {
        #expect(LanguageTag.fromAcceptLanguage("fr-CH, fr;q=0.9, en;q=0.8, *;q=0.5") == ["fr-CH", "fr", "en", "*"])
        #expect(LanguageTag.fromAcceptLanguage("en;q=0.5, ar") == ["ar", "en"])
        #expect(LanguageTag.fromAcceptLanguage("de;q=0, <x>, fr") == ["fr"])
        #expect(LanguageTag.fromAcceptLanguage("") == [])
        // A long header is read in one pass, 32 entries at most.
        let long = Array(repeating: "fr;q=0.1", count: 100_000).joined(separator: ",")
        #expect(LanguageTag.fromAcceptLanguage(long).count == 32)
    }

    @Test("negotiation: exact, then the same language, then the wildcard")
    func negotiate() {
        #expect(LanguageTag.negotiate(["fr-CA", "en"], available: ["en", "fr"]) == "fr")
        #expect(LanguageTag.negotiate(["pt"], available: ["en", "pt-BR"]) == "pt-BR")
        #expect(LanguageTag.negotiate(["de"], available: ["en", "fr"]) == nil)
        #expect(LanguageTag.negotiate(["de", "*"], available: ["en", "fr"]) == "en")
    }

    @Test("right-to-left languages and scripts")
    func direction() {
        #expect(LanguageTag.isRightToLeft("ar"))
        #expect(LanguageTag.isRightToLeft("he-IL"))
        #expect(LanguageTag.isRightToLeft("az-Arab"))
        #expect(!LanguageTag.isRightToLeft("fr"))
        #expect(!LanguageTag.isRightToLeft("ku-Latn"))
    }
}
