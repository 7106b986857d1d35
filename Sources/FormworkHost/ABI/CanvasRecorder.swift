import CFormwork
import FormworkCore
import Glibc

/// Records a cell's canvas calls into view nodes.
///
/// The `fw_canvas` vtable is one static table; each `render` call passes a
/// recorder as `canvas_ctx`. Input from the pack is read defensively: invalid
/// UTF-8 is replaced, unbalanced groups are closed, and runaway output is cut.
final class CanvasRecorder {
    static let maxNodes = 10_000
    static let maxDepth = 32
    /// The warning shown under a cell whose output was cut.
    static let cutWarning =
        "output cut: the cell drew more than \(maxNodes) views or nested groups deeper than \(maxDepth)"

    private var stack: [(role: String, title: String?, children: [ViewNode])] = [("root", nil, [])]
    private var count = 0
    private(set) var truncated = false
    /// What the cell passed that the recorder had to correct (a number control's step of 0 or less, drawn as
    /// no step): `check` refuses it; a render goes on with the correction.
    private(set) var misuse: [String] = []

    init(accessibilityId: String, valueField: String?) {
        ids = ControlIDs(accessibilityId: accessibilityId, valueField: valueField)
    }

    /// The recorded nodes, closing any group the cell left open.
    func finish() -> [ViewNode] {
        while stack.count > 1 { endGroup() }
        return stack[0].children
    }

    func append(_ node: ViewNode) {
        guard count < Self.maxNodes else { truncated = true; return }
        count += 1
        stack[stack.count - 1].children.append(node)
    }

    func beginGroup(role: String, title: String?) {
        guard stack.count <= Self.maxDepth else { truncated = true; return }
        stack.append((role, title, []))
    }

    func endGroup() {
        guard stack.count > 1 else { return }
        let group = stack.removeLast()
        append(.group(role: group.role, title: group.title, children: group.children))
    }

    private var ids: ControlIDs

    /// A control; `action` marks a button, whose `field` names an action rather than a model field.
    func control(field: String?, label: String?, flags: UInt32, action: Bool = false) -> Control {
        let flags = ControlIDs.Flags(flags)
        return Control(
            field: field, id: ids.id(field: field, action: action), label: label, disabled: flags.disabled,
            required: flags.required, multiline: flags.multiline)
    }

    static func from(_ context: UnsafeMutableRawPointer?) -> CanvasRecorder? {
        context.map { Unmanaged<CanvasRecorder>.fromOpaque($0).takeUnretainedValue() }
    }

