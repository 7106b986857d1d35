import CFormwork
import FormworkCore
import Glibc

/// Records a cell's canvas calls straight into the wire encoding of its view nodes, for the cell host: the
/// bytes are those `WireWriter.node` writes for the nodes `CanvasRecorder` would record, so the host decodes
/// the same views. No `String`, `ViewNode` or array is made per call: a pack's strings are copied as bytes
/// (their UTF-8 is repaired by the host as it reads them, as `CanvasRecorder.text` would have repaired it),
/// only a control's model field is read as text (its id is made from it).
///
/// The same limits as `CanvasRecorder`: at most `CanvasRecorder.maxNodes` nodes (a group counts when it is
/// closed, and one closed past the limit is taken back out with its children), groups nested at most
/// `CanvasRecorder.maxDepth` deep, unbalanced groups closed, and a warning appended when output was cut.
final class CanvasWireRecorder {
    /// The encoded nodes of the root, in order (their count is `rootCount`).
    private(set) var out = WireWriter(capacity: 1 << 12)
    private(set) var rootCount: UInt32 = 0
    /// Open groups: where the group's node starts, where its child count goes, and its children so far.
    private var stack: [(start: Int, countAt: Int, children: UInt32)] = []
    private var count = 0
    private(set) var truncated = false
    private var ids = ControlIDs(accessibilityId: "", valueField: nil)

    /// Empties the recorder for a render of the field with `accessibilityId`.
    func reset(accessibilityId: String, valueField: String?) {
        clear()
        ids.reset(accessibilityId: accessibilityId, valueField: valueField)
    }

    /// Empties what was recorded (a request that renders nothing answers no views); the control ids are
    /// left for `reset`, which every render starts with.
    func clear() {
        out.removeAll()
        rootCount = 0
        if !stack.isEmpty { stack.removeAll(keepingCapacity: true) }
        count = 0
        truncated = false
    }

    /// Closes any group the cell left open and appends the warning when output was cut.
    func finish() {
        while !stack.isEmpty { endGroup() }
        if truncated {
            out.u8(9)
            out.u32(MessageKind.warning.abiValue)
            out.string(CanvasRecorder.cutWarning)
            rootCount += 1
        }
    }

    /// Counts a node about to be written; false (and output marked cut) past the limit.
    private func admit() -> Bool {
        guard count < CanvasRecorder.maxNodes else {
            truncated = true
            return false
        }
        count += 1
        if stack.isEmpty { rootCount += 1 } else { stack[stack.count - 1].children += 1 }
        return true
    }

    func beginGroup(role: UnsafePointer<CChar>?, title: UnsafePointer<CChar>?) {
        // As `CanvasRecorder`: the root is the first level, so `maxDepth` groups may be open below it.
        guard stack.count + 1 <= CanvasRecorder.maxDepth else {
            truncated = true
            return
        }
        let start = out.count
        out.u8(1)
        if let role { string(role) } else { out.string("stack") }
        optionalString(title)
        stack.append((start, out.count, 0))
        out.u32(0)
    }

    func endGroup() {
        guard let group = stack.popLast() else { return }
        patch(group.countAt, group.children)
        // The group is a node of its parent once closed; past the limit it is taken out with its children.
        if !admit() { out.truncate(to: group.start) }
    }

    /// A pack string's bytes, as `WireWriter.string` writes a string.
    private func string(_ p: UnsafePointer<CChar>) {
        let n = CanvasRecorder.length(p)
        out.u32(UInt32(n))
        p.withMemoryRebound(to: UInt8.self, capacity: n) { out.raw(UnsafeBufferPointer(start: $0, count: n)) }
    }

    private func optionalString(_ p: UnsafePointer<CChar>?) {
        guard let p else { return out.u8(0) }
        out.u8(1)
        string(p)
    }

    /// `string`, or an empty string for NULL.
    private func text(_ p: UnsafePointer<CChar>?) {
        if let p { string(p) } else { out.u32(0) }
    }

    private func control(field: UnsafePointer<CChar>?, label: UnsafePointer<CChar>?, flags: UInt32, action: Bool = false) {
        optionalString(field)
        out.string(ids.id(field: field, action: action))
        optionalString(label)
        out.u8(ControlIDs.Flags(flags).wire)
    }

    private func choices(_ base: UnsafePointer<fw_choice>?, count: UInt32) {
        let countAt = out.count
        out.u32(0)
        var n: UInt32 = 0
        CanvasRecorder.forEachChoice(base, count: count) { value, label in
            string(value)
            // A missing label is the value's.
            string(label ?? value)
            n += 1
        }
        patch(countAt, n)
    }

    /// Writes `count` over the placeholder at `offset` (a count known once its items are written).
    private func patch(_ offset: Int, _ count: UInt32) {
        out.patch(offset, count)
    }

