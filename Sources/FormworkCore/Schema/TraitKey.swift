/// The text-input trait vocabulary, once: the name each trait has in documents,
/// in every JSON output and in the JSON Schema; the kinds a document may set it
/// for; how its value is read, written and described. The decoder, `DocumentSchema`,
/// the JSON view tree and `inspect` all read this table (and a test checks that
/// docs/forms.md names every document key).
public struct TraitKey: @unchecked Sendable {
    /// The name in documents and JSON (`secure`, `datePickerMode`, …).
    public let name: String
    /// The kinds a document may set it for; empty for traits only a pack declares.
    public let kinds: [TextInputKind]
    fileprivate let codec: Codec
    /// The values of a `choice` trait (empty for the others).
    fileprivate let names: [String]
    /// Accessors, as closures that capture nothing (a function each, made at compile time): key
    /// paths are instantiated at run time when the table is first read, in every process that reads it (a
    /// cell host validating its packs).
    /// Kept as plain optional properties rather than enum payloads, so that the table's references
    /// stay visible to LeakSanitizer (a multi-payload enum hides tag bits in them).
    fileprivate let getBool: (@Sendable (TextInputTraits) -> Bool?)?
    fileprivate let setBool: (@Sendable (inout TextInputTraits, Bool) -> Void)?
    /// A `fieldName` trait's value, or a `choice` trait's value's name.
    fileprivate let get: (@Sendable (TextInputTraits) -> String?)?
    /// Sets a `choice` trait from its value's name; false when the name is not one of its values.
    fileprivate let set: (@Sendable (inout TextInputTraits, String) -> Bool)?

    fileprivate enum Codec: Sendable { case bool, choice, contentType, dataDetectors, fieldName, rows, suggestions }

    /// The most suggestions a field may offer, and the longest one (a document's list becomes a page's `datalist`).
    static let maxSuggestions = 1000
    static let maxSuggestionLength = 200

    fileprivate init(
        name: String, kinds: [TextInputKind], codec: Codec, names: [String] = [],
        getBool: (@Sendable (TextInputTraits) -> Bool?)? = nil,
        setBool: (@Sendable (inout TextInputTraits, Bool) -> Void)? = nil,
        get: (@Sendable (TextInputTraits) -> String?)? = nil,
        set: (@Sendable (inout TextInputTraits, String) -> Bool)? = nil
    ) {
        self.name = name
        self.kinds = kinds
        self.codec = codec
        self.names = names
        self.getBool = getBool
        self.setBool = setBool
        self.get = get
        self.set = set
    }

    /// Whether a document may set it at all.
    public var isDocumentKey: Bool { !kinds.isEmpty }

    // MARK: the table (this order is the order of every JSON output)

    private static let textKinds: [TextInputKind] = [.textField, .textView]

    public static let all: [TraitKey] = [
        choice("autocapitalization", textKinds, { $0.autocapitalization }, { $0.autocapitalization = $1 }),
        bool("autocorrection", textKinds, { $0.autocorrection }, { $0.autocorrection = $1 }),
        bool("spellChecking", textKinds, { $0.spellChecking }, { $0.spellChecking = $1 }),
        bool("smartDashes", textKinds, { $0.smartDashes }, { $0.smartDashes = $1 }),
        bool("smartQuotes", textKinds, { $0.smartQuotes }, { $0.smartQuotes = $1 }),
        bool("smartInsertDelete", textKinds, { $0.smartInsertDelete }, { $0.smartInsertDelete = $1 }),
        choice("keyboard", textKinds, { $0.keyboard }, { $0.keyboard = $1 }),
        choice("keyboardAppearance", textKinds, { $0.keyboardAppearance }, { $0.keyboardAppearance = $1 }),
        choice("returnKey", textKinds, { $0.returnKey }, { $0.returnKey = $1 }),
        choice("clearButton", [.textField], { $0.clearButton }, { $0.clearButton = $1 }),
        bool("secure", [.textField], { $0.secureEntry }, { $0.secureEntry = $1 }),
        TraitKey(name: "contentType", kinds: textKinds, codec: .contentType),
        TraitKey(name: "dataDetectors", kinds: [.textView], codec: .dataDetectors),
        bool("selectable", [.textView], { $0.selectable }, { $0.selectable = $1 }),
        choice("datePickerMode", [.datePicker], { $0.dateMode }, { $0.dateMode = $1 }),
        TraitKey(name: "rows", kinds: [.textView], codec: .rows),
        TraitKey(name: "suggestions", kinds: [.textField], codec: .suggestions),
        bool("autofocus", textKinds, { $0.autofocus }, { $0.autofocus = $1 }),
        TraitKey(name: "minimumField", kinds: [], codec: .fieldName, get: { $0.minimumField }),
        TraitKey(name: "maximumField", kinds: [], codec: .fieldName, get: { $0.maximumField }),
    ]

