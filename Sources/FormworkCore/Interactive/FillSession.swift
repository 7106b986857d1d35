import Glibc

/// Where a fill session reads answers and writes prompts.
public protocol FillTerminal: AnyObject {
    /// One line without its newline, or nil at the end of input. With `secure`,
    /// what is typed is not echoed (the session prints a mask afterwards).
    func readLine(secure: Bool) -> String?
    /// Prompts, hints and errors (standard error for the command: standard output carries the values).
    func write(_ text: String)
}

/// How prompts look.
public struct FillOptions: Sendable {
    /// Plain sentences for screen readers: no symbols, no colour, every trait spelled out.
    public var accessible: Bool
    /// ANSI colour in prompts (only on a terminal, never with NO_COLOR).
    public var color: Bool

    public init(accessible: Bool = false, color: Bool = false) {
        self.accessible = accessible
        self.color = color
    }
}

/// Why a fill session stopped before the end.
public enum FillError: Error, Sendable, CustomStringConvertible {
    /// The input ended (Ctrl-D, or an answers file too short) at this field.
    case inputEnded(fieldID: String)
    case runtime(RuntimeError)
    /// The user cancelled (Esc or Ctrl-C in the terminal form).
    case cancelled

    public var description: String {
        switch self {
        case .cancelled: "cancelled; nothing was written"
        case .inputEnded(let id): "the answers ended at field '\(id)'; nothing was written"
        case .runtime(let error): error.description
        }
    }
}

/// Fills a form field by field: each fillable field is rendered through its
/// cell to find its label, placeholder and choices; the answer is parsed for
/// the field's type, shaped by its text-input traits (capitalisation, keyboard
/// filtering, secure entry), checked against the schema, the date bounds and the
/// cell's `value_changed`, and asked again until it is acceptable.
public final class FillSession {
    public private(set) var form: Form
    let terminal: FillTerminal
    let options: FillOptions
    private let runtime: FormRuntime

    /// A session over `form` whose cells run through `driver`.
    public init(form: Form, terminal: FillTerminal, options: FillOptions = FillOptions(), driver: any CellDriver) {
        self.form = form
        self.terminal = terminal
        self.options = options
        self.runtime = FormRuntime(driver: driver)
    }

    /// The fields that hold a value, in form order.
    public var fillable: [(section: Int, field: Int)] {
        form.sections.indices.flatMap { s in
            form.sections[s].fields.indices.compactMap { f -> (Int, Int)? in
                let field = form.sections[s].fields[f]
                guard let name = field.valueField, field.cell.field(named: name) != nil else { return nil }
                return (s, f)
            }
        }
    }

    /// Asks for every fillable field; returns the form with the answers as its values.
    public func run() throws(FillError) -> Form {
        let order = fillable
        if let title = form.title.map({ TerminalText.safe($0) }) {
            say(options.accessible ? loc("Form: {0}. {1} fields to fill.", title, order.count) : style(title, "1"))
        }
        if form.pages.isEmpty {
            for s in form.sections.indices { try askSection(s, order) }
        } else {
            try runPages(order)
        }
        form.recompute()
        say(options.accessible ? loc("Done. {0} fields filled.", order.count) : style(loc("✓ {0} fields filled", order.count), "32"))
        runtime.drain()
        return form
    }

