import FormworkCore

/// Cell types defined in Swift and a `CellDriver` that runs them in memory: the core
/// is tested without any pack, which is what the core ↔ host boundary promises.
enum InMemory {
    static let abi = ABIVersion(major: 1, minor: 0, patch: 0)

    /// A text field: `title` (required), `value`, `placeholder`; `value` is the text input.
    static let textField = CellType(
        id: "test.text-field", name: "Text field",
        fields: [
            FieldSchema(name: "title", type: .string, required: true),
            FieldSchema(name: "value", type: .string, maxLength: 20),
            FieldSchema(name: "required", type: .bool, defaultValue: .bool(false)),
            FieldSchema(name: "maxLength", type: .integer, minimum: 0, maximum: 1000),
        ],
        textInput: TextInputConfiguration(kind: .textField, field: "value"),
        packID: "test.pack", packPath: "<memory>", packABI: abi)

    /// A counter that accepts only even numbers through `value_changed`.
    static let counter = CellType(
        id: "test.counter", name: "Counter",
        fields: [
            FieldSchema(name: "title", type: .string, defaultValue: .string("Count")),
            FieldSchema(name: "value", type: .integer, minimum: 0, maximum: 100),
        ],
        packID: "test.pack", packPath: "<memory>", packABI: abi)

    struct Catalog: CellTypeCatalog {
        var cellTypes: [CellType] = [textField, counter]
        func cellType(_ id: String) throws(RegistryError) -> CellType {
            if let cell = cellTypes.first(where: { $0.id == id }) { return cell }
            throw RegistryError(id: id, nearMatches: RegistryError.nearMatches(for: id, in: cellTypes.map(\.id)), searched: ["<memory>"])
        }
    }

    /// Draws each cell from its model; the counter rejects odd values.
    final class Driver: CellDriver {
        private(set) var requests: [CellRequest] = []
        /// The size of each batch `perform` was given.
        private(set) var batches: [Int] = []
        /// Fields whose call fails.
        var failing: Set<String> = []

        func perform(_ requests: [CellRequest]) throws(RuntimeError) -> [CellResponse] {
            self.requests += requests
            batches.append(requests.count)
            return requests.map { request in
                if failing.contains(request.fieldID) {
                    return CellResponse(
                        failure: RuntimeError(
                            cellID: request.cell.id, fieldID: request.fieldID, packPath: request.cell.packPath, message: "failed on purpose"
                        ))
                }
                var model = request.model
                var rejections: [CellResponse.Rejection] = []
                for offer in request.offers {
                    if request.cell.id == InMemory.counter.id, case .integer(let n)? = offer.value, n % 2 != 0 {
                        rejections.append(.init(index: offer.index, reason: "\(n) is odd; choose an even number"))
                    } else {
                        model[offer.index] = offer.value
                    }
                }
                guard request.render else { return CellResponse(nodes: [], rejections: rejections) }
                func string(_ i: Int) -> String? { if case .string(let s)? = model[i] { s } else { nil } }
                let nodes: [ViewNode]
                switch request.cell.id {
                case InMemory.textField.id:
                    nodes = [
                        .textInput(
                            Control(field: "value", id: request.accessibilityId, label: string(0), required: model[2] == .bool(true)),
                            text: string(1), placeholder: nil)
                    ]
                default:
                    let n: String = if case .integer(let n)? = model[1] { String(n) } else { "–" }
                    nodes = [.value(label: string(0) ?? "", text: n)]
                }
                return CellResponse(nodes: nodes, rejections: rejections)
            }
        }

        func drain() {}
    }
}
