import CFormwork
import FormworkCore
import Glibc

/// One live instance of a cell type, created through the ABI.
final class CellInstance {
    let cell: CellType
    let entry: CellEntry
    let handle: UnsafeMutableRawPointer
    /// The schema's field types, collected once (not per configure).
    private let fieldTypes: [FieldType]
    /// The typed configure, when the cell type declares one: held here rather than read through
    /// `entry.typed` (an optional struct, copied and retained) on every call.
    private let typedLayout: TypedModelLayout?
    private let typedFunction: fw_typed_configure_fn?
    private let typedConvention: TypedConvention
    private let genericConfigure: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<fw_value>?, UInt32) -> fw_status
    /// C memory for the values of one call, reused call after call (freed between calls).
    private let marshaller: CMarshaller
    /// The configure's fast path: per-field kinds, limits, offsets and the defaults laid out once.
    private let plan: ConfigurePlan
    /// The schema's defaults in schema order (nil: none), for the general path.
    private let schemaDefaults: [Value?]

    /// `poisoning`: `check`'s instances, whose calls' memory becomes unreadable after each call.
    init(_ cell: CellType, entry: CellEntry, poisoning: PoisonedChunks? = nil) throws(RuntimeError) {
        if let failure = entry.lifecycle.retain() {
            throw RuntimeError(
                cellID: cell.id, fieldID: nil, packPath: cell.packPath,
                message: "fw_pack.init failed with \(Status.name(failure.status))" + PackLog.suffix(failure.log))
        }
        let descriptor = entry.descriptor.assumingMemoryBound(to: fw_cell_type.self)
        let host = entry.lifecycle.host
        let (created, log) = PackLog.capture {
            entry.createLock.map { $0.run { entry.create(descriptor, host) } } ?? entry.create(descriptor, host)
        }
        guard let handle = created else {
            entry.lifecycle.release()
            throw RuntimeError(
                cellID: cell.id, fieldID: nil, packPath: cell.packPath,
                message: "create returned NULL" + PackLog.suffix(log))
        }
        self.cell = cell
        self.entry = entry
        self.handle = handle
        marshaller = CMarshaller(poisoning: poisoning)
        fieldTypes = cell.fields.map(\.type)
        typedLayout = entry.typed?.layout
        typedFunction = entry.typed?.function
        typedConvention = entry.typed?.convention ?? .byValue
        genericConfigure = entry.configure
        plan = ConfigurePlan(fields: cell.fields, layout: entry.typed?.layout)
        schemaDefaults = cell.fields.map(\.defaultValue)
    }

    deinit {
        let (entry, handle) = (self.entry, self.handle)
        _ = PackLog.capture { entry.createLock.map { $0.run { entry.destroy(handle) } } ?? entry.destroy(handle) }
        entry.lifecycle.release()
    }

    func failure(_ what: String, status: fw_status, field: String?, log: [String]) -> RuntimeError {
        RuntimeError(
            cellID: cell.id, fieldID: field, packPath: cell.packPath,
            message: "\(what) returned \(Status.name(status))" + PackLog.suffix(log))
    }

    /// Configures with `values` (schema order): through the typed entry when the cell
    /// type declares one, unless `forceGeneric` (conformance compares the two paths).
    ///
    /// The pack's log is captured around the call (`PackLog.begin`/`end`, no closure) and read only
    /// when the call fails; the model's C memory comes from the instance's marshaller, kept between calls.
    ///
    /// With `defaults`, an absent value takes the schema's default. Values the instance's plan takes
    /// go through `configureIfPlain` (`plain: false` skips it: tests compare the two paths).
    func configure(
        _ values: [Value?], defaults: Bool = false, field: String?, forceGeneric: Bool = false, plain: Bool = true
    ) throws(RuntimeError) {
        if plain && !forceGeneric, try configureIfPlain(values, defaults: defaults, checking: false, field: field) { return }
        let session = PackLog.begin()
        let defaultValues = defaults ? schemaDefaults : nil
        let status: fw_status
        if !forceGeneric, let layout = typedLayout, let function = typedFunction {
            do throws(TypedModelLayout.LayoutError) {
                status = try layout.call(
                    function, convention: typedConvention, cell: handle, values: values, defaults: defaultValues, marshaller: marshaller)
            } catch {
                marshaller.reset()
                PackLog.end(session)
                throw RuntimeError(cellID: cell.id, fieldID: field, packPath: cell.packPath, message: "libffi: \(error)")
            }
        } else {
            // The fw_value array lives on the stack; its strings and lists in the marshaller's chunk.
            let count = defaultValues == nil ? min(values.count, fieldTypes.count) : fieldTypes.count
            status = withUnsafeTemporaryAllocation(of: fw_value.self, capacity: max(count, 1)) { array in
                values.withUnsafeBufferPointer { values in
                    for i in 0..<count {
                        if i < values.count, let value = values[i] {
                            array.initializeElement(at: i, to: marshaller.value(value, as: fieldTypes[i]))
                        } else if let value = defaultValues?[i] {
                            array.initializeElement(at: i, to: marshaller.value(value, as: fieldTypes[i]))
                        } else {
                            array.initializeElement(at: i, to: fw_value())  // absent
                        }
                    }
                }
                return genericConfigure(handle, array.baseAddress, UInt32(count))
            }
        }
        marshaller.reset()
        try finish(status, session, field: field, generic: forceGeneric || typedLayout == nil)
    }

    /// Configures through the instance's `ConfigurePlan` when every value is for its fast path (and,
    /// when `checking`, plainly fits its schema): one pass that checks and lays out each value over the
    /// template, then the call. False, with nothing called, when the general path must take the values.
    func configureIfPlain(_ values: [Value?], defaults: Bool, checking: Bool, field: String?) throws(RuntimeError) -> Bool {
        try values.withUnsafeBufferPointer { (values) throws(RuntimeError) -> Bool in
            try configureIfPlain(
                count: values.count, defaults: defaults, field: field,
                typed: { $0.layTyped(values, defaults: defaults, checking: checking, into: $2, marshaller: $1) },
                generic: { $0.layGeneric(values, defaults: defaults, checking: checking, into: $2, count: $3, marshaller: $1) })
        }
    }

    /// `configureIfPlain` with values still in their wire bytes (the cell host's requests), unchecked: no
    /// `Value` or Swift string is made for them. False, with nothing called, when the general path must take
    /// them (`values.decoded()`).
    func configureIfPlain(wire values: WireValues, field: String?) throws(RuntimeError) -> Bool {
        try configureIfPlain(
            count: values.count, defaults: false, field: field,
            typed: { $0.layTyped(wire: values, defaults: false, into: $2, marshaller: $1) },
            generic: { $0.layGeneric(wire: values, defaults: false, into: $2, count: $3, marshaller: $1) })
    }

    /// The call of both `configureIfPlain`s: `typed` lays the model out into the struct's buffer, `generic` into
    /// the `fw_value` array of the given count; either false: nothing called.
    @inline(__always)
    private func configureIfPlain(
        count: Int, defaults: Bool, field: String?,
        typed: (ConfigurePlan, CMarshaller, UnsafeMutableRawPointer) -> Bool,
        generic: (ConfigurePlan, CMarshaller, UnsafeMutablePointer<fw_value>, Int) -> Bool
    ) throws(RuntimeError) -> Bool {
        // The plan and the marshaller are passed to the closures, not captured by them: a capture
        // retains and releases each of them (and the layout), atomically, on every call.
        let called: (fw_status, PackLog.Session)?
        if let layout = typedLayout, let function = typedFunction {
            called = withUnsafeTemporaryAllocation(byteCount: ConfigurePlan.typedSize(layout), alignment: max(layout.alignment, 8)) {
                buffer in
                let model = buffer.baseAddress!
                guard typed(plan, marshaller, model) else { return nil }
                let session = PackLog.begin()
                guard let status = layout.invoke(function, convention: typedConvention, cell: handle, model: model) else {
                    PackLog.end(session)
                    return nil  // no call interface: the general path reports why
                }
                return (status, session)
            }
        } else {
            let count = plan.genericCount(values: count, defaults: defaults)
            called = withUnsafeTemporaryAllocation(of: fw_value.self, capacity: max(count, 1)) { array in
                guard generic(plan, marshaller, array.baseAddress!, count) else { return nil }
                let session = PackLog.begin()
                return (genericConfigure(handle, array.baseAddress, UInt32(count)), session)
            }
        }
        marshaller.reset()
        guard let (status, session) = called else { return false }
        try finish(status, session, field: field, generic: typedLayout == nil)
        return true
    }

    /// Ends the log capture of a configure; a failed call throws with what the pack logged.
    private func finish(_ status: fw_status, _ session: PackLog.Session, field: String?, generic: Bool) throws(RuntimeError) {
        guard status == FW_OK else {
            throw failure(
                generic ? "configure" : "typed configure", status: status, field: field, log: PackLog.end(session, keepingMessages: true))
        }
        PackLog.end(session)
    }

    /// Asks the cell whether `field` may become `value`; nil when accepted, else the reason.
    func valueChanged(field name: String, to value: Value?, type: FieldType) -> String? {
        let answer = offer(field: name, value: value, type: type)
        guard answer.status != FW_OK else { return nil }
        return answer.message ?? "the cell rejected the value (\(Status.name(answer.status)))"
    }

    /// The raw `value_changed` answer: its status and message (FW_OK when the cell has no callback).
    func offer(field name: String, value: Value?, type: FieldType) -> (status: fw_status, message: String?) {
        guard let valueChanged = entry.valueChanged else { return (fw_status(FW_OK), nil) }
        var message: UnsafePointer<CChar>? = nil
        // The field's name and the value from the instance's marshaller (free between calls), so that a
        // `check` instance's are made unreadable when the call returns, as its configure's are.
        let marshaller = self.marshaller
        let (status, log) = PackLog.capture {
            var v = marshaller.value(value, as: type)
            return valueChanged(handle, marshaller.cString(name), &v, &message)
        }
        defer { marshaller.reset() }
        return (status, CanvasRecorder.text(message) ?? (log.isEmpty ? nil : log.joined(separator: "; ")))
    }

    func render(accessibilityId: String, valueField: String?, field: String?) throws(RuntimeError) -> [ViewNode] {
        var ignored: [String] = []
        return try render(accessibilityId: accessibilityId, valueField: valueField, field: field, misuse: &ignored)
    }

    /// `render`, with what the cell passed that the recorder corrected (`CanvasRecorder.misuse`), for `check`.
    func render(accessibilityId: String, valueField: String?, field: String?, misuse: inout [String]) throws(RuntimeError) -> [ViewNode] {
        let recorder = CanvasRecorder(accessibilityId: accessibilityId, valueField: valueField)
        try draw(onto: CanvasRecorder.canvas, recorder, field: field)
        var nodes = recorder.finish()
        if recorder.truncated {
            nodes.append(.message(kind: .warning, text: CanvasRecorder.cutWarning))
        }
        misuse = recorder.misuse
        return nodes
    }

    /// `render`, recorded straight into `recorder`'s wire encoding (the cell host's path), which is reset first.
    func render(accessibilityId: String, valueField: String?, field: String?, into recorder: CanvasWireRecorder) throws(RuntimeError) {
        recorder.reset(accessibilityId: accessibilityId, valueField: valueField)
        try draw(onto: CanvasWireRecorder.canvas, recorder, field: field)
        recorder.finish()
    }

    /// The pack's `render` onto `canvas`, whose callbacks receive `recorder` as their context; its log is
    /// captured and a failing status thrown.
    private func draw<Recorder: AnyObject>(
        onto canvas: UnsafeMutablePointer<fw_canvas>, _ recorder: Recorder, field: String?
    ) throws(RuntimeError) {
        let context = Unmanaged.passUnretained(recorder).toOpaque()
        let (status, log) = PackLog.capture { withExtendedLifetime(recorder) { entry.render(handle, canvas, context) } }
        if status != FW_OK { throw failure("render", status: status, field: field, log: log) }
    }

    func setSelected(_ selected: Bool) { entry.didSetSelected?(handle, selected) }
    func setHighlighted(_ highlighted: Bool) { entry.didSetHighlighted?(handle, highlighted) }
}

enum Status {
    static func name(_ status: fw_status) -> String {
        switch Int(status) {
        case Int(FW_OK): "FW_OK"
        case Int(FW_ERROR): "FW_ERROR"
        case Int(FW_INVALID_ARGUMENT): "FW_INVALID_ARGUMENT"
        case Int(FW_OUT_OF_MEMORY): "FW_OUT_OF_MEMORY"
        case Int(FW_REJECTED): "FW_REJECTED"
        case Int(FW_UNSUPPORTED): "FW_UNSUPPORTED"
        default: "status \(status)"
        }
    }
}