    /// The fields of section `s`; a repeatable group item by item, then "Add another?" up to its maximum
    /// (items below its minimum are added without asking).
    func askSection(_ s: Int, _ order: [(Int, Int)]) throws(FillError) {
        let total = order.count
        func number(_ f: Int) -> Int { (order.firstIndex { $0.0 == s && $0.1 == f } ?? order.count - 1) + 1 }
        guard let group = form.sections[s].repeatGroup else {
            for (n, (sec, f)) in order.enumerated() where sec == s { try ask(section: s, field: f, number: n + 1, of: total) }
            return
        }
        let width = form.sections[s].template.count
        var index = 0
        while true {
            if index >= form.sections[s].itemCount {
                let count = form.sections[s].itemCount
                if count >= group.maxItems { break }
                if count >= group.minItems {
                    let label = TerminalText.safe(group.itemLabel.lowercased())
                    var add: Bool?
                    while add == nil {
                        terminal.write(
                            options.accessible
                                ? loc("Add another {0}? Type yes or no: ", label) : loc("Add another {0}? (y/n) [n] › ", label))
                        guard let answer = terminal.readLine(secure: false) else { throw .inputEnded(fieldID: form.sections[s].id) }
                        switch answer.trimmingBlanks().lowercased() {
                        case let word where word.isEmpty || AnswerShaping.isNo(word): add = false
                        case let word where AnswerShaping.isYes(word): add = true
                        default: complain(loc("Answer y or n."))
                        }
                    }
                    if add == false { break }
                }
                form.sections[s].fields += form.sections[s].item(count)
            }
            say("")
            say(options.accessible ? "\(group.itemLabel) \(index + 1)." : style("\(TerminalText.safe(group.itemLabel)) \(index + 1)", "1"))
            for f in (index * width)..<((index + 1) * width) { try ask(section: s, field: f, number: number(f % width), of: total) }
            index += 1
        }
    }

    /// Page by page; after every page but the first, Enter goes on and `back` returns to the previous page
    /// (its answers are kept and shown as the current values). A page whose sections are all hidden by the
    /// answers so far is skipped, and pages are counted among those shown.
    func runPages(_ order: [(Int, Int)]) throws(FillError) {
        var p = 0
        // The pages answered before this one, for `back`.
        var trail: [Int] = []
        while p < form.pages.count {
            var shown = form.shownPages(form.hasConditions ? form.states() : [:])
            guard shown.contains(p) else {
                p += 1
                continue
            }
            let page = form.pages[p]
            let heading =
                page.title.map {
                    loc("{0}: {1}", loc("Page {0} of {1}", (shown.firstIndex(of: p) ?? 0) + 1, shown.count), TerminalText.safe($0))
                }
                ?? loc("Page {0} of {1}", (shown.firstIndex(of: p) ?? 0) + 1, shown.count)
            say("")
            say(options.accessible ? heading + "." : style(heading, "1"))
            for s in page.sections { try askSection(s, order) }
            guard let before = trail.last else {
                trail.append(p)
                p += 1
                continue
            }
            // The answers on this page may show or hide later pages.
            shown = form.shownPages(form.hasConditions ? form.states() : [:])
            let last = shown.last.map { $0 <= p } ?? true
            let count = max(shown.count, 1)
            let backNumber = (shown.firstIndex(of: before) ?? 0) + 1
            while true {
                terminal.write(
                    (last ? loc("Enter to finish") : loc("Enter for the next page"))
                        + loc(", or 'back' for page {0} of {1}: ", backNumber, count))
                guard let answer = terminal.readLine(secure: false) else { throw .inputEnded(fieldID: "page '\(page.id)'") }
                let word = answer.trimmingBlanks().lowercased()
                if word.isEmpty {
                    trail.append(p)
                    p += 1
                } else if word == "back" || word == "b" {
                    p = trail.removeLast()
                } else {
                    complain(loc("Press Enter to go on, or type back."))
                    continue
                }
                break
            }
        }
    }

    // MARK: one field