    /// The host's canvas, valid for the life of the process. A global because packs keep no pointer beyond a
    /// call but the ABI promises the table itself never moves; it is immutable once made.
    nonisolated(unsafe) static let canvas: UnsafeMutablePointer<fw_canvas> = {
        let c = UnsafeMutablePointer<fw_canvas>.allocate(capacity: 1)
        c.initialize(to: fw_canvas())
        c.pointee.struct_size = UInt32(MemoryLayout<fw_canvas>.size)
        c.pointee.begin_group = { ctx, role, title in
            from(ctx)?.beginGroup(role: text(role) ?? "stack", title: text(title))
        }
        c.pointee.end_group = { ctx in from(ctx)?.endGroup() }
        c.pointee.label = { ctx, value, style in
            from(ctx)?.append(.label(text: text(value) ?? "", style: LabelStyle(abiValue: style) ?? .body))
        }
        c.pointee.value = { ctx, label, value in
            from(ctx)?.append(.value(label: text(label) ?? "", text: text(value) ?? ""))
        }
        c.pointee.text_input = { ctx, field, label, value, placeholder, flags in
            guard let r = from(ctx) else { return }
            r.append(
                .textInput(
                    r.control(field: text(field), label: text(label), flags: flags), text: text(value), placeholder: text(placeholder)))
        }
        c.pointee.toggle = { ctx, field, label, on, flags in
            guard let r = from(ctx) else { return }
            r.append(.toggle(r.control(field: text(field), label: text(label), flags: flags), isOn: on))
        }
        c.pointee.button = { ctx, field, title, role, flags in
            guard let r = from(ctx) else { return }
            r.append(
                .button(
                    r.control(field: text(field), label: text(title), flags: flags, action: true),
                    role: ButtonRole(abiValue: role) ?? .default))
        }
        c.pointee.choice = { ctx, field, label, choices, count, selected, style, flags in
            guard let r = from(ctx) else { return }
            r.append(
                .choice(
                    r.control(field: text(field), label: text(label), flags: flags),
                    choices: readChoices(choices, count: count), selected: text(selected),
                    style: ChoiceStyle(abiValue: style) ?? .menu))
        }
        c.pointee.date = { ctx, field, label, hasValue, seconds, mode, flags in
            guard let r = from(ctx) else { return }
            r.append(
                .date(
                    r.control(field: text(field), label: text(label), flags: flags),
                    seconds: hasValue && seconds.isFinite ? seconds : nil,
                    mode: DatePickerMode(abiValue: mode) ?? .default))
        }
        c.pointee.number = { ctx, field, label, hasValue, value, minimum, maximum, step, style, flags in
            guard let r = from(ctx) else { return }
            func finite(_ d: Double) -> Double? { d.isFinite ? d : nil }
            if step.isFinite && step <= 0 && r.misuse.count < 8 {
                r.misuse.append(
                    "the number control for '\(text(field) ?? "")' has step \(NumberText.format(step)); a step must be greater than 0 (NaN for none)"
                )
            }
            r.append(
                .number(
                    r.control(field: text(field), label: text(label), flags: flags),
                    value: hasValue ? finite(value) : nil, minimum: finite(minimum), maximum: finite(maximum),
                    step: finite(step).flatMap { $0 > 0 ? $0 : nil }, style: NumberStyle(abiValue: style) ?? .field))
        }
        c.pointee.multi_choice = { ctx, field, label, choices, count, selected, style, flags in
            guard let r = from(ctx) else { return }
            var items: [String] = []
            if let list = selected?.pointee, list.count > 0, list.count <= 10_000, let base = list.items {
                for i in 0..<list.count { if let s = text(base[i]) { items.append(s) } }
            }
            r.append(
                .multiChoice(
                    r.control(field: text(field), label: text(label), flags: flags),
                    choices: readChoices(choices, count: count), selected: items,
                    style: MultiChoiceStyle(abiValue: style) ?? .checkboxes))
        }
        c.pointee.message = { ctx, kind, value in
            from(ctx)?.append(.message(kind: MessageKind(abiValue: kind) ?? .hint, text: text(value) ?? ""))
        }
        return c
    }()

    /// A pack string: invalid UTF-8 is repaired rather than trusted.
    static func text(_ pointer: UnsafePointer<CChar>?) -> String? {
        guard let pointer else { return nil }
        return String(decoding: UnsafeRawBufferPointer(start: pointer, count: length(pointer)), as: UTF8.self)
    }

    static func readChoices(_ base: UnsafePointer<fw_choice>?, count: UInt32) -> [Choice] {
        var out: [Choice] = []
        forEachChoice(base, count: count) { value, label in
            let v = text(value)!
            // A label that is the value's own string (most are) is not read twice.
            out.append(Choice(value: v, label: label == value ? v : text(label) ?? v))
        }
        return out
    }

    /// Calls `body` with the value and label of each choice a pack passed (its array read at the stride the
    /// first element declares), skipping a choice without a value; nothing for a count of 0 or above 10,000
    /// or a stride this host does not accept.
    static func forEachChoice(
        _ base: UnsafePointer<fw_choice>?, count: UInt32,
        _ body: (_ value: UnsafePointer<CChar>, _ label: UnsafePointer<CChar>?) -> Void
    ) {
        guard let base, count > 0, count <= 10_000 else { return }
        let raw = UnsafeRawPointer(base)
        let stride = Int(raw.loadUnaligned(as: UInt32.self))
        guard stride >= DescriptorReader.minimumSize.choice, stride <= DescriptorReader.maximumStride else { return }
        for i in 0..<Int(count) {
            let c = DescriptorReader.copy(fw_choice.self, from: raw + i * stride, declaredSize: stride)
            guard let value = c.value else { continue }
            body(value, c.label)
        }
    }

    /// The length of a pack string as `text` reads it (at most `DescriptorReader.maxStringLength * 16` bytes).
    static func length(_ pointer: UnsafePointer<CChar>) -> Int { strnlen(pointer, DescriptorReader.maxStringLength * 16) }
}

