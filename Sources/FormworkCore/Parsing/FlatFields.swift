/// A form field's JSON object read straight from its bytes, with no `SourceNode` made for it: its `id`, `cell`,
/// `accessibilityId` (a string), `required` and a `model` of plain values — what most fields of a large
/// document are. A field with any other key, a model value that is an object, a list of anything but strings, a
/// repeated key or anything that does not parse is not read this way: the parser reads it as a node, and the
/// decoder then reports or decodes it as it always does (`JSONParser.flatFields`, `FormDecoder.flatField`).
///
/// Parsing a field into nodes, decoding the nodes and freeing them was most of a large render's decoding: the
/// members of each object gathered and moved into an array of their own, each node copied as it was read and
/// released as the tree went.
struct FlatField {
    var id: String?
    var cell: String?
    var accessibilityId: String?
    var required: Bool?
    /// Whether the object has a `model` (perhaps empty).
    var hasModel = false
    /// The model's members in the order written; kept from field to field (emptied, its storage kept).
    var model: [FlatMember] = []

    mutating func reset() {
        id = nil
        cell = nil
        accessibilityId = nil
        required = nil
        hasModel = false
        model.removeAll(keepingCapacity: true)
    }
}

/// The strings of a list in a flat field's model, gathered in storage kept from list to list. `take(member:)` gives
/// them as an array of their own, of their count, or as the array it gave last for the same member of a model (its
/// place in the model as written) when that holds the same strings: the lists of a large form repeat (every rating's
/// labels, every question's scale), and each copy was a block of its own. (Handed out as the scratch array itself,
/// every list had the scratch's capacity, and the next list made a new scratch.)
struct FlatListScratch {
    private var gathering: [String] = []
    /// The last list given for each member of a model (a flat field's model has at most 16).
    private var last: [[String]] = Array(repeating: [], count: 16)

    mutating func start() { gathering.removeAll(keepingCapacity: true) }
    mutating func append(_ text: String) { gathering.append(text) }
    mutating func take(member: Int) -> [String] {
        // A copy through the buffer: `Array(gathering[...])` of a slice over every element is the scratch itself.
        guard last.indices.contains(member) else { return gathering.withUnsafeBufferPointer { Array($0) } }
        if gathering != last[member] { last[member] = gathering.withUnsafeBufferPointer { Array($0) } }
        return last[member]
    }
}

/// A member of a flat field's model.
struct FlatMember {
    let key: String
    let value: FlatValue
}

/// A model value as the JSON parser reads it (`SourceNode.Kind`'s scalars, and a list of strings).
enum FlatValue {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case strings([String])
}

/// Takes the fields that a parser reads flat, in a field list (`JSONParser.flatFields`): the decoder's side.
protocol FlatFieldSink: AnyObject {
    /// Whether the field at `position` of the field list being read was taken; when it was not, the parser reads
    /// it again as a node (in the list, a taken field is a null node).
    func take(_ field: inout FlatField, position: Int) -> Bool
}