    func ask(section s: Int, field f: Int, number: Int, of total: Int) throws(FillError) {
        var field = form.sections[s].fields[f]
        guard let name = field.valueField, let schema = field.cell.field(named: name) else { return }
        // Conditions are live: a field appears when its condition becomes true through earlier answers.
        let state =
            form.hasConditions ? (form.states()[field.id] ?? FieldState(required: field.required)) : FieldState(required: field.required)
        // A hidden field submits the document's (or its computed) value: nothing to ask.
        guard state.visible, !field.conditions.hidden else { return }
        if field.conditions.readOnly && field.conditions.value == nil {
            // The document's value, submitted as it is: shown, not asked.
            let shown = field.model[name].map(Condition.text) ?? "no value"
            let line = TerminalText.safe("\(form.displayLabel(field)): \(shown)")
            say(options.accessible ? "\(line) (read-only)." : style("[\(number)/\(total)] \(line) (read-only)", "2"))
            return
        }
        if field.conditions.value != nil {
            // Computed from the answers so far: shown, not asked.
            form.recompute()
            let made = form.sections[s].fields[f].model[name].map(Condition.text) ?? loc("no value yet")
            let line = TerminalText.safe("\(form.displayLabel(field)): \(made)")
            say(options.accessible ? "\(line) (computed)." : style("[\(number)/\(total)] \(line) (computed)", "2"))
            return
        }
        field.required = state.required
        let view: FieldView
        do { view = try runtime.render(field) } catch {
            // A cell that fails (or crashes in its child process) costs its picture, never the answers so far:
            // the field is still asked for, and the host's own checks still apply.
            say(
                (options.accessible ? loc("Warning: ") : style("⚠ ", "33"))
                    + TerminalText.safe(loc("the cell of '{0}' failed ({1}); answer it as plain text", field.id, error.message)))
            view = FieldView(
                id: field.id, cell: field.cell.id, accessibilityId: field.accessibilityId, required: field.required,
                textInput: field.textInput, nodes: [], valueField: field.valueField, rules: field.rules)
        }
        var shown = view
        if !state.enabled { FormRuntime.apply(state, to: &shown) }
        let prompt = Prompt(field: field, schema: schema, view: shown)
        say("")
        if prompt.disabled {
            let shown = prompt.current.map { AnswerShaping.show($0, prompt) } ?? (options.accessible ? "empty" : "—")
            say(
                options.accessible
                    ? loc("Field {0} of {1}: {2}: {3}. Read-only, skipped.", number, total, prompt.label, shown)
                    : style("[\(number)/\(total)] ", "2") + style(prompt.label, "1") + "  \(shown) " + style(loc("(read-only)"), "2"))
            return
        }
        say(header(prompt, number: number, of: total))
        for line in details(prompt) { say(line) }
        while true {
            let answer: String?
            if prompt.isMultiline {
                answer = readText(prompt)
            } else {
                terminal.write(question(prompt))
                answer = terminal.readLine(secure: prompt.secure)
                if prompt.secure, let answer {
                    // Nothing was echoed: end the prompt line with a mask of the right length.
                    terminal.write(
                        (answer.isEmpty ? "" : options.accessible ? loc("(hidden)") : String(repeating: "•", count: answer.count)) + "\n")
                }
            }
            guard let answer else { throw .inputEnded(fieldID: field.id) }
            switch AnswerShaping.interpret(answer, prompt) {
            case .keep:
                if field.required && prompt.current == nil {
                    complain(field.rules.required ?? loc("{0} is required.", prompt.label))
                    continue
                }
                return
            case .problem(let text):
                complain(text)
            case .value(let value):
                if let problem = check(value, prompt, section: s, field: f) {
                    complain(problem)
                    continue
                }
                form.sections[s].fields[f].model[name] = value
                return
            case .clear:
                if field.required || schema.required {
                    complain(loc("{0} is required; it cannot be cleared.", prompt.label))
                    continue
                }
                form.sections[s].fields[f].model[name] = nil
                return
            }
        }
    }

    /// The schema, the rules, the date bounds and the cell's `value_changed`, in that order.
    func check(_ value: Value, _ p: Prompt, section s: Int, field f: Int) -> String? {
        FieldCheck.problem(value, p, in: form, section: s, field: f, runtime: runtime) {
            say((options.accessible ? loc("Warning: ") : style("⚠ ", "33")) + $0)
        }
    }

    func readText(_ p: Prompt) -> String? {
        terminal.write(
            options.accessible
                ? loc("Type the text. A line with a single full stop ends it; an empty first line keeps the current text.\n")
                : style(loc("  (end with a line containing only .; Enter alone keeps the current text)\n"), "2"))
        var lines: [String] = []
        while true {
            terminal.write(lines.isEmpty ? question(p) : "  … ")
            guard let line = terminal.readLine(secure: false) else { return lines.isEmpty ? nil : lines.joined(separator: "\n") }
            if lines.isEmpty && line.isEmpty { return "" }
            if line == "." { return lines.joined(separator: "\n") }
            lines.append(line)
        }
    }

    // MARK: wording

