/// A validated form: every field bound to a registered cell type, every model
/// value typed and checked against its schema.
public struct Form: Sendable {
    public var id: String
    public var title: String?
    public var sections: [FormSection]

    public var fields: [FormField] { sections.flatMap(\.fields) }
}

public struct EdgeInsets: Sendable, Equatable {
    public var top: Double, left: Double, bottom: Double, right: Double
}

public struct FormSection: Sendable {
    public var id: String
    public var header: String?
    public var footer: String?
    public var insets: EdgeInsets?
    public var spacing: Double?
    public var fields: [FormField]
}

public struct FormField: Sendable {
    public var id: String
    public var cell: CellType
    /// Model values by field name, defaults filled in, the values file applied.
    public var model: [String: Value]
    /// The cell's text-input configuration with the document's overrides applied.
    public var textInput: TextInputConfiguration
    /// Stable id carried to every renderer (HTML `id`, JSON path, terminal label).
    public var accessibilityId: String
    public var required: Bool
    /// The model field that holds the field's value (the text-input field, else `value`), if any.
    public var valueField: String?
    /// JSON pointer of the field in the document.
    public var pointer: String
    /// Model fields whose value came from a values file (they go through `value_changed`).
    var valuesFromFile: Set<String> = []
    /// The document's values of those fields, before the values file replaced them.
    var documentModel: [String: Value?] = [:]

    /// Values in schema order (nil = absent), as passed to configure.
    var orderedValues: [Value?] { cell.fields.map { model[$0.name] } }
}

/// A problem found in a document or a values file.
public struct Diagnostic: Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The document or values are wrong (exit 65).
        case invalid
        /// A needed cell type is not installed (exit 69).
        case unavailable
    }

    public var kind: Kind
    public var file: String?
    /// JSON pointer of the offending node, e.g. `/sections/0/fields/2/model/title`.
    public var pointer: String
    public var line: Int?
    public var message: String

    /// `FILE:LINE: POINTER: MESSAGE`, the one-line form printed by the command.
    public var description: String {
        var location = file ?? "<document>"
        if let line { location += ":\(line)" }
        return "\(location): \(pointer.isEmpty ? "/" : pointer): \(message)"
    }
}

/// Why a document or values file could not be read at all, or is invalid.
public enum FormError: Error, Sendable, CustomStringConvertible {
    case missingFile(String)
    case notAFile(String)
    case unreadable(String, String)
    case tooLarge(String, Int)
    case parse(String, ParseError)
    case invalid([Diagnostic])

    public var description: String {
        switch self {
        case .missingFile(let path): "\(path): no such file"
        case .notAFile(let path): "\(path): is a directory, not a file; pass a form document (.json, .yaml)"
        case .unreadable(let path, let why): "\(path): cannot be read: \(why)"
        case .tooLarge(let path, let size): "\(path): \(size) bytes is larger than the \(InputLimits.maxBytes / 1024 / 1024) MiB limit"
        case .parse(let path, let error): "\(path):\(error.line.map { "\($0):" } ?? "") \(error.message)"
        case .invalid(let diagnostics): diagnostics.map(\.description).joined(separator: "\n")
        }
    }

    /// The sysexits code: 66 for a missing input, 69 when a cell type is unavailable, else 65.
    public var exitCode: Int32 {
        switch self {
        case .missingFile, .notAFile, .unreadable: 66
        case .tooLarge, .parse: 65
        case .invalid(let diagnostics): diagnostics.contains { $0.kind == .unavailable } ? 69 : 65
        }
    }
}
