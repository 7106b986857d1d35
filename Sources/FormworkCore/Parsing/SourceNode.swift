/// A node of a parsed document (JSON or YAML) with the line it started on.
struct SourceNode: Sendable {
    enum Kind: Sendable {
        case null
        case bool(Bool)
        case integer(Int64)
        case number(Double)
        case string(String)
        case array([SourceNode])
        case object([(key: String, value: SourceNode)])
    }

    /// A YAML plain scalar read as a boolean or a number, with its text (rare: held in a box of its own).
    private final class PlainScalar: Sendable {
        let kind: Kind
        let text: String
        init(kind: Kind, text: String) {
            self.kind = kind
            self.text = text
        }
    }

    /// Not `indirect`: arrays and objects are references already, so a node needs no box of its own
    /// (a box per node would be an allocation, and memory, per node). A plain scalar's text is in a
    /// case of its own, so a node is 24 bytes, not 40 (a large document holds millions of them).
    private enum Storage: Sendable {
        case kind(Kind)
        case plain(PlainScalar)
    }
    private var storage: Storage
    /// 1-based line, 0 when unknown: four bytes instead of an optional Int's sixteen.
    private var storedLine: UInt32

    var kind: Kind {
        get {
            switch storage {
            case .kind(let kind): kind
            case .plain(let plain): plain.kind
            }
        }
        set {
            storage = .kind(newValue)
            storedLine &= ~Self.plainFlag
        }
    }

    /// The text of a YAML plain scalar that was read as a boolean or a number
    /// (`On`, `Yes`, `1.0`): used where the schema wants a string.
    var plainText: String? {
        if case .plain(let plain) = storage { return plain.text }
        guard storedLine & Self.plainFlag != 0 else { return nil }
        return Self.canonicalText(kind)
    }

    /// Set in `storedLine` for a plain scalar whose text is its value's canonical text (`3`, `true`, `2.5`): the
    /// text is made again when asked for, and only other texts (`On`, `1e3`, `0x1F`) take a box.
    private static let plainFlag: UInt32 = 1 << 31

    private static func canonicalText(_ kind: Kind) -> String? {
        switch kind {
        case .bool(let b): b ? "true" : "false"
        case .integer(let i): String(i)
        case .number(let d): "\(d)"
        default: nil
        }
    }

    init(kind: Kind, line: Int?, plainText: String? = nil) {
        self.storedLine = line.map { UInt32(clamping: min($0, Int(Self.plainFlag - 1))) } ?? 0
        if let plainText {
            if plainText == Self.canonicalText(kind) {
                storage = .kind(kind)
                storedLine |= Self.plainFlag
            } else {
                storage = .plain(PlainScalar(kind: kind, text: plainText))
            }
        } else {
            storage = .kind(kind)
        }
    }

    /// 1-based line, when the parser knows it.
    var line: Int? {
        get { storedLine & ~Self.plainFlag == 0 ? nil : Int(storedLine & ~Self.plainFlag) }
        set {
            storedLine =
                (storedLine & Self.plainFlag) | (newValue.map { UInt32(clamping: min($0, Int(Self.plainFlag - 1))) } ?? 0)
        }
    }

    var typeName: String {
        switch kind {
        case .null: "null"
        case .bool: "a boolean"
        case .integer: "an integer"
        case .number: "a number"
        case .string: "a string"
        case .array: "a list"
        case .object: "an object"
        }
    }

    var string: String? {
        if case .string(let s) = kind { return s }
        return nil
    }

    var members: [(key: String, value: SourceNode)]? {
        if case .object(let m) = kind { return m }
        return nil
    }

    subscript(key: String) -> SourceNode? { members?.first { $0.key == key }?.value }

    /// A node made from JSON, with no position.
    init(_ json: JSON) {
        switch json {
        case .null: self.init(kind: .null, line: nil)
        case .bool(let b): self.init(kind: .bool(b), line: nil)
        case .integer(let i): self.init(kind: .integer(i), line: nil)
        case .number(let d): self.init(kind: .number(d), line: nil)
        case .string(let s): self.init(kind: .string(s), line: nil)
        case .array(let items): self.init(kind: .array(items.map(SourceNode.init)), line: nil)
        case .object(let members): self.init(kind: .object(members.map { ($0.0, SourceNode($0.1)) }), line: nil)
        }
    }

    /// Plain JSON (positions dropped).
    var json: JSON {
        switch kind {
        case .null: .null
        case .bool(let b): .bool(b)
        case .integer(let i): .integer(i)
        case .number(let d): .number(d)
        case .string(let s): .string(s)
        case .array(let items): .array(items.map(\.json))
        case .object(let members): .object(members.map { ($0.key, $0.value.json) })
        }
    }
}

/// Why a document could not be parsed at all.
public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
    public var line: Int?
    public var message: String
    public var description: String { (line.map { "line \($0): " } ?? "") + message }
}

/// Limits that keep hostile input from exhausting the stack or memory.
enum InputLimits {
    static let maxDepth = 64
    static let maxBytes = 32 * 1024 * 1024
}

extension JSON {
    /// Parses JSON text (the document parser: strict escapes, depth limit); nil when it is not JSON.
    package static func parse(_ text: String) -> JSON? { try? JSONParser.parse(text).json }

    /// Parses JSON text with the document parser's limits, saying where and why it is not JSON.
    package static func parseOrExplain(_ text: String) -> Result<JSON, ParseError> {
        do { return .success(try JSONParser.parse(text).json) } catch { return .failure(error) }
    }
}
