import Synchronization

/// Validation rules a document declares for a field's value (`rules:` in a field),
/// each with an optional message of its own:
///
/// ```yaml
/// rules:
///   required: "Tell us your e-mail address."     # the message when a required value is missing
///   minLength: 3                                  # or { value: 3, message: "At least 3 letters." }
///   maxLength: 100
///   pattern: "[A-Z]{2}[0-9]{4}"                   # the whole value must match (as HTML's pattern)
///   format: email                                 # email, url, uri, tel, date, time, uuid
///   minimum: 0
///   maximum: 10
///   step: 0.5
///   minItems: 1
///   maxItems: 3
/// ```
///
/// They are checked by `validate` (document and values), shown by `render --values`
/// under the field, enforced by `fill`, carried to HTML (`minlength`, `pattern`,
/// `type=email`, `min`/`max`/`step`) and to the JSON view tree.
public struct FieldRules: Sendable, Equatable {
    /// A rule's value and its own message (nil: the standard wording).
    public struct Rule<T: Sendable & Equatable>: Sendable, Equatable {
        public let value: T
        public let message: String?
        public init(_ value: T, message: String? = nil) {
            self.value = value
            self.message = message
        }
    }

    /// Formats a string value can be required to have.
    public enum Format: String, Sendable, CaseIterable, Equatable {
        case email, url, tel, date, uuid
        /// Any absolute URI (`mailto:`, `tel:`, `urn:`, `ftp://` …): a scheme, a colon, no space.
        case uri
        /// A time of day, `09:30` or `09:30:15` (what an HTML time input posts).
        case time

        /// The browser's `pattern` that checks the same (nil: the browser's own type check, or none).
        var browserPattern: String? {
            switch self {
            case .url: "https?://.+"
            case .uri: "[A-Za-z][A-Za-z0-9+.\\-]*:\\S+"
            case .time: "([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9])?"
            default: nil
            }
        }
    }

    /// The rules themselves, out of line: every field and every view carries a `FieldRules`, and most
    /// have none — an empty array costs eight bytes and no allocation, where the rules inline were 240.
    struct Storage: Sendable, Equatable {
        var required: String?
        var minLength: Rule<Int>?
        var maxLength: Rule<Int>?
        var pattern: Rule<String>?
        var format: Rule<Format>?
        var minimum: Rule<Double>?
        var maximum: Rule<Double>?
        var step: Rule<Double>?
        var minItems: Rule<Int>?
        var maxItems: Rule<Int>?
        var upload: FileUpload?
    }

    private var storage: [Storage] = []

    private mutating func edit(_ change: (inout Storage) -> Void) {
        if storage.isEmpty { storage = [Storage()] }
        change(&storage[0])
    }

    public var required: String? {
        get { storage.first?.required ?? nil }
        set { edit { $0.required = newValue } }
    }
    public var minLength: Rule<Int>? {
        get { storage.first?.minLength ?? nil }
        set { edit { $0.minLength = newValue } }
    }
    public var maxLength: Rule<Int>? {
        get { storage.first?.maxLength ?? nil }
        set { edit { $0.maxLength = newValue } }
    }
    public var pattern: Rule<String>? {
        get { storage.first?.pattern ?? nil }
        set { edit { $0.pattern = newValue } }
    }
    public var format: Rule<Format>? {
        get { storage.first?.format ?? nil }
        set { edit { $0.format = newValue } }
    }
    public var minimum: Rule<Double>? {
        get { storage.first?.minimum ?? nil }
        set { edit { $0.minimum = newValue } }
    }
    public var maximum: Rule<Double>? {
        get { storage.first?.maximum ?? nil }
        set { edit { $0.maximum = newValue } }
    }
    public var step: Rule<Double>? {
        get { storage.first?.step ?? nil }
        set { edit { $0.step = newValue } }
    }
    public var minItems: Rule<Int>? {
        get { storage.first?.minItems ?? nil }
        set { edit { $0.minItems = newValue } }
    }
    public var maxItems: Rule<Int>? {
        get { storage.first?.maxItems ?? nil }
        set { edit { $0.maxItems = newValue } }
    }
    /// The field takes a file (the field's `file:` key, not a key of `rules:`): its value is the file's name.
    public var upload: FileUpload? {
        get { storage.first?.upload ?? nil }
        set { edit { $0.upload = newValue } }
    }

