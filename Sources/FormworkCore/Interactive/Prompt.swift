import Glibc

/// What the session knows about the field it asks for: from the schema, the
/// document's traits and the cell's own rendering (its label, placeholder, choices).
struct Prompt {
    let schema: FieldSchema
    let type: FieldType
    let label: String
    let required: Bool
    let placeholder: String?
    let hint: String?
    let error: String?
    let choices: [Choice]
    let traits: TextInputTraits
    let current: Value?
    let secure: Bool
    let isMultiline: Bool
    let dateMode: DatePickerMode
    let minimum: Double?
    let maximum: Double?
    /// The cell draws its value control disabled: shown, never asked.
    let disabled: Bool
    /// A file field: the answer is a path, kept absolute (a values file's paths are read relative to it).
    let upload: FileUpload?
    /// An address, a name to sign in with, a path: typed text is kept as typed, whatever capitalisation the cell
    /// asks for (`sentences` made `ada@example.com` into `Ada@example.Com`).
    let keepsCase: Bool

    var currentDate: Double? { if case .number(let d)? = current { d } else { nil } }

    init(field: FormField, schema: FieldSchema, view: FieldView) {
        self.schema = schema
        traits = field.textInput.traits
        current = field.model[schema.name]
        var label =
            field.cell.roles.title.flatMap { field.model[$0] }.flatMap { if case .string(let s) = $0 { s } else { nil } } ?? schema.label
        var placeholder: String?
        var choices = schema.choices
        var multiline = schema.type == .text
        var mode = traits.dateMode ?? .date
        var hints: [String] = [], errors: [String] = []
        var disabled = false
        func visit(_ nodes: [ViewNode]) {
            for node in nodes {
                switch node {
                case .group(_, _, let children): visit(children)
                case .textInput(let c, _, let p) where c.field == schema.name:
                    disabled = disabled || c.disabled
                    if let l = c.label, !l.isEmpty { label = l }
                    placeholder = p
                    multiline = multiline || c.multiline
                case .choice(let c, let list, _, _) where c.field == schema.name:
                    disabled = disabled || c.disabled
                    if let l = c.label, !l.isEmpty { label = l }
                    choices = list
                case .toggle(let c, _) where c.field == schema.name:
                    disabled = disabled || c.disabled
                    if let l = c.label, !l.isEmpty { label = l }
                case .number(let c, _, _, _, _, _) where c.field == schema.name:
                    disabled = disabled || c.disabled
                    if let l = c.label, !l.isEmpty { label = l }
                case .multiChoice(let c, let list, _, _) where c.field == schema.name:
                    disabled = disabled || c.disabled
                    if let l = c.label, !l.isEmpty { label = l }
                    choices = list
                case .date(let c, _, let m) where c.field == schema.name:
                    disabled = disabled || c.disabled
                    if let l = c.label, !l.isEmpty { label = l }
                    if m != .default { mode = m }
                case .message(.hint, let text): hints.append(text)
                case .message(.error, let text): errors.append(text)
                default: break
                }
            }
        }
        visit(view.nodes)
        if let options = schema.optionsField, case .stringList(let items)? = field.model[options], choices.isEmpty {
            choices = items.map { Choice(value: $0, label: $0) }
        }
        // A string field with options is answered like a choice.
        type =
            schema.optionsField == nil
            ? schema.type : schema.type == .string ? .choice : schema.type == .stringList ? .choiceList : schema.type
        // Everything shown from the document or the cell is terminal-safe; the session adds its own styles.
        self.label = TerminalText.safe(label)
        self.placeholder = placeholder.map { TerminalText.safe($0) }
        self.choices = choices.map { Choice(value: $0.value, label: TerminalText.safe($0.label)) }
        hint = hints.isEmpty ? nil : TerminalText.safe(hints.joined(separator: " "))
        error = errors.isEmpty ? nil : TerminalText.safe(errors.joined(separator: " "))
        required = field.required
        secure = traits.secureEntry == true
        isMultiline = multiline && !secure
        dateMode = mode
        minimum = view.minimum
        maximum = view.maximum
        self.disabled = disabled
        upload = field.rules.upload
        let literalFormats: [FieldRules.Format] = [.email, .url, .uri, .uuid]
        let literalContent: Set<String> = ["emailAddress", "URL", "username", "password", "newPassword", "oneTimeCode"]
        keepsCase =
            upload != nil || traits.keyboard == .email || traits.keyboard == .url
            || field.rules.format.map { literalFormats.contains($0.value) } == true
            || traits.contentType.map { literalContent.contains($0) } == true
    }
}

