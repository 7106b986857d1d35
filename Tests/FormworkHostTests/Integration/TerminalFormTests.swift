import Foundation
import Testing

@testable import FormworkCore
@testable import FormworkHost
import FormworkTestSupport

/// A raw-mode terminal played from a list of keys; the screen is what the session drew.
final class ScriptedKeys: KeyTerminal {
    var keys: [Key]
    var output = ""
    var size: (columns: Int, rows: Int)

    init(_ keys: [Key], columns: Int = 100, rows: Int = 40) {
        self.keys = keys
        size = (columns, rows)
    }

    func readKey() -> Key? { keys.isEmpty ? nil : keys.removeFirst() }
    func write(_ text: String) { output += text }
}

/// Typing: every character of `text` as a key.
func typing(_ text: String) -> [Key] { text.map { Key.character($0) } }

@Suite("Interactive terminal form")
struct TerminalFormTests {
    let registry = firstPartyRegistry()

    func makeSession(_ name: String, _ keys: [Key], columns: Int = 100, rows: Int = 40) throws -> (TerminalFormSession, ScriptedKeys) {
        let form = try FormDecoder.load(path: "\(Source.root)/Examples/Forms/\(name)", registry: registry)
        let terminal = ScriptedKeys(keys, columns: columns, rows: rows)
        return (TerminalFormSession(form: form, terminal: terminal, driver: InProcessCells(registry: registry)), terminal)
    }

    /// Plays `keys` one by one (no confirmation expected) and returns the session for inspection.
    func play(_ name: String, _ keys: [Key], columns: Int = 100, rows: Int = 40) throws -> TerminalFormSession {
        let (session, _) = try makeSession(name, [], columns: columns, rows: rows)
        session.start()
        for key in keys { _ = try session.handle(key) }
        return session
    }

    func text(_ session: TerminalFormSession) -> String { session.screen.joined(separator: "\n") }

    /// The form's values, by field id.
    func values(_ session: TerminalFormSession) -> [String: JSON] {
        guard case .object(let members) = session.form.valuesJSON else { return [:] }
        var out: [String: JSON] = [:]
        for (key, value) in members { out[key] = value }
        return out
    }

    func strings(_ items: String...) -> JSON { .array(items.map { .string($0) }) }

