import CFormwork
import Glibc

/// The host's drawing surface for one `render` call.
///
/// Wraps the `fw_canvas` vtable; every string is passed for the call only and
/// the host copies it. A function the host's canvas does not have (an older
/// host, smaller `struct_size`) is skipped.
public struct Canvas {
    public enum LabelStyle: UInt32, Sendable { case body = 0, title = 1, caption = 2, emphasis = 3 }
    public enum ButtonRole: UInt32, Sendable { case `default` = 0, primary = 1, cancel = 2, destructive = 3 }
    public enum ChoiceStyle: UInt32, Sendable { case menu = 0, segments = 1 }
    public enum MessageKind: UInt32, Sendable { case hint = 0, error = 1, warning = 2 }
    /// ABI 1.1: how a number is edited.
    public enum NumberStyle: UInt32, Sendable { case field = 0, stepper = 1, slider = 2 }
    /// ABI 1.1: how several choices are shown.
    public enum MultiChoiceStyle: UInt32, Sendable { case checkboxes = 0, list = 1 }
    public struct Flags: OptionSet, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        public static let disabled = Flags(rawValue: UInt32(FW_CONTROL_DISABLED))
        public static let required = Flags(rawValue: UInt32(FW_CONTROL_REQUIRED))
        public static let multiline = Flags(rawValue: UInt32(FW_CONTROL_MULTILINE))
    }

    let vtable: fw_canvas
    let context: UnsafeMutableRawPointer?

    init(_ pointer: UnsafePointer<fw_canvas>, context: UnsafeMutableRawPointer?) {
        // Copy no more than the host declared.
        var local = fw_canvas()
        let size = min(Int(pointer.pointee.struct_size), MemoryLayout<fw_canvas>.size)
        withUnsafeMutableBytes(of: &local) { $0.copyMemory(from: UnsafeRawBufferPointer(start: pointer, count: size)) }
        vtable = local
        self.context = context
    }

    /// Draws `content` inside a group (a row, a stack).
    public func group(_ role: String = "stack", title: String? = nil, _ content: () -> Void) {
        withOptionalCString(role) { role in
            withOptionalCString(title) { title in vtable.begin_group?(context, role, title) }
        }
        content()
        vtable.end_group?(context)
    }

    public func label(_ text: String, style: LabelStyle = .body) {
        text.withCString { vtable.label?(context, $0, style.rawValue) }
    }

    public func value(label: String, text: String) {
        label.withCString { l in text.withCString { t in vtable.value?(context, l, t) } }
    }

    public func textInput(field: String, label: String?, text: String?, placeholder: String?, flags: Flags = []) {
        withOptionalCString(field) { f in
            withOptionalCString(label) { l in
                withOptionalCString(text) { t in
                    withOptionalCString(placeholder) { p in vtable.text_input?(context, f, l, t, p, flags.rawValue) }
                }
            }
        }
    }

    public func toggle(field: String, label: String, isOn: Bool, flags: Flags = []) {
        field.withCString { f in label.withCString { l in vtable.toggle?(context, f, l, isOn, flags.rawValue) } }
    }

    public func button(field: String?, title: String, role: ButtonRole = .default, flags: Flags = []) {
        withOptionalCString(field) { f in title.withCString { t in vtable.button?(context, f, t, role.rawValue, flags.rawValue) } }
    }

    public func choice(
        field: String, label: String?, choices: [(value: String, label: String)], selected: String?,
        style: ChoiceStyle = .menu, flags: Flags = []
    ) {
        withChoices(choices) { array, _ in choice(field: field, label: label, array, selected: selected, style: style, flags: flags) }
    }

    /// A choice among `values`, each shown as itself (its label is its value): what `choice(field:label:choices:…)`
    /// draws with `values.map { ($0, $0) }`, without making the pairs.
    public func choice(
        field: String, label: String?, values: [String], selected: String?, style: ChoiceStyle = .menu, flags: Flags = []
    ) {
        withChoices(values: values) { array, _ in choice(field: field, label: label, array, selected: selected, style: style, flags: flags)
        }
    }

    private func choice(
        field: String, label: String?, _ array: UnsafeBufferPointer<fw_choice>, selected: String?, style: ChoiceStyle, flags: Flags
    ) {
        withOptionalCString(field) { f in
            withOptionalCString(label) { l in
                withOptionalCString(selected) { s in
                    vtable.choice?(context, f, l, array.baseAddress, UInt32(array.count), s, style.rawValue, flags.rawValue)
                }
            }
        }
    }

    /// A date input; `seconds` since 1970-01-01T00:00:00Z, nil when empty.
    public func date(field: String, label: String?, seconds: Double?, mode: TextTraits.DateMode? = nil, flags: Flags = []) {
        withOptionalCString(field) { f in
            withOptionalCString(label) { l in
                vtable.date?(context, f, l, seconds != nil, seconds ?? 0, mode?.rawValue ?? 0, flags.rawValue)
            }
        }
    }

    public func message(_ text: String, kind: MessageKind = .hint) {
        text.withCString { vtable.message?(context, kind.rawValue, $0) }
    }

    /// Whether the host's canvas has the ABI 1.1 controls (`number`, `multiChoice`).
    /// A 1.0 host does not: draw a fallback (a text input, a value) instead.
    public var hasNumberAndMultiChoice: Bool { vtable.number != nil && vtable.multi_choice != nil }

    /// ABI 1.1: a number input bound to an integer or number field; nil bounds and step are absent.
    public func number(
        field: String, label: String?, value: Double?, minimum: Double? = nil, maximum: Double? = nil,
        step: Double? = nil, style: NumberStyle = .field, flags: Flags = []
    ) {
        withOptionalCString(field) { f in
            withOptionalCString(label) { l in
                vtable.number?(
                    context, f, l, value != nil, value ?? 0, minimum ?? .nan, maximum ?? .nan, step ?? .nan,
                    style.rawValue, flags.rawValue)
            }
        }
    }

    /// ABI 1.1: several choices at once, bound to a choice-list field.
    public func multiChoice(
        field: String, label: String?, choices: [(value: String, label: String)], selected: [String],
        style: MultiChoiceStyle = .checkboxes, flags: Flags = []
    ) {
        withChoices(choices, extra: selected) { array, items in
            multiChoice(field: field, label: label, array, selected: items, style: style, flags: flags)
        }
    }

    /// ABI 1.1: several choices among `values`, each shown as itself (see `choice(field:label:values:…)`).
    public func multiChoice(
        field: String, label: String?, values: [String], selected: [String], style: MultiChoiceStyle = .checkboxes,
        flags: Flags = []
    ) {
        withChoices(values: values, extra: selected) { array, items in
            multiChoice(field: field, label: label, array, selected: items, style: style, flags: flags)
        }
    }

    private func multiChoice(
        field: String, label: String?, _ array: UnsafeBufferPointer<fw_choice>,
        selected items: UnsafeBufferPointer<UnsafePointer<CChar>?>, style: MultiChoiceStyle, flags: Flags
    ) {
        withOptionalCString(field) { f in
            withOptionalCString(label) { l in
                var list = fw_string_list(items: items.baseAddress, count: items.count)
                vtable.multi_choice?(context, f, l, array.baseAddress, UInt32(array.count), &list, style.rawValue, flags.rawValue)
            }
        }
    }
}

