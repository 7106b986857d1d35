import FormworkCore

/// The `CellDriver` for packs loaded in this process: cells are created through
/// the ABI, pooled per cell type, configured (typed or generic), offered values
/// through `value_changed`, and rendered onto the recording canvas.
public final class InProcessCells: CellDriver {
    private let entries: [CellKey: CellEntry]
    private let pool = InstancePool()

    /// Drives the cell types of `registry`.
    public init(registry: Registry) {
        entries = registry.entries
    }

    init(entries: [CellKey: CellEntry]) {
        self.entries = entries
    }

    /// Instances created so far (pooling keeps this at one per cell type).
    public var instancesCreated: Int { pool.created }
    /// The most instances alive at once.
    public var peakLiveInstances: Int { pool.peakLive }

    deinit { PackOutput.redirect { pool.drain() } }

    public func perform(_ requests: [CellRequest]) throws(RuntimeError) -> [CellResponse] {
        try PackOutput.redirect { () throws(RuntimeError) -> [CellResponse] in
            var responses: [CellResponse] = []
            responses.reserveCapacity(requests.count)
            for request in requests { responses.append(try perform(request)) }
            return responses
        }
    }

    func perform(_ request: CellRequest) throws(RuntimeError) -> CellResponse {
        let cell = request.cell
        guard let entry = entries[CellKey(cell)] else {
            throw RuntimeError(
                cellID: cell.id, fieldID: request.fieldID, packPath: cell.packPath,
                message: "is not loaded in this process; load its pack through the same Registry")
        }
        let instance = try pool.dequeue(cell, entry: entry)
        defer { pool.enqueue(instance) }
        try instance.configure(request.model, field: request.fieldID)
        var rejections: [CellResponse.Rejection] = []
        if !request.offers.isEmpty {
            var model = request.model
            for offer in request.offers {
                let schema = cell.fields[offer.index]
                if let reason = instance.valueChanged(field: schema.name, to: offer.value, type: schema.type) {
                    rejections.append(CellResponse.Rejection(index: offer.index, reason: reason))
                } else {
                    model[offer.index] = offer.value
                }
            }
            if request.render { try instance.configure(model, field: request.fieldID) }
        }
        guard request.render else { return CellResponse(nodes: [], rejections: rejections) }
        let nodes = try instance.render(
            accessibilityId: request.accessibilityId, valueField: request.valueField,
            field: request.fieldID)
        return CellResponse(nodes: nodes, rejections: rejections)
    }

    public func drain() { PackOutput.redirect { pool.drain() } }
}

extension FormRuntime {
    /// A runtime that drives the cells of `registry` in this process.
    public convenience init(registry: Registry) {
        self.init(driver: InProcessCells(registry: registry))
    }
}