/// The ids a render gives its controls: the field's accessibility id, `-<model field>` after it for a
/// control of another field, and `-2`, `-3` … after that for an id already given.
struct ControlIDs {
    private(set) var accessibilityId: String
    private(set) var valueField: String?
    /// The ids given so far: the first `usedCount` of a short list for the few controls of most cells (no
    /// hashing, no table allocated per render; emptied by setting the count, its slots overwritten by the next
    /// render), a set once there are more.
    private var usedList: [String] = []
    private var usedCount = 0
    private var usedSet: Set<String> = []
    /// For an id asked for again: the next suffix to try (every smaller one is taken), so a cell that draws
    /// thousands of controls for one field is not quadratic.
    private var nextSuffix: [String: Int] = [:]

    init(accessibilityId: String, valueField: String?) {
        self.accessibilityId = accessibilityId
        self.valueField = valueField
    }

    /// Empties the ids for the render of another field, keeping the list's storage (the cell host's recorder
    /// records one field after another: a new list allocated and freed per render is work for nothing).
    mutating func reset(accessibilityId: String, valueField: String?) {
        self.accessibilityId = accessibilityId
        self.valueField = valueField
        // The list's slots are left for the next render to overwrite: the generic removal of its strings is
        // measurable on every render.
        usedCount = 0
        if !usedSet.isEmpty { usedSet = [] }
        if !nextSuffix.isEmpty { nextSuffix = [:] }
    }

    private func isUsed(_ id: String) -> Bool {
        guard usedSet.isEmpty else { return usedSet.contains(id) }
        for i in 0..<usedCount where usedList[i] == id { return true }
        return false
    }

    private mutating func markUsed(_ id: String) {
        if !usedSet.isEmpty {
            usedSet.insert(id)
        } else if usedCount < 8 {
            if usedCount < usedList.count { usedList[usedCount] = id } else { usedList.append(id) }
            usedCount += 1
        } else {
            usedSet = Set(usedList[..<usedCount])
            usedSet.insert(id)
        }
    }

    /// The id of the next control for `field`; `action` marks a button, whose `field` names an action.
    mutating func id(field: String?, action: Bool) -> String {
        id(base: action || field == nil || field == valueField ? accessibilityId : "\(accessibilityId)-\(field!)")
    }

    /// `id(field:action:)` for a pack's C string, read only when the id names it: most controls are bound to
    /// the value field, whose id is the accessibility id (the cell host made a string of every field name).
    mutating func id(field: UnsafePointer<CChar>?, action: Bool) -> String {
        guard let field, !action, !isValueField(field) else { return id(base: accessibilityId) }
        return id(base: "\(accessibilityId)-\(CanvasRecorder.text(field)!)")
    }

    /// Whether the NUL-terminated `field` names `valueField`, as `==` on the two strings decides: by their bytes
    /// (its bytes, then the NUL; read no further than its NUL) while they are ASCII, where equal strings are equal
    /// bytes (a schema's names are), and by the strings themselves from the first byte that is not.
    private func isValueField(_ field: UnsafePointer<CChar>) -> Bool {
        guard var name = valueField else { return false }
        let equal: Bool? = name.withUTF8 { bytes in
            let raw = UnsafeRawPointer(field)
            for i in 0..<bytes.count {
                let b = raw.load(fromByteOffset: i, as: UInt8.self)
                if b >= 0x80 || bytes[i] >= 0x80 { return nil }
                if b != bytes[i] || b == 0 { return false }
            }
            let next = raw.load(fromByteOffset: bytes.count, as: UInt8.self)
            return next >= 0x80 ? nil : next == 0
        }
        return equal ?? (CanvasRecorder.text(field) == name)
    }

    private mutating func id(base: String) -> String {
        var id = base
        if isUsed(base) {
            var n = nextSuffix[base] ?? 2
            while isUsed("\(base)-\(n)") { n += 1 }
            nextSuffix[base] = n + 1
            id = "\(base)-\(n)"
        }
        markUsed(id)
        return id
    }

    /// A control's `FW_CONTROL_*` flags.
    struct Flags {
        let disabled: Bool, required: Bool, multiline: Bool
        init(_ flags: UInt32) {
            disabled = flags & UInt32(FW_CONTROL_DISABLED) != 0
            required = flags & UInt32(FW_CONTROL_REQUIRED) != 0
            multiline = flags & UInt32(FW_CONTROL_MULTILINE) != 0
        }
        /// As the wire carries them.
        var wire: UInt8 { (disabled ? 1 : 0) | (required ? 2 : 0) | (multiline ? 4 : 0) }
    }
}