/// `choices` as `fw_choice`s and `extra` as C strings, all in temporary buffers (NUL-terminated; a label equal
/// to its value is not copied twice), valid during `body`: no allocation per string or per call, each string
/// copied whole (NULL arrays when there are none).
func withChoices<R>(
    _ choices: [(value: String, label: String)], extra: [String] = [],
    _ body: (UnsafeBufferPointer<fw_choice>, UnsafeBufferPointer<UnsafePointer<CChar>?>) -> R
) -> R {
    var total = 0
    for choice in choices { total += choice.value.utf8.count + 1 + (choice.label == choice.value ? 0 : choice.label.utf8.count + 1) }
    return withChoiceStorage(count: choices.count, bytes: total, extra: extra, body) { i, copy in
        let value = copy(choices[i].value)
        return (value, choices[i].label == choices[i].value ? value : copy(choices[i].label))
    }
}

/// `withChoices` for choices whose labels are their values: each string copied once, the label pointing at
/// the value's copy (no pairs made, no strings compared).
func withChoices<R>(
    values: [String], extra: [String] = [],
    _ body: (UnsafeBufferPointer<fw_choice>, UnsafeBufferPointer<UnsafePointer<CChar>?>) -> R
) -> R {
    var total = 0
    for value in values { total += value.utf8.count + 1 }
    return withChoiceStorage(count: values.count, bytes: total, extra: extra, body) { i, copy in
        let value = copy(values[i])
        return (value, value)
    }
}

/// The buffers of `withChoices`: `count` `fw_choice`s whose strings `choice` copies (by the function it is
/// given) into `total` bytes made for them, and `extra`'s strings after them.
private func withChoiceStorage<R>(
    count: Int, bytes total: Int, extra: [String],
    _ body: (UnsafeBufferPointer<fw_choice>, UnsafeBufferPointer<UnsafePointer<CChar>?>) -> R,
    choice: (Int, (String) -> UnsafePointer<CChar>) -> (value: UnsafePointer<CChar>, label: UnsafePointer<CChar>)
) -> R {
    var total = total
    for s in extra { total += s.utf8.count + 1 }
    return withUnsafeTemporaryAllocation(of: CChar.self, capacity: max(total, 1)) { buffer in
        var used = 0
        func copy(_ s: String) -> UnsafePointer<CChar> {
            let start = buffer.baseAddress! + used
            let copied = s.utf8.withContiguousStorageIfAvailable { utf8 in
                if let base = utf8.baseAddress { UnsafeMutableRawPointer(start).copyMemory(from: base, byteCount: utf8.count) }
                return utf8.count
            }
            if let copied {
                used += copied
            } else {
                for byte in s.utf8 {
                    buffer[used] = CChar(bitPattern: byte)
                    used += 1
                }
            }
            buffer[used] = 0
            used += 1
            return UnsafePointer(start)
        }
        return withUnsafeTemporaryAllocation(of: fw_choice.self, capacity: max(count, 1)) { array in
            for i in 0..<count {
                let (value, label) = choice(i, copy)
                array.initializeElement(
                    at: i, to: fw_choice(struct_size: UInt32(MemoryLayout<fw_choice>.size), reserved: 0, value: value, label: label))
            }
            return withUnsafeTemporaryAllocation(of: UnsafePointer<CChar>?.self, capacity: max(extra.count, 1)) { items in
                for (i, s) in extra.enumerated() { items.initializeElement(at: i, to: copy(s)) }
                return body(
                    UnsafeBufferPointer(start: count == 0 ? nil : array.baseAddress, count: count),
                    UnsafeBufferPointer(start: extra.isEmpty ? nil : items.baseAddress, count: extra.count))
            }
        }
    }
}

func withOptionalCString<R>(_ s: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
    guard let s else { return body(nil) }
    return s.withCString { body($0) }
}
