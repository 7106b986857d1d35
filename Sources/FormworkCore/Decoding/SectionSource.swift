/// Where `FormDecoder.form` takes a document's sections from.
enum SectionSource {
    /// The root's own `sections` nodes, decoded in order: the reference.
    case nodes
    /// Sections a streaming path (`Decoding/Streaming/`) decoded already, from the same document.
    case decoded(DecodedSections)
}

/// A document's sections as a streaming path decoded them: what `form` would have gathered decoding the
/// `sections` nodes in order — the sections, the ids they use, and their problems and pending conditions in
/// document order.
struct DecodedSections {
    var sections: [FormSection] = []
    var sectionIDs: [String: String] = [:]
    var fieldIDs = FieldIDs()
    /// Fields in all (sizes a table once, where `fieldIDs` does not count them).
    var fieldCount = 0
    var diagnostics: [Diagnostic] = []
    var pending: [PendingCondition] = []
}

/// The field ids a decoder has met and where each was first used, for its "duplicate field id" report.
///
/// A streaming path that finds repeated ids itself, once every field is decoded (and gives up on any), decodes
/// with `FieldIDs(checked: false)`: nothing is hashed, and no duplicate is ever reported from it.
struct FieldIDs {
    let checked: Bool
    private(set) var first: [String: FieldLocation] = [:]
    /// The ids met, when their places are not kept (`keepsPlaces` false).
    private var seen: Set<String> = []
    private let keepsPlaces: Bool

    /// `keepsPlaces` false: only the ids are noted, and a repeat's place is given as its own. For a streaming path
    /// that gives up on any repeated id (the reference then reports it, with the first place): a table of 100,000
    /// ids and their places was a sixth of a large YAML render's peak memory, a set of the ids a fifth of that.
    init(checked: Bool = true, keepsPlaces: Bool = true) {
        self.checked = checked
        self.keepsPlaces = keepsPlaces
    }

    var count: Int { keepsPlaces ? first.count : seen.count }

    mutating func reserveCapacity(_ n: Int) {
        guard checked else { return }
        if keepsPlaces { first.reserveCapacity(n) } else { seen.reserveCapacity(n) }
    }

    /// Where `id` was first used, when it was used before; otherwise nil, and `id` is noted as used at `location`.
    mutating func repeated(_ id: String, at location: FieldLocation) -> FieldLocation? {
        guard checked else { return nil }
        guard keepsPlaces else { return seen.insert(id).inserted ? nil : location }
        if let earlier = first[id] { return earlier }
        first[id] = location
        return nil
    }
}

/// A section's fields that a streaming path decoded already, with their problems and pending conditions in row
/// order (`FormDecoder.section(_:…decoded:)` takes them where it would decode the fields' nodes).
struct DecodedFields {
    var fields: [FormField]
    var diagnostics: [Diagnostic] = []
    var pending: [PendingCondition] = []
}