    func header(_ p: Prompt, number: Int, of total: Int) -> String {
        if options.accessible {
            var parts = [loc("Field {0} of {1}: {2}.", number, total, p.label)]
            if p.required { parts.append(loc("Required.")) }
            return parts.joined(separator: " ")
        }
        return style("[\(number)/\(total)] ", "2") + style(p.label, "1") + (p.required ? style(" *", "31") : "")
    }

    func details(_ p: Prompt) -> [String] {
        var lines: [String] = []
        let a = options.accessible
        if let hint = p.hint.map(RichText.plain) { lines.append(a ? loc("Hint: {0}", hint) : style("  \(hint)", "2")) }
        if let error = p.error { lines.append(a ? loc("Note: {0}", error) : style("  ! \(error)", "31")) }
        if p.secure { lines.append(a ? loc("Secure entry: what you type is not shown.") : style(loc("  (hidden as you type)"), "2")) }
        if let kind = AnswerShaping.keyboardWords(p.traits.keyboard) {
            lines.append(a ? loc("Expected: {0}.", kind) : style("  (\(kind))", "2"))
        }
        if !p.traits.suggestions.isEmpty {
            // The first few, as the page's list shows them; any text is still taken.
            let shown = p.traits.suggestions.prefix(8).map { TerminalText.safe($0) }.joined(separator: ", ")
            let more = p.traits.suggestions.count > 8 ? ", …" : ""
            lines.append(
                a ? loc("Suggestions: {0}{1}. Any text is accepted.", shown, more) : style(loc("  suggestions: {0}{1}", shown, more), "2"))
        }
        switch p.type {
        case .choice, .stringList, .choiceList:
            let list = p.choices.enumerated().map { "\($0.offset + 1) \($0.element.label)" }
            let several = p.type == .choiceList
            lines.append(
                a
                    ? loc("Choices: ") + list.joined(separator: ", ")
                        + (several ? loc(". Answer with numbers or names separated by commas.") : loc(". Answer with a number or a name."))
                    : "  " + list.map { style($0, "36") }.joined(separator: "   ") + (several ? style(loc("  (several: 1, 3)"), "2") : ""))
        case .bool:
            lines.append(a ? loc("Answer yes or no.") : style(loc("  (y/n)"), "2"))
        case .date:
            var text =
                switch p.dateMode {
                case .time, .countdown: loc("a time such as 09:30")
                case .dateAndTime, .default: loc("a date and time such as 2026-11-21T09:30:00Z")
                case .date: loc("a date such as 2026-11-21")
                }
            if p.minimum != nil || p.maximum != nil {
                text += loc(
                    ", from {0} to {1}", p.minimum.map(DateFormat.iso8601) ?? loc("any date"),
                    p.maximum.map(DateFormat.iso8601) ?? loc("any date"))
            }
            lines.append(a ? loc("Write {0}.", text) : style("  (\(text))", "2"))
        default: break
        }
        if !p.required && !p.isMultiline && p.current != nil {
            lines.append(a ? loc("A single minus sign clears the value.") : style(loc("  (- clears)"), "2"))
        }
        return lines
    }

    func question(_ p: Prompt) -> String {
        var current = ""
        if let value = p.current {
            let shown = p.secure ? (options.accessible ? "hidden" : "••••") : AnswerShaping.show(value, p)
            current = options.accessible ? loc("Current value: {0}. ", shown) : style("[\(shown)] ", "2")
        } else if let placeholder = p.placeholder {
            current = options.accessible ? loc("For example: {0}. ", placeholder) : style("‹\(placeholder)› ", "2")
        }
        let key = AnswerShaping.returnKeyWords(p.traits.returnKey)
        if options.accessible { return current + loc("Your answer, then Enter to {0}: ", key) }
        return "  " + current + style("›", "1") + " "
    }

    func complain(_ text: String) {
        let text = TerminalText.safe(text)
        say(options.accessible ? loc("Not accepted: {0}", text) : style("  ! \(text)", "31"))
    }

    func say(_ text: String) { terminal.write(text + "\n") }

    func style(_ text: String, _ code: String) -> String {
        options.color && !options.accessible ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
