import Foundation
import Testing

@testable import FormworkCore
@testable import FormworkHost
import FormworkTestSupport

/// A terminal that answers from a script and records the transcript.
final class ScriptedTerminal: FillTerminal {
    var answers: [String]
    var transcript = ""
    var secureReads = 0

    init(_ answers: [String]) { self.answers = answers }

    func readLine(secure: Bool) -> String? {
        if secure { secureReads += 1 }
        guard !answers.isEmpty else { return nil }
        let line = answers.removeFirst()
        if !secure { transcript += line + "\n" }
        return line
    }

    func write(_ text: String) { transcript += text }
}

@Suite("Interactive fill")
struct FillSessionTests {
    let registry = firstPartyRegistry()

    func form(_ name: String) throws -> Form {
        try FormDecoder.load(path: "\(Source.root)/Examples/Forms/\(name)", registry: registry)
    }

    @Test("every prompt type: traits filter and shape answers, bad answers are asked again, value_changed is honoured")
    func kitchenSink() throws {
        let terminal = ScriptedTerminal([
            "", "not a url", "example.org", "12ab", "123456", "", "maybe", "no", "9", "ger", "XL",
            "2030-01-01", "2027-02-01", "2026-12-02T10:00:00Z", "9", "5",
        ])
        let filled = try FillSession(form: form("kitchen-sink.yaml"), terminal: terminal, driver: InProcessCells(registry: registry)).run()
        #expect(
            filled.valuesJSON
                == JSON.object([
                    ("name", .string("Ada")), ("website", .string("example.org")), ("pin", .string("123456")),
                    ("bio", .string("Mathematician.\nWrites programs for engines that do not exist yet.")), ("locked", .string("FW-0001")),
                    ("newsletter", .bool(false)), ("country", .string("Germany")), ("size", .string("XL")),
                    ("start", .string("2027-02-01")),
                    ("meeting", .string("2026-12-02T10:00:00Z")), ("rating", .integer(5)),
                ]))
        #expect(terminal.answers.isEmpty)
        for complaint in [
            "! Website: a web address has no spaces.", "! PIN takes digits only.", "! Answer yes or no.",
            "! Choose one of: 1 France, 2 Germany, 3 Japan, 4 United Kingdom, 5 United States.",
            "! Value 2030-01-01 is after the latest date 2027-11-21 (maximum).",
            "! Choose between 0 and 5 stars.", "[5/11] Member ID  FW-0001 (read-only)",
        ] {
            #expect(terminal.transcript.contains(complaint), "missing: \(complaint)")
        }
        #expect(terminal.secureReads == 2)
        #expect(!terminal.transcript.contains("123456"), "a secure answer was echoed")
        #expect(terminal.transcript.contains("••••••"))
    }

    @Test("required fields cannot stay empty, the keyboard filters, secure entries are never reshaped")
    func shaping() throws {
        let terminal = ScriptedTerminal(["", "ada lovelace", "ADA@example.com", "", "s3cret pass", "y"])
        let filled = try FillSession(form: form("login.yaml"), terminal: terminal, driver: InProcessCells(registry: registry)).run()
        #expect(
            filled.valuesJSON
                == JSON.object([
                    ("username", .string("ADA@example.com")), ("password", .string("s3cret pass")), ("remember", .bool(true)),
                ]))
        #expect(terminal.transcript.contains("! E-mail is required."))
        #expect(terminal.transcript.contains("! E-mail: an e-mail address has no spaces."))
        #expect(terminal.transcript.contains("! Password is required."))
    }

    @Test("the document's autocapitalization shapes a plain answer")
    func words() throws {
        let terminal = ScriptedTerminal(["ada king lovelace", "ada@example.com", "", "2", "secret", "secret", "y", "Acme"])
        let filled = try FillSession(form: form("register.yaml"), terminal: terminal, driver: InProcessCells(registry: registry)).run()
        #expect(filled.values["name"] == .string("Ada King Lovelace"))
        #expect(filled.values["plan"] == .string("Team"))
        #expect(filled.values["company"] == .string("Acme"))
    }

    @Test("a conditional field is asked only once its condition holds; a confirmation must match")
    func conditional() throws {
        // Plan Free: 'company' (visibleIf plan in [Team, Enterprise]) is never asked.
        let free = ScriptedTerminal(["Ada", "ada@example.com", "", "1", "secret", "secrex", "secret", "y"])
        let filled = try FillSession(form: form("register.yaml"), terminal: free, driver: InProcessCells(registry: registry)).run()
        #expect(!free.transcript.contains("Company"))
        #expect(free.transcript.contains("! The two passwords do not match."))
        #expect(filled.values["confirm"] == .string("secret"))
        // Plan Enterprise: 'company' appears, and is required (requiredIf).
        let enterprise = ScriptedTerminal(["Ada", "ada@example.com", "", "3", "secret", "secret", "y", "", "Acme"])
        let done = try FillSession(form: form("register.yaml"), terminal: enterprise, driver: InProcessCells(registry: registry)).run()
        #expect(enterprise.transcript.contains("Company *"))
        #expect(enterprise.transcript.contains("! Company is required."))
        #expect(done.values["company"] == .string("Acme"))
    }

    @Test("a form with pages is filled page by page; 'back' returns to the previous page and keeps its answers")
    func pages() throws {
        // Page 1: name, first visit (which shows the welcome page). Page 3: nps 2 makes 'better' appear (and
        // required); back twice to page 1, then on.
        let terminal = ScriptedTerminal([
            "Ada", "y", "", "", "2", "Too slow", ".", "back", "", "back", "Bob", "", "", "", "9", "", "", "", "",
        ])
        let filled = try FillSession(form: form("feedback.yaml"), terminal: terminal, driver: InProcessCells(registry: registry)).run()
        #expect(terminal.transcript.contains("Page 2 of 4: Welcome"))
        #expect(terminal.transcript.contains("Page 3 of 4: Your visit"))
        #expect(terminal.transcript.contains("What should we do better? *"))
        #expect(filled.values["name"] == .string("Bob"))
        #expect(filled.values["nps"] == .integer(9))
        // 'better' was answered while it showed; with a 9 it is hidden again and not submitted.
        #expect(!filled.valuesJSON.serialized().contains("Too slow"))
        #expect(filled.valuesJSON.serialized().contains("\"firstVisit\": true"))
        // Not a first visit: the welcome page is skipped and the pages are counted without it.
        let returning = ScriptedTerminal(["Ada", "n", "9", "", "", "", ""])
        _ = try FillSession(form: form("feedback.yaml"), terminal: returning, driver: InProcessCells(registry: registry)).run()
        #expect(!returning.transcript.contains("Welcome"))
        #expect(returning.transcript.contains("Page 2 of 3: Your visit"))
        #expect(returning.transcript.contains("Page 3 of 3: Staying in touch"))
    }

    @Test("words and sentences capitalisation")
    func capitalisation() {
        #expect(AnswerShaping.capitalize("ada king lovelace", .words) == "Ada King Lovelace")
        #expect(AnswerShaping.capitalize("hello. how are you? fine", .sentences) == "Hello. How are you? Fine")
        #expect(AnswerShaping.capitalize("fw-1", .allCharacters) == "FW-1")
        #expect(
            AnswerShaping.choose("uni", from: [Choice(value: "uk", label: "United Kingdom"), Choice(value: "us", label: "United States")])
                == nil)
        #expect(
            AnswerShaping.choose(
                "united s", from: [Choice(value: "uk", label: "United Kingdom"), Choice(value: "us", label: "United States")]) == "us")
    }

    @Test("the answers ending early stops the session at that field")
    func inputEnded() throws {
        let terminal = ScriptedTerminal(["ada@example.com"])
        let login = try form("login.yaml")
        #expect(throws: FillError.self) {
            try FillSession(form: login, terminal: terminal, driver: InProcessCells(registry: registry)).run()
        }
        let error = #expect(throws: FillError.self) {
            try FillSession(form: login, terminal: ScriptedTerminal([]), driver: InProcessCells(registry: registry)).run()
        }
        #expect(error?.description == "the answers ended at field 'username'; nothing was written")
    }

    @Test("accessible prompts are plain sentences: no symbols, no colour")
    func accessible() throws {
        let terminal = ScriptedTerminal(["ada@example.com", "secret", "no"])
        _ = try FillSession(
            form: form("login.yaml"), terminal: terminal, options: FillOptions(accessible: true, color: true),
            driver: InProcessCells(registry: registry)
        ).run()
        #expect(
            terminal.transcript.contains(
                "Field 2 of 3: Password. Required.\nHint: At least 8 characters.\nSecure entry: what you type is not shown."))
        #expect(terminal.transcript.contains("Your answer, then Enter to go: (hidden)"))
        for symbol in ["\u{1B}[", "•", "›", "‹", "[1/3]"] { #expect(!terminal.transcript.contains(symbol), "\(symbol)") }
    }
}
