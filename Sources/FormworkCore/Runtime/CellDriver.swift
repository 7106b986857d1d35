/// One field's work for a `CellDriver`: configure a cell of `cell` with the
/// document's model, offer the values that came from a values file through
/// `value_changed`, configure again with the values it accepted, then render.
///
/// Plain values in, view nodes out, no pointers: a driver may run the cell in this
/// process or in a child process.
public struct CellRequest: Sendable {
    /// A value offered to the cell through `value_changed`: the schema index of the model field and the value (nil = absent).
    public struct Offer: Sendable, Equatable {
        public let index: Int
        public let value: Value?
        public init(index: Int, value: Value?) {
            self.index = index
            self.value = value
        }
    }

    public let cell: CellType
    /// The form field this is for (named in errors).
    public let fieldID: String
    /// The model in schema order (nil = absent), as configure receives it.
    public var model: [Value?] {
        switch values {
        case .array(let model): model
        case .field(let model): model.values
        }
    }
    /// What `model` is made from: the array a caller gave, or a form field's model itself (shared with the field,
    /// not made into an array for every request of a render: a batch and the next one held those arrays).
    package enum Values: Sendable {
        case array([Value?])
        case field(FieldModel)
    }
    package let values: Values
    /// Values offered through `value_changed` after configuring with `model`.
    public let offers: [Offer]
    /// Whether to render (false: only configure and offer).
    public let render: Bool
    /// The field's accessibility id, which becomes the id of its controls.
    public let accessibilityId: String
    /// The model field that holds the field's value.
    public let valueField: String?
    /// `did_set_highlighted` with this value after configuring (and offering), before rendering;
    /// nil: not called. An interactive form highlights the focused field this way.
    public var highlighted: Bool?
    /// `did_set_selected` with this value after configuring (and offering), before rendering;
    /// nil: not called. An interactive form selects a field when the user chooses or activates it.
    public var selected: Bool?

    public init(
        cell: CellType, fieldID: String, model: [Value?], offers: [Offer] = [], render: Bool = true,
        accessibilityId: String, valueField: String?
    ) {
        self.init(
            cell: cell, fieldID: fieldID, values: .array(model), offers: offers, render: render, accessibilityId: accessibilityId,
            valueField: valueField)
    }

    /// A request with a field's model as it is (its cell type's schema orders it).
    package init(
        cell: CellType, fieldID: String, model: FieldModel, offers: [Offer] = [], render: Bool = true, accessibilityId: String,
        valueField: String?
    ) {
        self.init(
            cell: cell, fieldID: fieldID, values: .field(model), offers: offers, render: render, accessibilityId: accessibilityId,
            valueField: valueField)
    }

    private init(
        cell: CellType, fieldID: String, values: Values, offers: [Offer], render: Bool, accessibilityId: String, valueField: String?
    ) {
        self.cell = cell
        self.fieldID = fieldID
        self.values = values
        self.offers = offers
        self.render = render
        self.accessibilityId = accessibilityId
        self.valueField = valueField
    }
}

/// What a cell answered.
public struct CellResponse: Sendable {
    /// The offers the cell rejected, with its reason.
    public struct Rejection: Sendable, Equatable {
        public let index: Int
        public let reason: String
        public init(index: Int, reason: String) {
            self.index = index
            self.reason = reason
        }
    }

    /// What the cell drew (empty when the request did not ask to render).
    public let nodes: [ViewNode]
    public let rejections: [Rejection]
    /// Why the cell could not do the work (a failed call, a crash or hang in a child process);
    /// the other requests of the batch are unaffected.
    public let failure: RuntimeError?

    public init(nodes: [ViewNode], rejections: [Rejection], failure: RuntimeError? = nil) {
        self.nodes = nodes
        self.rejections = rejections
        self.failure = failure
    }

    public init(failure: RuntimeError) {
        self.init(nodes: [], rejections: [], failure: failure)
    }
}

/// How the core asks "configure and render this field" without knowing where the
/// cell's code lives. `FormworkHost` implements it for packs loaded in this process
/// (`InProcessCells`) and for packs run in child processes (`IsolatedCells`).
public protocol CellDriver: AnyObject {
    /// Performs `requests` in order and answers each, in order; a driver may batch them
    /// into one round trip. A request that fails is answered with its `failure`; the
    /// driver throws only when it cannot answer at all.
    func perform(_ requests: [CellRequest]) throws(RuntimeError) -> [CellResponse]
    /// Releases idle cell instances now.
    func drain()
    /// Told before a render's first `perform`: how many requests its batches will hold in all (a driver may
    /// size its resources for the whole render rather than for one batch). The default does nothing.
    func willPerform(requests total: Int)
    /// ABI 1.2: the choices the pack at `packPath` lists for `source` now (`org.formwork.choices/1`), checked:
    /// values non-empty and unique, at most 10,000. Throws when the pack offers no such source, fails, crashes
    /// or hangs (the error's `cellID` is `PACK_ID/SOURCE`). The default refuses: the driver cannot list choices.
    func choices(packPath: String, source: String) throws(RuntimeError) -> [Choice]
}

extension CellDriver {
    public func willPerform(requests total: Int) {}
    public func choices(packPath: String, source: String) throws(RuntimeError) -> [Choice] {
        throw RuntimeError(cellID: source, fieldID: nil, packPath: packPath, message: "this cell driver cannot list a pack's choices")
    }
}

/// Why a cell could not be driven.
public struct RuntimeError: Error, Sendable, CustomStringConvertible {
    public let cellID: String
    public let fieldID: String?
    public let packPath: String
    public let message: String

    public init(cellID: String, fieldID: String?, packPath: String, message: String) {
        self.cellID = cellID
        self.fieldID = fieldID
        self.packPath = packPath
        self.message = message
    }

    public var description: String {
        "cell '\(cellID)'" + (fieldID.map { " (field '\($0)')" } ?? "") + " from \(packPath): \(message)"
    }
}