    public init() {}

    public static func == (a: FieldRules, b: FieldRules) -> Bool { (a.storage.first ?? Storage()) == (b.storage.first ?? Storage()) }

    /// The keys a document may use, in this order in every output.
    public static let keys = [
        "required", "minLength", "maxLength", "pattern", "format", "minimum", "maximum", "step", "minItems", "maxItems",
        // Across fields (Conditions/CrossFieldRule): decoded once every field is known.
        "equals", "expression",
    ]

    public var isEmpty: Bool { storage.isEmpty || storage[0] == Storage() }

    /// Every rule `value` breaks, as messages for people (empty when it keeps them all).
    public func problems(_ value: Value, label: String) -> [String] {
        // "" is no value (what a browser submits for every empty input): rules speak about answers given; a
        // missing answer is the required rule's business.
        if case .string(let s) = value, s.isEmpty { return [] }
        var out: [String] = []
        func add<T>(_ rule: Rule<T>?, _ broken: (T) -> Bool, _ standard: (T) -> String) {
            guard let rule, broken(rule.value) else { return }
            out.append(rule.message ?? standard(rule.value))
        }
        switch value {
        case .string(let s):
            let length = s.unicodeScalars.count
            add(
                minLength, { length < $0 },
                { locPlural($0, one: "{0} needs at least {1} character.", other: "{0} needs at least {1} characters.", label, $0) })
            add(
                maxLength, { length > $0 },
                { locPlural($0, one: "{0} takes at most {1} character.", other: "{0} takes at most {1} characters.", label, $0) })
            add(pattern, { !Self.matches(s, pattern: $0) }, { _ in loc("{0} is not in the expected form.", label) })
            add(format, { !Self.isValid(s, as: $0) }, { loc("{0} must be {1}.", label, Self.describe($0)) })
        case .integer(let n):
            let d = Double(n)
            add(minimum, { d < $0 }, { loc("{0} must be {1} or more.", label, NumberText.format($0)) })
            add(maximum, { d > $0 }, { loc("{0} must be {1} or less.", label, NumberText.format($0)) })
            add(
                step, { !Self.isMultiple(d, of: $0, from: minimum?.value ?? 0) },
                { loc("{0} must be a multiple of {1}.", label, NumberText.format($0)) })
        case .number(let d):
            add(minimum, { d < $0 }, { loc("{0} must be {1} or more.", label, NumberText.format($0)) })
            add(maximum, { d > $0 }, { loc("{0} must be {1} or less.", label, NumberText.format($0)) })
            add(
                step, { !Self.isMultiple(d, of: $0, from: minimum?.value ?? 0) },
                { loc("{0} must be a multiple of {1}.", label, NumberText.format($0)) })
        case .stringList(let items):
            add(minItems, { items.count < $0 }, { loc("Choose at least {0} for {1}.", $0, label) })
            add(maxItems, { items.count > $0 }, { loc("Choose at most {0} for {1}.", $0, label) })
        case .bool:
            break
        }
        return out
    }

    static func isMultiple(_ value: Double, of step: Double, from base: Double) -> Bool {
        guard step > 0 else { return true }
        let steps = (value - base) / step
        return abs(steps - steps.rounded()) < 1e-9 * max(1, abs(steps))
    }

    /// The whole string matches `pattern` (`Pattern`'s dialect, anchored like HTML's `pattern`), in time linear in
    /// the string's length. A pattern is compiled once (the last few are kept).
    static func matches(_ s: String, pattern: String) -> Bool {
        guard let compiled = PatternCache.compiled(pattern) else { return false }
        return compiled.matchesWhole(s)
    }

