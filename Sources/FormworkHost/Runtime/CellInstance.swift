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
    private let marshaller = CMarshaller()

    init(_ cell: CellType, entry: CellEntry) throws(RuntimeError) {
        if let failure = entry.lifecycle.retain() {
            throw RuntimeError(
                cellID: cell.id, fieldID: nil, packPath: cell.packPath,
                message: "fw_pack.init failed with status \(failure.status)" + PackLog.suffix(failure.log))
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
        fieldTypes = cell.fields.map(\.type)
        typedLayout = entry.typed?.layout
        typedFunction = entry.typed?.function
        typedConvention = entry.typed?.convention ?? .byValue
        genericConfigure = entry.configure
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
    /// `defaults` (schema order, as long as the schema), when given, holds what an absent value takes.
    func configure(_ values: [Value?], defaults: [Value?]? = nil, field: String?, forceGeneric: Bool = false) throws(RuntimeError) {
        let session = PackLog.begin()
        let status: fw_status
        if !forceGeneric, let layout = typedLayout, let function = typedFunction {
            do throws(TypedModelLayout.LayoutError) {
                status = try layout.call(
                    function, convention: typedConvention, cell: handle, values: values, defaults: defaults, marshaller: marshaller)
            } catch {
                marshaller.reset()
                PackLog.end(session)
                throw RuntimeError(cellID: cell.id, fieldID: field, packPath: cell.packPath, message: "libffi: \(error)")
            }
        } else {
            // The fw_value array lives on the stack; its strings and lists in the marshaller's chunk.
            let count = defaults == nil ? min(values.count, fieldTypes.count) : fieldTypes.count
            status = withUnsafeTemporaryAllocation(of: fw_value.self, capacity: max(count, 1)) { array in
                values.withUnsafeBufferPointer { values in
                    for i in 0..<count {
                        if i < values.count, let value = values[i] {
                            array.initializeElement(at: i, to: marshaller.value(value, as: fieldTypes[i]))
                        } else if let value = defaults?[i] {
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
        guard status == FW_OK else {
            let what = !forceGeneric && typedLayout != nil ? "typed configure" : "configure"
            throw failure(what, status: status, field: field, log: PackLog.end(session, keepingMessages: true))
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
        let (status, log) = PackLog.capture {
            CMarshaller.with { marshaller in
                var v = marshaller.value(value, as: type)
                return name.withCString { valueChanged(handle, $0, &v, &message) }
            }
        }
        return (status, CanvasRecorder.text(message) ?? (log.isEmpty ? nil : log.joined(separator: "; ")))
    }

    func render(accessibilityId: String, valueField: String?, field: String?) throws(RuntimeError) -> [ViewNode] {
        let recorder = CanvasRecorder(accessibilityId: accessibilityId, valueField: valueField)
        let context = Unmanaged.passUnretained(recorder).toOpaque()
        let (status, log) = PackLog.capture { withExtendedLifetime(recorder) { entry.render(handle, CanvasRecorder.canvas, context) } }
        if status != FW_OK { throw failure("render", status: status, field: field, log: log) }
        var nodes = recorder.finish()
        if recorder.truncated {
            nodes.append(
                .message(
                    kind: .warning,
                    text:
                        "output cut: the cell drew more than \(CanvasRecorder.maxNodes) views or nested groups deeper than \(CanvasRecorder.maxDepth)"
                ))
        }
        return nodes
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