    @Test("line editing, masking as typed, a toggle, the summary, and the values after confirming")
    func login() throws {
        let keys: [Key] =
            typing("ab") + [.left, .left] + typing("x") + [.end] + typing("@example.org") + [.home, .wordRight, .control("k")]
            + typing("da@example.com") + [.tab] + typing("hunter2secret") + [.tab, .character(" "), .tab, .tab, .tab, .enter]
        let (session, terminal) = try makeSession("login.yaml", keys + [.enter])
        let filled = try session.run()
        #expect(
            filled.valuesJSON
                == JSON.object([
                    ("username", .string("xabda@example.com")), ("password", .string("hunter2secret")), ("remember", .bool(false)),
                ]))
        #expect(!terminal.output.contains("hunter2secret"), "the password reached the screen")
        #expect(terminal.output.contains("•••••••••••••"))
        #expect(terminal.output.contains("Review: Sign in"))
    }

    /// How a session ended: "finished" or its error's message.
    func outcome(_ session: TerminalFormSession) -> String {
        do {
            _ = try session.run()
            return "finished"
        } catch { return error.description }
    }

    @Test("Esc and Ctrl-C cancel; the end of the input is reported")
    func cancel() throws {
        for key in [Key.escape, .control("c")] {
            let (session, _) = try makeSession("login.yaml", typing("ada") + [key])
            #expect(outcome(session) == "cancelled; nothing was written")
        }
        // Esc first closes an open list; the second Esc cancels.
        let (picker, terminal) = try makeSession("register.yaml", [.tab, .tab, .tab, .enter, .escape])
        #expect(outcome(picker).contains("ended"))
        #expect(terminal.output.contains("◂ Free ▸"))
        let (ended, _) = try makeSession("login.yaml", typing("ada"))
        #expect(outcome(ended).contains("'username'"))
    }

    @Test("a picker moved with arrows shows the conditional field at once; required and cross-field problems block Submit")
    func conditions() throws {
        var session = try play("register.yaml", [.tab, .tab, .tab])
        #expect(!text(session).contains("Company"))
        _ = try session.handle(.right)
        _ = try session.handle(.right)
        #expect(text(session).contains("◂ Enterprise ▸"))
        #expect(text(session).contains("Company *"))
        session = try play(
            "register.yaml",
            typing("ada lovelace") + [.tab] + typing("ada@example.com") + [.tab, .tab, .right, .tab] + typing("secret123") + [.tab]
                + typing("secret124") + [.tab])
        #expect(text(session).contains("Full name *"))
        #expect(text(session).contains("Ada Lovelace"), "autocapitalization: words is applied as typed")
        #expect(text(session).contains("Company"))
        #expect(text(session).contains("! The two passwords do not match."))
        // Submit: the first field with a problem gets the focus and the status line counts them.
        for _ in 0..<6 { _ = try session.handle(.tab) }
        _ = try session.handle(.enter)
        #expect(text(session).contains("fields need attention") || text(session).contains("field needs attention"))
        #expect(session.focusedField.map { session.form.sections[$0.section].fields[$0.field].id } == "confirm")
    }

    @Test("numbers step within their bounds, segments and multi-select follow the arrows, a picker filters")
    func choicesAndNumbers() throws {
        let session = try play(
            "order.yaml",
            Array(repeating: Key.up, count: 25) + [
                .tab, .right, .tab, .down, .character(" "), .tab, .character(" "), .down, .character(" "),
            ])
        let dict = values(session)
        #expect(dict["quantity"] == .integer(20), "stepping stops at the maximum")
        #expect(dict["size"] == .string("Large"))
        #expect(dict["toppings"] == strings("Cheese", "Ham"))
        #expect(dict["diet"] == strings("Vegetarian", "Vegan"))
        // The computed total follows the quantity at once (20 × 9.5 + the 2.5 tip), and is never focused.
        #expect(dict["total"] == .number(192.5))
        #expect(text(session).contains("192.5"))
        let survey = try play(
            "survey.yaml",
            [.tab, .enter] + typing("wee") + [.enter, .tab, .tab] + [.character(" "), .down, .character(" "), .down, .character(" ")])
        let answers = values(survey)
        #expect(answers["visits"] == .integer(52))
        #expect(answers["liked"] == strings("food", "staff"), "a third choice is refused by maxItems: 2")
    }

    @Test("dates move part by part within their bounds; read-only fields are skipped")
    func dates() throws {
        // kitchen-sink: name, website, pin, bio, newsletter, country, size, start (2026-12-01, 2026-11-21 … 2027-11-21)
        let toStart: [Key] = Array(repeating: .tab, count: 7)
        let session = try play(
            "kitchen-sink.yaml", toStart + [.up, .right, .down, .right, .up, .up, .left, .left] + Array(repeating: .down, count: 3))
        let dict = values(session)
        // +1 year (2027-12-01) is above the maximum: clamped to 2027-11-21; month -1: 2027-10-21; day +2: 2027-10-23;
        // year -3: below the minimum, clamped to 2026-11-21.
        #expect(dict["start"] == .string("2026-11-21"))
        #expect(text(session).contains("Member ID") && text(session).contains("(read-only)"))
    }

    @Test("repeatable groups: add and remove items; pages: Next checks the page, Back keeps the answers")
    func repeatsAndPages() throws {
        let session = try play("tasks.yaml", typing("Ada") + [.tab] + typing("Write") + [.tab, .tab, .tab, .enter] + typing("Test"))
        #expect(text(session).contains("Task 2"))
        let dict = values(session)
        if case .array(let items)? = dict["tasks"] { #expect(items.count == 2) } else { Issue.record("no tasks: \(dict)") }
        #expect(text(session).contains("− Remove task 2"))

        let pages = try play("feedback.yaml", typing("Ada") + [.tab, .tab, .enter])
        #expect(text(pages).contains("Page 2 of 3: Your visit"))
        _ = try pages.handle(.tab)
        _ = try pages.handle(.tab)
        _ = try pages.handle(.enter)  // Next without the required score
        #expect(text(pages).contains("Page 2 of 3"))
        #expect(text(pages).contains("needs attention"))
        for key in typing("2") { _ = try pages.handle(key) }
        #expect(text(pages).contains("What should we do better? *"), "a score of 2 shows the follow-up, required")
        _ = try pages.handle(.tab)
        _ = try pages.handle(.tab)
        _ = try pages.handle(.enter)  // Back
        #expect(text(pages).contains("Page 1 of 3"))
        #expect(text(pages).contains("Ada"))
    }

    @Test("focus and selection go through the ABI; value_changed's refusal is shown at once and the value not taken")
    func throughTheABI() throws {
        let pack = try CCompiler.pack("focus", source: Source.fixture("focus_pack.c"), include: Source.include)
        let registry = firstPartyRegistry(plus: [pack])
        let yaml = """
            formwork: 1
            id: notes
            sections:
              - id: s
                fields:
                  - { id: first, cell: com.example.focus.note, model: { title: First } }
                  - { id: second, cell: com.example.focus.note, model: { title: Second } }
            """
        let form = try FormDecoder.decode(text: yaml, json: false, registry: registry)
        let session = TerminalFormSession(form: form, terminal: ScriptedKeys([]), driver: InProcessCells(registry: registry))
        session.start()
        #expect(text(session).contains("highlighted, selected 0"))
        #expect(!text(session).contains("plain"), "a hint is shown for the focused field only")
        for key in typing("forbidden") { _ = try session.handle(key) }
        #expect(text(session).contains("! That word is not allowed here."))
        #expect(session.form.sections[0].fields[0].model["text"] == .string("forbidde"), "the refused value is not taken")
        _ = try session.handle(.backspace)
        #expect(!text(session).contains("not allowed"))
        _ = try session.handle(.tab)
        #expect(text(session).contains("highlighted, selected 0"))
    }

    @Test("a keystroke redraws only the rows that changed; a resize redraws everything at the new width")
    func redraw() throws {
        let (session, terminal) = try makeSession("kitchen-sink.yaml", [])
        session.start()
        terminal.output = ""
        _ = try session.handle(.character("x"))
        #expect(session.rowsWritten <= 2, "typing one character rewrote \(session.rowsWritten) rows")
        #expect(terminal.output.contains("Adax"))
        terminal.size = (60, 20)
        _ = try session.handle(.resize)
        #expect(session.screen.count == 20)
        #expect(session.rowsWritten >= 19)
    }

    @Test("nothing from a document or a pack reaches the terminal raw")
    func controlCharacters() throws {
        let yaml = """
            formwork: 1
            id: hostile
            title: "Evil\\u001b]0;pwned\\u0007 title"
            sections:
              - id: s
                fields:
                  - { id: name, cell: org.formwork.text-field, model: { title: "Name\\u001b[2J", value: "x\\u001b[31m" } }
            """
        let form = try FormDecoder.decode(text: yaml, json: false, registry: registry)
        let terminal = ScriptedKeys([.paste("a\u{1B}[2Jb")])
        let session = TerminalFormSession(form: form, terminal: terminal, driver: InProcessCells(registry: registry))
        session.start()
        _ = try session.handle(.paste("a\u{1B}[2Jb"))
        #expect(!terminal.output.contains("\u{1B}]0;"))
        #expect(!terminal.output.contains("\u{1B}[2J" + "b"))
        #expect(!terminal.output.contains("Name\u{1B}"))
        #expect(terminal.output.contains("␛"))
    }

    /// Fails every request for one field, as a crashed cell host would report it.
    final class FailingDriver: CellDriver {
        let inner: InProcessCells
        let failing: String
        init(_ inner: InProcessCells, failing: String) {
            self.inner = inner
            self.failing = failing
        }
        func perform(_ requests: [CellRequest]) throws(RuntimeError) -> [CellResponse] {
            let answers = try inner.perform(requests)
            return zip(requests, answers).map { request, answer in
                request.fieldID == failing
                    ? CellResponse(
                        failure: RuntimeError(
                            cellID: request.cell.id, fieldID: request.fieldID, packPath: "x.so", message: "crashed (SIGSEGV) in render"))
                    : answer
            }
        }
        func drain() { inner.drain() }
    }

    @Test("a failing cell costs its picture, never the answers: its field is typed as plain text")
    func failingCell() throws {
        let form = try FormDecoder.load(path: "\(Source.root)/Examples/Forms/login.yaml", registry: registry)
        let keys: [Key] = typing("ada@example.com") + [.tab] + typing("secret99") + [.tab, .tab, .tab, .tab, .enter, .enter]
        let terminal = ScriptedKeys(keys)
        let session = TerminalFormSession(
            form: form, terminal: terminal, driver: FailingDriver(InProcessCells(registry: registry), failing: "password"))
        let filled = try session.run()
        #expect(terminal.output.contains("the cell failed (crashed (SIGSEGV) in render); type the value as text"))
        #expect(filled.sections[0].fields[1].model["value"] == .string("secret99"))
        #expect(filled.sections[0].fields[0].model["value"] == .string("ada@example.com"))
    }

    /// A small deterministic generator (SplitMix64), so that a failing stream can be replayed.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test("random key streams on every example form, at sizes down to 1×1: no trap, the screen always fits the terminal")
    func randomKeys() throws {
        let alphabet: [Key] =
            [
                .enter, .tab, .backTab, .up, .down, .left, .right, .home, .end, .pageUp, .pageDown, .wordLeft, .wordRight,
                .backspace, .delete, .control("k"), .control("u"), .control("w"), .control("a"), .control("e"),
                .character(" "), .character("y"), .character("n"), .character("7"), .character("-"), .character("."),
                .character("a"), .character("Z"), .character("日"), .character("\u{1F600}"), .paste("pasted\ntext\u{1B}[2J"),
                .paste(String(repeating: "x", count: 300)),
            ]
        let sizes = [(100, 40), (40, 10), (12, 4), (1, 1), (200, 3)]
        let forms = try FileManager.default.contentsOfDirectory(atPath: "\(Source.root)/Examples/Forms").sorted()
        for (n, name) in forms.enumerated() {
            var random = SplitMix(state: UInt64(n) &* 7919 &+ 1)
            var (session, terminal) = try makeSession(name, [])
            session.start()
            for step in 0..<600 {
                var key = alphabet[Int(random.next() % UInt64(alphabet.count))]
                if random.next() % 50 == 0 {
                    terminal.size = sizes[Int(random.next() % UInt64(sizes.count))]
                    key = .resize
                }
                do {
                    if try session.handle(key) { (session, terminal) = try makeSession(name, []); session.start() }
                } catch {
                    // Cancelled (Esc, a cancel button): start again.
                    (session, terminal) = try makeSession(name, [])
                    session.start()
                }
                #expect(session.screen.count == max(1, terminal.size.rows), "\(name), key \(step): \(session.screen.count) rows")
            }
        }
    }
}