    static func describe(_ format: Format) -> String {
        switch format {
        case .email: loc("an e-mail address such as name@example.com")
        case .url: loc("a web address starting with http:// or https://")
        case .tel: loc("a telephone number")
        case .date: loc("a date such as 2026-11-21")
        case .uuid: loc("a UUID")
        case .uri: loc("an address with a scheme, such as mailto:name@example.com or urn:isbn:0451450523")
        case .time: loc("a time of day such as 09:30")
        }
    }

    /// Deliberately simple checks that agree with HTML's `type=email` / `type=url` and the JSON Schema formats.
    static func isValid(_ s: String, as format: Format) -> Bool {
        switch format {
        case .email:
            let parts = s.split(separator: "@", omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), !parts[1].hasPrefix("."), !parts[1].hasSuffix(".") else {
                return false
            }
            return !s.unicodeScalars.contains { $0 == " " || $0.value < 0x21 }
        case .url:
            guard s.hasPrefix("http://") || s.hasPrefix("https://") else { return false }
            let rest = s.drop { $0 != "/" }.dropFirst(2)
            return !rest.isEmpty && !rest.hasPrefix("/") && !s.contains(" ")
        case .tel:
            let digits = s.unicodeScalars.filter { ("0"..."9").contains($0) }.count
            return digits >= 3 && s.unicodeScalars.allSatisfy { ("0"..."9").contains($0) || " +-().".unicodeScalars.contains($0) }
        case .date:
            return s.utf8.count == 10 && DateFormat.parse(s) != nil
        case .uri:
            // scheme ":" rest (RFC 3986): a letter, then letters, digits, '+', '-' or '.'; no space or control after.
            guard let colon = s.utf8.firstIndex(of: 0x3A), colon != s.utf8.startIndex else { return false }
            let scheme = s.utf8[..<colon], rest = s.utf8[s.utf8.index(after: colon)...]
            guard let first = scheme.first, (0x61...0x7A).contains(first | 0x20) else { return false }
            return scheme.allSatisfy {
                (0x30...0x39).contains($0) || (0x61...0x7A).contains($0 | 0x20) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E
            }
                && !rest.isEmpty && rest.allSatisfy { $0 > 0x20 && $0 != 0x7F }
        case .time:
            return (s.utf8.count == 5 || s.utf8.count == 8) && DateFormat.parse(s) != nil
        case .uuid:
            let hex = s.unicodeScalars.filter { $0 != "-" }
            let groups = s.split(separator: "-", omittingEmptySubsequences: false).map(\.count)
            return groups == [8, 4, 4, 4, 12] && hex.allSatisfy { $0.properties.isASCIIHexDigit }
        }
    }

    /// The rules as JSON (the view tree), in `keys` order.
    package var json: JSON {
        func rule<T>(_ r: Rule<T>?, _ value: (T) -> JSON) -> JSON? {
            guard let r else { return nil }
            guard let message = r.message else { return value(r.value) }
            return .object([("value", value(r.value)), ("message", .string(message))])
        }
        return .object([
            ("required", required.map(JSON.string)),
            ("minLength", rule(minLength) { .integer(Int64($0)) }), ("maxLength", rule(maxLength) { .integer(Int64($0)) }),
            ("pattern", rule(pattern) { .string($0) }), ("format", rule(format) { .string($0.rawValue) }),
            ("minimum", rule(minimum) { .number($0) }), ("maximum", rule(maximum) { .number($0) }), ("step", rule(step) { .number($0) }),
            ("minItems", rule(minItems) { .integer(Int64($0)) }), ("maxItems", rule(maxItems) { .integer(Int64($0)) }),
        ])
    }
}

/// The patterns compiled last, by their text: a form's fields repeat a few patterns over many values.
enum PatternCache {
    private static let cache = Mutex<[String: Pattern]>([:])

    static func compiled(_ pattern: String) -> Pattern? {
        if let found = cache.withLock({ $0[pattern] }) { return found }
        guard let compiled = try? Pattern(pattern) else { return nil }
        cache.withLock { table in
            if table.count >= 64 { table.removeAll() }
            table[pattern] = compiled
        }
        return compiled
    }
}
