import CFormwork

/// A cell type written in Swift: an identifiable, model-configurable view.
///
///     final class RatingCell: Cell {
///         struct Model: CellModel { ... }
///         static let identifier = "com.example.rating"
///         static let displayName = "Rating"
///         init() {}
///         func configure(model: Model) throws { ... }
///         func render(into canvas: Canvas) { ... }
///     }
public protocol Cell: AnyObject {
    associatedtype Model: CellModel
    /// Reverse-DNS identifier, unique across every loaded pack.
    static var identifier: String { get }
    static var displayName: String { get }
    static var summary: String? { get }
    /// How the cell takes text input; `.none` by default.
    static var textInput: TextInput { get }
    /// Whether instances may be used on different threads at once.
    static var isThreadSafe: Bool { get }
    /// ABI 1.1: which model fields hold the value, the title, the `required` flag,
    /// the maximum length and the placeholder. Default: the 1.0 name conventions.
    static var roles: FieldRoles { get }
    init()
    /// Replaces the whole model (instances are pooled and reused across fields).
    func configure(model: Model) throws
    /// Draws the cell; never writes output itself.
    func render(into canvas: Canvas)
}

extension Cell {
    public static var summary: String? { nil }
    public static var textInput: TextInput { .none }
    public static var isThreadSafe: Bool { false }
    public static var roles: FieldRoles { FieldRoles() }
}

/// The field roles a cell declares (ABI 1.1). nil keeps the host's 1.0 name
/// convention for that role; `""` says the cell has no such field.
public struct FieldRoles: Sendable {
    public var value: String?
    public var title: String?
    public var required: String?
    public var maxLength: String?
    public var placeholder: String?

    public init(
        value: String? = nil, title: String? = nil, required: String? = nil, maxLength: String? = nil,
        placeholder: String? = nil
    ) {
        self.value = value
        self.title = title
        self.required = required
        self.maxLength = maxLength
        self.placeholder = placeholder
    }
}

/// A cell that reacts to selection (SelectableView).
public protocol SelectableCell: Cell {
    func setSelected(_ selected: Bool)
}

/// A cell that reacts to highlighting (HighlightableView).
public protocol HighlightableCell: Cell {
    func setHighlighted(_ highlighted: Bool)
}

/// The answer to a user's edit.
public enum ValueChange: Sendable, Equatable {
    case accept
    case reject(String)
}

/// A cell that vets edits of its fields.
public protocol ValueObservingCell: Cell {
    func valueChanged(field: String, to value: ModelValue?) -> ValueChange
}
