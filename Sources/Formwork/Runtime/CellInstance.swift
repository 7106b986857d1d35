import CFormwork
import Glibc

/// Why the runtime could not drive a cell.
public struct RuntimeError: Error, Sendable, CustomStringConvertible {
    public var cellID: String
    public var fieldID: String?
    public var packPath: String
    public var message: String

    public var description: String {
        "cell '\(cellID)'" + (fieldID.map { " (field '\($0)')" } ?? "") + " from \(packPath): \(message)"
    }
}

/// One live instance of a cell type, created through the ABI.
final class CellInstance {
    let cell: CellType
    let entry: CellEntry
    let handle: UnsafeMutableRawPointer

    init(_ cell: CellType) throws(RuntimeError) {
        guard let entry = cell.entry else {
            throw RuntimeError(cellID: cell.id, fieldID: nil, packPath: cell.packPath, message: "has no vtable")
        }
        if let status = entry.lifecycle.retain() {
            throw RuntimeError(cellID: cell.id, fieldID: nil, packPath: cell.packPath,
                               message: "fw_pack.init failed with status \(status)" + (Host.shared.drainLog().map { ": \($0)" } ?? ""))
        }
        guard let handle = entry.create(entry.descriptor.assumingMemoryBound(to: fw_cell_type.self), Host.shared.pointer) else {
            entry.lifecycle.release()
            throw RuntimeError(cellID: cell.id, fieldID: nil, packPath: cell.packPath,
                               message: "create returned NULL" + (Host.shared.drainLog().map { ": \($0)" } ?? ""))
        }
        self.cell = cell
        self.entry = entry
        self.handle = handle
    }

    deinit {
        entry.destroy(handle)
        entry.lifecycle.release()
    }

    func failure(_ what: String, status: fw_status, field: String?) -> RuntimeError {
        RuntimeError(cellID: cell.id, fieldID: field, packPath: cell.packPath,
                     message: "\(what) returned \(Status.name(status))" + (Host.shared.drainLog().map { ": \($0)" } ?? ""))
    }

    /// Configures with `values` (schema order), through the typed entry when the cell declares one.
    func configure(_ values: [Value?], field: String?, forceGeneric: Bool = false) throws(RuntimeError) {
        _ = Host.shared.drainLog()
        let status: fw_status
        if !forceGeneric, case .typed(let convention, _, _) = cell.configure, let function = entry.typedConfigure, let layout = entry.typedLayout {
            do { status = try layout.call(function, convention: convention, cell: handle, values: values) } catch {
                throw RuntimeError(cellID: cell.id, fieldID: field, packPath: cell.packPath, message: "libffi: \(error)")
            }
            if status != FW_OK { throw failure("typed configure", status: status, field: field) }
        } else {
            status = CValues.with(values, types: cell.fields.map(\.type)) { pointer, count in
                entry.configure(handle, pointer, count)
            }
            if status != FW_OK { throw failure("configure", status: status, field: field) }
        }
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
        let status = CValues.with([value], types: [type]) { pointer, _ in
            name.withCString { valueChanged(handle, $0, pointer, &message) }
        }
        return (status, CanvasRecorder.text(message))
    }

    func render(accessibilityId: String, valueField: String?, field: String?) throws(RuntimeError) -> [ViewNode] {
        let recorder = CanvasRecorder(accessibilityId: accessibilityId, valueField: valueField)
        let context = Unmanaged.passUnretained(recorder).toOpaque()
        let status = withExtendedLifetime(recorder) { entry.render(handle, CanvasRecorder.canvas, context) }
        if status != FW_OK { throw failure("render", status: status, field: field) }
        var nodes = recorder.finish()
        if recorder.truncated {
            nodes.append(.message(kind: .warning, text: "output cut: the cell drew more than \(CanvasRecorder.maxNodes) views or nested groups deeper than \(CanvasRecorder.maxDepth)"))
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

/// `fw_value` arrays for the generic path; every pointer lives only for the call.
enum CValues {
    static func with<R>(_ values: [Value?], types: [FieldType], _ body: (UnsafePointer<fw_value>?, UInt32) -> R) -> R {
        var owned: [UnsafeMutableRawPointer] = []
        defer { owned.forEach { free($0) } }
        func cString(_ s: String) -> UnsafePointer<CChar> {
            let c = strdup(s)!
            owned.append(UnsafeMutableRawPointer(c))
            return UnsafePointer(c)
        }
        var array = [fw_value](repeating: fw_value(), count: values.count)
        for (i, value) in values.enumerated() {
            guard let value else { continue }
            var v = fw_value()
            v.type = types[i].cValue
            switch value {
            case .string(let s): v.as.string = cString(s)
            case .bool(let b): v.as.boolean = b
            case .integer(let n):
                if types[i] == .integer { v.as.integer = n } else { v.as.number = Double(n) }
            case .number(let d): v.as.number = d
            case .stringList(let items):
                let raw = malloc(max(items.count, 1) * MemoryLayout<UnsafePointer<CChar>?>.stride)!
                owned.append(raw)
                let list = raw.bindMemory(to: UnsafePointer<CChar>?.self, capacity: max(items.count, 1))
                for (j, item) in items.enumerated() { list[j] = cString(item) }
                v.as.list = fw_string_list(items: UnsafePointer(list), count: items.count)
            }
            array[i] = v
        }
        return array.withUnsafeBufferPointer { body($0.baseAddress, UInt32($0.count)) }
    }
}