    private func optionalFinite(_ d: Double?) {
        if let d, d.isFinite { out.f64(Optional(d)) } else { out.f64(nil as Double?) }
    }

    static func from(_ context: UnsafeMutableRawPointer?) -> CanvasWireRecorder? {
        context.map { Unmanaged<CanvasWireRecorder>.fromOpaque($0).takeUnretainedValue() }
    }

    /// The cell host's canvas, valid for the life of the process (a global for the same reason as
    /// `CanvasRecorder.canvas`; immutable once made). Each callback writes one node: the node's
    /// tag, then its members in the order `WireWriter.node` writes them, enums as the cases they decode to.
    nonisolated(unsafe) static let canvas: UnsafeMutablePointer<fw_canvas> = {
        let c = UnsafeMutablePointer<fw_canvas>.allocate(capacity: 1)
        c.initialize(to: fw_canvas())
        c.pointee.struct_size = UInt32(MemoryLayout<fw_canvas>.size)
        c.pointee.begin_group = { ctx, role, title in from(ctx)?.beginGroup(role: role, title: title) }
        c.pointee.end_group = { ctx in from(ctx)?.endGroup() }
        c.pointee.label = { ctx, value, style in
            guard let r = from(ctx), r.admit() else { return }
            r.out.u8(2)
            r.text(value)
            r.out.u32((LabelStyle(abiValue: style) ?? .body).abiValue)
        }
        c.pointee.value = { ctx, label, value in
            guard let r = from(ctx), r.admit() else { return }
            r.out.u8(3)
            r.text(label)
            r.text(value)
        }
        c.pointee.text_input = { ctx, field, label, value, placeholder, flags in
            guard let r = from(ctx), r.admit() else { return }
            r.out.u8(4)
            r.control(field: field, label: label, flags: flags)
            r.optionalString(value)
            r.optionalString(placeholder)
        }
        c.pointee.toggle = { ctx, field, label, on, flags in
            guard let r = from(ctx), r.admit() else { return }
            r.out.u8(5)
            r.control(field: field, label: label, flags: flags)
            r.out.bool(on)
        }
        c.pointee.button = { ctx, field, title, role, flags in
            guard let r = from(ctx), r.admit() else { return }
            r.out.u8(6)
            r.control(field: field, label: title, flags: flags, action: true)
            r.out.u32((ButtonRole(abiValue: role) ?? .default).abiValue)
        }
        c.pointee.choice = { ctx, field, label, choices, count, selected, style, flags in
            guard let r = from(ctx), r.admit() else { return }
            r.out.u8(7)
            r.control(field: field, label: label, flags: flags)
            r.choices(choices, count: count)
            r.optionalString(selected)
            r.out.u32((ChoiceStyle(abiValue: style) ?? .menu).abiValue)
        }
        c.pointee.date = { ctx, field, label, hasValue, seconds, mode, flags in
            guard let r = from(ctx), r.admit() else { return }
            r.out.u8(8)
            r.control(field: field, label: label, flags: flags)
            r.optionalFinite(hasValue ? seconds : nil)
            r.out.u32((DatePickerMode(abiValue: mode) ?? .default).abiValue)
        }
        c.pointee.number = { ctx, field, label, hasValue, value, minimum, maximum, step, style, flags in
            guard let r = from(ctx), r.admit() else { return }
            r.out.u8(10)
            r.control(field: field, label: label, flags: flags)
            r.optionalFinite(hasValue ? value : nil)
            r.optionalFinite(minimum)
            r.optionalFinite(maximum)
            r.optionalFinite(step > 0 ? step : nil)
            r.out.u32((NumberStyle(abiValue: style) ?? .field).abiValue)
        }
        c.pointee.multi_choice = { ctx, field, label, choices, count, selected, style, flags in
            guard let r = from(ctx), r.admit() else { return }
            r.out.u8(11)
            r.control(field: field, label: label, flags: flags)
            r.choices(choices, count: count)
            let countAt = r.out.count
            r.out.u32(0)
            var n: UInt32 = 0
            if let list = selected?.pointee, list.count > 0, list.count <= 10_000, let base = list.items {
                for i in 0..<Int(list.count) {
                    guard let item = base[i] else { continue }
                    r.string(item)
                    n += 1
                }
            }
            r.patch(countAt, n)
            r.out.u32((MultiChoiceStyle(abiValue: style) ?? .checkboxes).abiValue)
        }
        c.pointee.message = { ctx, kind, value in
            guard let r = from(ctx), r.admit() else { return }
            r.out.u8(9)
            r.out.u32((MessageKind(abiValue: kind) ?? .hint).abiValue)
            r.text(value)
        }
        return c
    }()
}