/// Turning typed text into values the way the traits ask.
enum AnswerShaping {
    static func capitalize(_ text: String, _ mode: Autocapitalization?) -> String {
        switch mode {
        case .allCharacters?: return text.uppercased()
        case .words?:
            return text.split(separator: " ", omittingEmptySubsequences: false)
                .map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: " ")
        case .sentences?:
            var out = "", capitalizeNext = true
            for c in text {
                if capitalizeNext, c.isLetter { out += c.uppercased(); capitalizeNext = false } else { out.append(c) }
                if c == "." || c == "!" || c == "?" || c == "\n" { capitalizeNext = true }
            }
            return out
        default: return text
        }
    }

    /// The keyboard as a filter: what a phone's keyboard would not let you type is refused.
    static func filter(_ text: String, keyboard: KeyboardType?, label: String) -> String? {
        // Digits are any script's decimal digits (Unicode Nd), as a phone's keyboard offers them.
        func only(digitsAnd extra: String) -> Bool {
            text.unicodeScalars.allSatisfy { $0.properties.numericType == .decimal || extra.unicodeScalars.contains($0) }
        }
        switch keyboard {
        case .numberPad?: return only(digitsAnd: "") ? nil : loc("{0} takes digits only.", label)
        case .decimalPad?:
            return only(digitsAnd: ".,") ? nil : loc("{0} takes a number: digits and a decimal point.", label)
        case .phonePad?:
            return only(digitsAnd: "+-() *#")
                ? nil : loc("{0} takes a phone number: digits, spaces and + - ( ) * #.", label)
        case .email?: return text.contains(" ") ? loc("{0}: an e-mail address has no spaces.", label) : nil
        case .url?: return text.contains(" ") ? loc("{0}: a web address has no spaces.", label) : nil
        case .ascii?: return text.unicodeScalars.allSatisfy(\.isASCII) ? nil : loc("{0} takes ASCII characters only.", label)
        default: return nil
        }
    }

    static func keyboardWords(_ keyboard: KeyboardType?) -> String? {
        switch keyboard {
        case .numberPad?: "digits"
        case .decimalPad?: loc("a decimal number")
        case .phonePad?, .namePhonePad?: loc("a phone number")
        case .email?: loc("an e-mail address")
        case .url?: loc("a web address")
        default: nil
        }
    }

    static func returnKeyWords(_ key: ReturnKey?) -> String {
        switch key {
        case .go?: loc("go")
        case .done?: loc("finish")
        case .send?: loc("send")
        case .search?: loc("search")
        case .join?: loc("join")
        default: loc("continue")
        }
    }

    /// A 1-based number, a value or label (any case), or an unambiguous prefix.
    static func choose(_ text: String, from choices: [Choice]) -> String? {
        if let n = Int(text), n >= 1, n <= choices.count { return choices[n - 1].value }
        let lower = text.lowercased()
        if let exact = choices.first(where: { $0.value.lowercased() == lower || $0.label.lowercased() == lower }) { return exact.value }
        let matches = choices.filter { $0.label.lowercased().hasPrefix(lower) || $0.value.lowercased().hasPrefix(lower) }
        return matches.count == 1 ? matches[0].value : nil
    }

    /// "09:30" on the day of `base` (or 1970-01-01), UTC.
    static func time(_ text: String, on base: Double?) -> Double? {
        let parts = text.split(separator: ":")
        guard parts.count == 2 || parts.count == 3, let h = Int(parts[0]), let m = Int(parts[1]), (0..<24).contains(h), (0..<60).contains(m)
        else { return nil }
        let s = parts.count == 3 ? Int(parts[2]) ?? -1 : 0
        guard (0..<60).contains(s) else { return nil }
        let day = floor((base ?? 0) / 86_400) * 86_400
        return day + Double(h * 3600 + m * 60 + s)
    }

    static func show(_ value: Value, _ p: Prompt) -> String {
        TerminalText.safe(unsafeShow(value, p))
    }

    private static func unsafeShow(_ value: Value, _ p: Prompt) -> String {
        switch value {
        case .string(let s):
            if let label = p.choices.first(where: { $0.value == s })?.label { return label }
            let flat = s.replacing("\n", with: " ⏎ ")
            return flat.count > 40 ? String(flat.prefix(39)) + "…" : flat
        case .bool(let b): return b ? loc("yes") : loc("no")
        case .integer(let i): return String(i)
        case .number(let d):
            return p.type == .date ? DateText.format(d, mode: p.dateMode == .default ? .dateAndTime : p.dateMode) : NumberText.format(d)
        case .stringList(let items):
            return items.map { item in p.choices.first { $0.value == item }?.label ?? item }.joined(separator: ", ")
        }
    }
}
