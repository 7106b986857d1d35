import CFormwork
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
    /// Set in the cell-host child: the shared page where each call (`index << 8 | phase`) is recorded
    /// before it starts (`ProgressPage`). A pointer, not a closure: it is read several times per request.
    var progressPage: UnsafeMutablePointer<UInt64>?

    @inline(__always) private func mark(_ tag: UInt64) {
        if let progressPage { ProgressPage.mark(progressPage, tag) }
    }

    /// Drives the cell types in `entries` (`Registry`'s convenience initialiser passes a registry's).
    init(entries: [CellKey: CellEntry]) {
        self.entries = entries
    }

    /// Instances created so far (pooling keeps this at one per cell type).
    public var instancesCreated: Int { pool.created }
    /// The most instances alive at once.
    public var peakLiveInstances: Int { pool.peakLive }

    deinit {
        mark(Phase.destroy.rawValue)
        PackOutput.redirect {
            pool.drain()
            releaseChoiceUsers()
        }
    }

    /// Packs initialised to list choices (`choices`), each once, released with the instances.
    private var choiceUsers: [String: PackLifecycle] = [:]

    private func releaseChoiceUsers() {
        for lifecycle in choiceUsers.values { lifecycle.release() }
        choiceUsers = [:]
    }

    public func choices(packPath: String, source: String) throws(RuntimeError) -> [Choice] {
        try PackOutput.redirect { () throws(RuntimeError) -> [Choice] in
            func failure(_ message: String) -> RuntimeError {
                RuntimeError(cellID: source, fieldID: nil, packPath: packPath, message: message)
            }
            if loadedCells[packPath] == nil && !entries.keys.contains(where: { $0.packPath == packPath }) {
                do throws(RuntimeError) { try load(path: packPath, cellID: source) } catch { throw failure(error.message) }
            }
            guard let lifecycle = entries.first(where: { $0.key.packPath == packPath })?.value.lifecycle else {
                throw failure("the pack is not loaded")
            }
            guard let ext = lifecycle.choices, ext.sources.contains(source) else {
                throw failure("the pack offers no choices source '\(source)' (\(FW_PACK_EXTENSION_CHOICES))")
            }
            if choiceUsers[packPath] == nil {
                mark(Phase.initialize.rawValue)
                if let failed = lifecycle.retain() {
                    throw failure("fw_pack.init failed with \(Status.name(failed.status))" + PackLog.suffix(failed.log))
                }
                choiceUsers[packPath] = lifecycle
            }
            mark(Phase.choices.rawValue)
            defer { mark(0) }
            let collector = ChoiceCollector()
            let (status, log) = PackLog.capture {
                source.withCString { name in
                    ext.list(name, ChoiceCollector.sink, Unmanaged.passUnretained(collector).toOpaque())
                }
            }
            withExtendedLifetime(collector) {}
            guard status == FW_OK else { throw failure("list returned \(Status.name(status))" + PackLog.suffix(log)) }
            if let problem = collector.problem { throw failure(problem) }
            return collector.choices
        }
    }

    /// The calls a request makes, recorded in the cell host's progress page
    /// (`request index << 8 | phase`) so that the host can name the call that crashed or hung.
    enum Phase: UInt64 {
        case load = 1, initialize = 2, create = 3, configure = 4, valueChanged = 5, render = 6, destroy = 7
        /// The child is done: every instance destroyed, every pack's deinit called.
        case finished = 8
        case selection = 9
        case choices = 10

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
            case .choices: "listing choices"
            }
        }
    }

    public func perform(_ requests: [CellRequest]) throws(RuntimeError) -> [CellResponse] {
        PackOutput.redirect { () -> [CellResponse] in
            var responses: [CellResponse] = []
            responses.reserveCapacity(requests.count)
            // Through the buffer's `pointee`: a request read by index was copied (half a dozen retains).
            requests.withUnsafeBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return }
                for i in buffer.indices {
                    do throws(RuntimeError) {
                        responses.append(try perform(at: base + i, index: UInt64(i)))
                    } catch {
                        // Whatever failed (loading the pack, its init, create) failed for this request's field.
                        let named =
                            error.fieldID != nil
                            ? error
                            : RuntimeError(
                                cellID: error.cellID, fieldID: base[i].fieldID, packPath: error.packPath, message: error.message)
                        responses.append(CellResponse(failure: named))
                    }
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

    /// Loads the pack at `path` now if it was not loaded (or found broken) yet; a failure is kept and
    /// reported by the first request for one of its cell types, as when it is loaded then.
    func preload(path: String) {
        guard loadedCells[path] == nil, loadFailures[path] == nil else { return }
        try? load(path: path, cellID: "")
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

    func entry(for cell: CellType, index: UInt64, field: String?) throws(RuntimeError) -> CellEntry {
        if let entry = entries[CellKey(cell)] { return entry }
        mark(index << 8 | Phase.load.rawValue)
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

    func perform(_ request: CellRequest, index: UInt64 = 0, recorder: CanvasWireRecorder? = nil) throws(RuntimeError) -> CellResponse {
        try withUnsafePointer(to: request) { (request) throws(RuntimeError) in try perform(at: request, index: index, recorder: recorder) }
    }

    /// One request, read in place through `request` (a request passed by value was copied: a dozen
    /// retains and releases).
    ///
    /// With a `recorder` (the cell host's), the views are recorded into it, in their wire encoding, and the
    /// response's `nodes` are empty; without a render the recorder is left empty.
    ///
    /// With `wire`, the request's model is those values, still in their wire bytes (the cell host's common
    /// request: no offers, highlight or selection), and `request`'s own model is not read.
    func perform(
        at request: UnsafePointer<CellRequest>, index: UInt64, recorder: CanvasWireRecorder? = nil, wire: WireValues? = nil
    ) throws(RuntimeError) -> CellResponse {
        recorder?.clear()
        let cell = request.pointee.cell, fieldID = request.pointee.fieldID
        let slot = try pool.slot(for: cell) { () throws(RuntimeError) in
            try self.entry(for: cell, index: index, field: fieldID)
        }
        // In the cell host, init (on the pack's first instance) and create are told apart for the report.
        var initialized = false
        if progressPage != nil, slot.entry.lifecycle.retainCount == 0 {
            mark(index << 8 | Phase.initialize.rawValue)
            initialized = slot.entry.lifecycle.retain() == nil
        }
        defer { if initialized { slot.entry.lifecycle.release() } }
        mark(index << 8 | Phase.create.rawValue)
        let instance = try pool.dequeue(request.pointee.cell, from: slot)
        defer { pool.enqueue(instance, to: slot) }
        mark(index << 8 | Phase.configure.rawValue)
        if let wire {
            precondition(request.pointee.offers.isEmpty && request.pointee.highlighted == nil && request.pointee.selected == nil)
            // What the plan's fast path does not take goes the general way, which reports it (`plain: false`: the
            // same fast path would refuse it again).
            if try !instance.configureIfPlain(wire: wire, field: fieldID) {
                try instance.configure(wire.decoded(), field: fieldID, plain: false)
            }
        } else {
            try instance.configure(request.pointee.model, field: request.pointee.fieldID)
        }
        // The common request (configure, then render) takes no other branch below.
        if request.pointee.offers.isEmpty && request.pointee.highlighted == nil && request.pointee.selected == nil {
            guard request.pointee.render else { return CellResponse(nodes: [], rejections: []) }
            mark(index << 8 | Phase.render.rawValue)
            return CellResponse(nodes: try render(instance, request, recorder), rejections: [])
        }
        var rejections: [CellResponse.Rejection] = []
        if !request.pointee.offers.isEmpty {
            var model = request.pointee.model
            mark(index << 8 | Phase.valueChanged.rawValue)
            for offer in request.pointee.offers {
                let schema = request.pointee.cell.fields[offer.index]
                if let reason = instance.valueChanged(field: schema.name, to: offer.value, type: schema.type) {
                    rejections.append(CellResponse.Rejection(index: offer.index, reason: reason))
                } else {
                    model[offer.index] = offer.value
                }
            }
            if request.pointee.render {
                mark(index << 8 | Phase.configure.rawValue)
                try instance.configure(model, field: request.pointee.fieldID)
            }
        }
        if request.pointee.highlighted != nil || request.pointee.selected != nil {
            mark(index << 8 | Phase.selection.rawValue)
            if let highlighted = request.pointee.highlighted { instance.setHighlighted(highlighted) }
            if let selected = request.pointee.selected { instance.setSelected(selected) }
        }
        // A pooled instance goes back unhighlighted and unselected (the next request may be another field's).
        defer {
            if request.pointee.highlighted == true { instance.setHighlighted(false) }
            if request.pointee.selected == true { instance.setSelected(false) }
        }
        guard request.pointee.render else { return CellResponse(nodes: [], rejections: rejections) }
        mark(index << 8 | Phase.render.rawValue)
        return CellResponse(nodes: try render(instance, request, recorder), rejections: rejections)
    }

    /// The views of `instance` (configured for `request`), or none when they go into `recorder`.
    private func render(
        _ instance: CellInstance, _ request: UnsafePointer<CellRequest>, _ recorder: CanvasWireRecorder?
    ) throws(RuntimeError) -> [ViewNode] {
        let accessibilityId = request.pointee.accessibilityId, valueField = request.pointee.valueField
        guard let recorder else {
            return try instance.render(accessibilityId: accessibilityId, valueField: valueField, field: request.pointee.fieldID)
        }
        try instance.render(accessibilityId: accessibilityId, valueField: valueField, field: request.pointee.fieldID, into: recorder)
        return []
    }

    public func drain() {
        mark(Phase.destroy.rawValue)
        PackOutput.redirect {
            pool.drain()
            releaseChoiceUsers()
        }
    }
}

/// What a pack's `list` emits, checked as it comes: the first problem is kept and the rest ignored.
final class ChoiceCollector {
    static let limit = 10_000
    var choices: [Choice] = []
    var seen: Set<String> = []
    var problem: String?

    static let sink: fw_choice_sink = { context, value, label in
        guard let context else { return }
        Unmanaged<ChoiceCollector>.fromOpaque(context).takeUnretainedValue().add(value, label)
    }

    func add(_ value: UnsafePointer<CChar>?, _ label: UnsafePointer<CChar>?) {
        guard problem == nil else { return }
        guard choices.count < Self.limit else {
            problem = "list emitted more than \(Self.limit) choices"
            return
        }
        let text: String, shown: String?
        do {
            guard let v = try DescriptorReader.string(value), !v.isEmpty else {
                problem = "list emitted an empty or NULL value (choice \(choices.count + 1))"
                return
            }
            text = v
            shown = try DescriptorReader.string(label)
        } catch {
            problem = "list emitted a value or label that is not UTF-8 of at most 64 KiB (choice \(choices.count + 1))"
            return
        }
        guard seen.insert(text).inserted else {
            problem = "list emitted the value '\(SchemaValidator.truncated(text))' twice; values must be unique"
            return
        }
        choices.append(Choice(value: text, label: shown ?? text))
    }
}