    private static let byName: [String: TraitKey] = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })

    public static func named(_ name: String) -> TraitKey? { byName[name] }

    /// Every key a document may use, in table order.
    public static let documentKeys: [String] = all.filter { $0.isDocumentKey }.map { $0.name }

    /// The keys a document may set for a cell of `kind`, in table order.
    public static func documentKeys(for kind: TextInputKind) -> [String] {
        all.filter { $0.kinds.contains(kind) }.map { $0.name }
    }

    private static func bool(
        _ name: String, _ kinds: [TextInputKind], _ get: @escaping @Sendable (TextInputTraits) -> Bool?,
        _ set: @escaping @Sendable (inout TextInputTraits, Bool) -> Void
    ) -> TraitKey {
        TraitKey(name: name, kinds: kinds, codec: .bool, getBool: get, setBool: set)
    }

    private static func choice<E: RawRepresentable & CaseIterable & Sendable>(
        _ name: String, _ kinds: [TextInputKind], _ get: @escaping @Sendable (TextInputTraits) -> E?,
        _ set: @escaping @Sendable (inout TextInputTraits, E) -> Void
    ) -> TraitKey where E.RawValue == String {
        TraitKey(
            name: name, kinds: kinds, codec: .choice, names: E.allCases.map { $0.rawValue },
            get: { get($0)?.rawValue },
            set: { traits, text in
                guard let value = E(rawValue: text) else { return false }
                set(&traits, value)
                return true
            })
    }

    // MARK: reading and writing

    /// The trait's value in `traits` as JSON; nil when it is the platform default.
    package func json(in traits: TextInputTraits) -> JSON? {
        switch codec {
        case .bool: getBool!(traits).map(JSON.bool)
        case .choice: get!(traits).map(JSON.string)
        case .contentType: traits.contentType.map(JSON.string)
        case .dataDetectors: traits.dataDetectors.isEmpty ? nil : .array(traits.dataDetectors.map { .string($0.rawValue) })
        case .fieldName: get!(traits).map(JSON.string)
        case .rows: traits.rows.map { .integer(Int64($0)) }
        case .suggestions: traits.suggestions.isEmpty ? nil : .array(traits.suggestions.map(JSON.string))
        }
    }

    /// Every trait that is not the platform default, as a JSON object in table order.
    package static func json(_ traits: TextInputTraits) -> JSON {
        .object(all.map { ($0.name, $0.json(in: traits)) })
    }

    /// Applies a document's value for this trait; returns the problem, or nil when applied.
    func apply(_ node: SourceNode, to traits: inout TextInputTraits) -> String? {
        switch codec {
        case .bool:
            guard case .bool(let b) = node.kind else { return "'\(name)' must be true or false" }
            setBool!(&traits, b)
            return nil
        case .choice:
            guard let s = node.string else { return "'\(name)' must be one of \(names.joined(separator: ", "))" }
            if set!(&traits, s) { return nil }
            var message = "'\(s)' is not a valid \(name)"
            if let suggestion = EditDistance.suggestion(for: s, in: names) {
                message += "; did you mean '\(suggestion)'?"
            } else {
                message += "; use one of \(names.joined(separator: ", "))"
            }
            return message
        case .contentType:
            guard let s = node.string, !s.isEmpty, s.count <= 64 else {
                return "'contentType' must be a short string such as \"username\" or \"email\""
            }
            traits.contentType = s
            return nil
        case .dataDetectors:
            let names = DataDetector.allCases.map(\.rawValue).joined(separator: ", ")
            guard case .array(let items) = node.kind else { return "'dataDetectors' must be a list of \(names)" }
            var detectors: [DataDetector] = []
            for item in items {
                guard let s = item.string, let d = DataDetector(rawValue: s) else {
                    return "\(item.json.serialized(pretty: false)) is not a data detector; use \(names)"
                }
                if !detectors.contains(d) { detectors.append(d) }
            }
            traits.dataDetectors = detectors
            return nil
        case .fieldName:
            return "'\(name)' is declared by the cell's pack, not by a document"
        case .rows:
            guard case .integer(let n) = node.kind, (1...50).contains(n) else { return "'rows' must be a whole number from 1 to 50" }
            traits.rows = Int(n)
            return nil
        case .suggestions:
            guard case .array(let items) = node.kind, items.count <= Self.maxSuggestions else {
                return "'suggestions' must be a list of at most \(Self.maxSuggestions) texts"
            }
            var out: [String] = []
            for item in items {
                guard let s = item.string, !s.isEmpty, s.count <= Self.maxSuggestionLength else {
                    return
                        "\(item.json.serialized(pretty: false)) is not a suggestion; use texts of 1 to \(Self.maxSuggestionLength) characters"
                }
                if !out.contains(s) { out.append(s) }
            }
            traits.suggestions = out
            return nil
        }
    }

    /// The JSON Schema of the document value: the same values `apply` accepts.
    var jsonSchema: JSON {
        switch codec {
        case .bool: .object([("type", .string("boolean"))])
        case .choice: .object([("enum", .array(names.map(JSON.string)))])
        case .contentType: .object([("type", .string("string")), ("minLength", .integer(1)), ("maxLength", .integer(64))])
        case .dataDetectors:
            .object([
                ("type", .string("array")), ("items", .object([("enum", .array(DataDetector.allCases.map { .string($0.rawValue) }))])),
                ("uniqueItems", .bool(true)),
            ])
        case .fieldName: .object([("type", .string("string"))])
        case .rows: .object([("type", .string("integer")), ("minimum", .integer(1)), ("maximum", .integer(50))])
        case .suggestions:
            .object([
                ("type", .string("array")), ("maxItems", .integer(Int64(Self.maxSuggestions))),
                (
                    "items",
                    .object([
                        ("type", .string("string")), ("minLength", .integer(1)), ("maxLength", .integer(Int64(Self.maxSuggestionLength))),
                    ])
                ),
            ])
        }
    }
}
