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

    // The optional protocols below, as the compiler saw them where the type conforms to `Cell`: provided by
    // the kit's extensions (do not implement them). A dynamic check (`C.self is any SelectableCell.Type`)
    // walked every conformance record of the process the first time for each type and protocol: three per
    // cell type, most of a Swift pack's registration.
    // A type that adopts one of them in another module than the one where it adopts `Cell` is not seen.

    /// `setSelected(_:)` of a `SelectableCell`; nil for any other cell.
    static var _selectedSetter: ((Self, Bool) -> Void)? { get }
    /// `setHighlighted(_:)` of a `HighlightableCell`; nil for any other cell.
    static var _highlightedSetter: ((Self, Bool) -> Void)? { get }
    /// `valueChanged(field:to:)` of a `ValueObservingCell`; nil for any other cell.
    static var _valueObserver: ((Self, String, ModelValue?) -> ValueChange)? { get }
}

extension Cell {
    public static var summary: String? { nil }
    public static var textInput: TextInput { .none }
    public static var isThreadSafe: Bool { false }
    public static var roles: FieldRoles { FieldRoles() }
    public static var _selectedSetter: ((Self, Bool) -> Void)? { nil }
    public static var _highlightedSetter: ((Self, Bool) -> Void)? { nil }
    public static var _valueObserver: ((Self, String, ModelValue?) -> ValueChange)? { nil }
}

extension SelectableCell {
    public static var _selectedSetter: ((Self, Bool) -> Void)? { { $0.setSelected($1) } }
}

extension HighlightableCell {
    public static var _highlightedSetter: ((Self, Bool) -> Void)? { { $0.setHighlighted($1) } }
}

extension ValueObservingCell {
    public static var _valueObserver: ((Self, String, ModelValue?) -> ValueChange)? { { $0.valueChanged(field: $1, to: $2) } }
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
