import FormworkCore

/// The `CellDriver` for packs loaded in this process: cells are created through
/// the ABI, pooled per cell type, configured (typed or generic), offered values
/// through `value_changed`, and rendered onto the recording canvas.
///
/// A pack the registry only read through the scanner is loaded here the first time
/// one of its cells is driven (so `render` loads only the packs the document uses).
public final class InProcessCells: CellDriver {
    private var entries: [CellKey: CellEntry]
    /// Cell types as this process loaded them, by pack path and identifier.
    private var loadedCells: [String: [String: CellType]] = [:]
    private var loadFailures: [String: PackError] = [:]
    private let pool = InstancePool()
    /// Set in the cell-host child: records each call (`index << 8 | phase`) before it starts.
    var progress: ((UInt64) -> Void)?

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

    deinit {
        progress?(Phase.destroy.rawValue)
        PackOutput.redirect { pool.drain() }
    }

    /// The calls a request makes, recorded in the cell host's progress page
    /// (`request index << 8 | phase`) so that the host can name the call that crashed or hung.
    enum Phase: UInt64 {
        case load = 1, initialize = 2, create = 3, configure = 4, valueChanged = 5, render = 6, destroy = 7
        /// The child is done: every instance destroyed, every pack's deinit called.
        case finished = 8
        case selection = 9

        var name: String {
            switch self {
            case .load: "loading the pack"
            case .initialize: "init"
            case .create: "create"
            case .configure: "configure"
            case .valueChanged: "value_changed"
            case .render: "render"
            case .destroy: "destroy or deinit"
            case .finished: "exiting"
            case .selection: "did_set_highlighted or did_set_selected"
            }
        }
    }

    public func perform(_ requests: [CellRequest]) throws(RuntimeError) -> [CellResponse] {
        PackOutput.redirect { () -> [CellResponse] in
            var responses: [CellResponse] = []
            responses.reserveCapacity(requests.count)
            // By index: a `for request in` loop copies each request (half a dozen retains).
            for i in requests.indices {
                do throws(RuntimeError) {
                    responses.append(try perform(requests[i], index: UInt64(i)))
                } catch {
                    responses.append(CellResponse(failure: error))
                }
            }
            return responses
        }
    }

    /// The cell type `id` of the pack at `path` as loaded in this process (loading it if needed).
    func loadedCell(path: String, id: String) throws(RuntimeError) -> CellType {
        if let cell = loadedCells[path]?[id] { return cell }
        if loadedCells[path] == nil { try load(path: path, cellID: id) }
        guard let cell = loadedCells[path]?[id] else {
            throw RuntimeError(
                cellID: id, fieldID: nil, packPath: path,
                message: "is no longer in the pack (the file changed since it was read); run 'formwork list --rescan'")
        }
        return cell
    }

    private func load(path: String, cellID: String) throws(RuntimeError) {
        if let error = loadFailures[path] {
            throw RuntimeError(cellID: cellID, fieldID: nil, packPath: path, message: "its pack did not load: \(error.message)")
        }
        do {
            let loaded = try PackLoader.load(path: path)
            var cells: [String: CellType] = [:]
            for (cell, entry) in zip(loaded.pack.cellTypes, loaded.entries) {
                entries[CellKey(cell)] = entry
                cells[cell.id] = cell
            }
            loadedCells[path] = cells
        } catch {
            loadFailures[path] = error
            throw RuntimeError(cellID: cellID, fieldID: nil, packPath: path, message: "its pack did not load: \(error.message)")
        }
    }

    func entry(for cell: CellType, index: UInt64, field: String) throws(RuntimeError) -> CellEntry {
        if let entry = entries[CellKey(cell)] { return entry }
        progress?(index << 8 | Phase.load.rawValue)
        let loaded = try loadedCell(path: cell.packPath, id: cell.id)
        // What was read by the scanner must still be what the file holds.
        guard loaded.fields.map(\.name) == cell.fields.map(\.name), loaded.fields.map(\.type) == cell.fields.map(\.type),
            loaded.configure == cell.configure, let entry = entries[CellKey(cell)]
        else {
            throw RuntimeError(
                cellID: cell.id, fieldID: field, packPath: cell.packPath,
                message: "its model schema changed since the pack was read; run 'formwork list --rescan'")
        }
        return entry
    }

    func perform(_ request: CellRequest, index: UInt64 = 0) throws(RuntimeError) -> CellResponse {
        let cell = request.cell
        let fieldID = request.fieldID  // the closure captures the id, not a copy of the whole request
        let slot = try pool.slot(for: cell) { () throws(RuntimeError) in
            try self.entry(for: cell, index: index, field: fieldID)
        }
        let entry = slot.entry
        // In the cell host, init (on the pack's first instance) and create are told apart for the report.
        var initialized = false
        if let progress, entry.lifecycle.retainCount == 0 {
            progress(index << 8 | Phase.initialize.rawValue)
            initialized = entry.lifecycle.retain() == nil
        }
        defer { if initialized { entry.lifecycle.release() } }
        progress?(index << 8 | Phase.create.rawValue)
        let instance = try pool.dequeue(cell, from: slot)
        defer { pool.enqueue(instance, to: slot) }
        progress?(index << 8 | Phase.configure.rawValue)
        try instance.configure(request.model, field: request.fieldID)
        var rejections: [CellResponse.Rejection] = []
        if !request.offers.isEmpty {
            var model = request.model
            progress?(index << 8 | Phase.valueChanged.rawValue)
            for offer in request.offers {
                let schema = cell.fields[offer.index]
                if let reason = instance.valueChanged(field: schema.name, to: offer.value, type: schema.type) {
                    rejections.append(CellResponse.Rejection(index: offer.index, reason: reason))
                } else {
                    model[offer.index] = offer.value
                }
            }
            if request.render {
                progress?(index << 8 | Phase.configure.rawValue)
                try instance.configure(model, field: request.fieldID)
            }
        }
        if request.highlighted != nil || request.selected != nil {
            progress?(index << 8 | Phase.selection.rawValue)
            if let highlighted = request.highlighted { instance.setHighlighted(highlighted) }
            if let selected = request.selected { instance.setSelected(selected) }
        }
        // A pooled instance goes back unhighlighted and unselected (the next request may be another field's).
        defer {
            if request.highlighted == true { instance.setHighlighted(false) }
            if request.selected == true { instance.setSelected(false) }
        }
        guard request.render else { return CellResponse(nodes: [], rejections: rejections) }
        progress?(index << 8 | Phase.render.rawValue)
        let nodes = try instance.render(
            accessibilityId: request.accessibilityId, valueField: request.valueField,
            field: request.fieldID)
        return CellResponse(nodes: nodes, rejections: rejections)
    }

    public func drain() {
        progress?(Phase.destroy.rawValue)
        PackOutput.redirect { pool.drain() }
    }
}

extension FormRuntime {
    /// A runtime that drives the cells of `registry` in this process.
    public convenience init(registry: Registry) {
        self.init(driver: InProcessCells(registry: registry))
    }
}
