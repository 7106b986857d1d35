@testable import FormworkCore
@testable import FormworkHost

/// The wire encoding of view nodes, written from `ViewNode`s: the specification the cell host's
/// `CanvasWireRecorder` writes to (as a pack draws, with no nodes made), and the reader's tests' input.
extension WireWriter {
    mutating func control(_ c: Control) {
        string(c.field)
        string(c.id)
        string(c.label)
        u8((c.disabled ? 1 : 0) | (c.required ? 2 : 0) | (c.multiline ? 4 : 0))
    }

    mutating func choices(_ choices: [Choice]) {
        array(choices) {
            $0.string($1.value)
            $0.string($1.label)
        }
    }

    mutating func node(_ n: ViewNode) {
        switch n {
        case .group(let role, let title, let children):
            u8(1)
            string(role)
            string(title)
            array(children) { $0.node($1) }
        case .label(let text, let style):
            u8(2)
            string(text)
            u32(style.abiValue)
        case .value(let label, let text):
            u8(3)
            string(label)
            string(text)
        case .textInput(let c, let text, let placeholder):
            u8(4)
            control(c)
            string(text)
            string(placeholder)
        case .toggle(let c, let isOn):
            u8(5)
            control(c)
            bool(isOn)
        case .button(let c, let role):
            u8(6)
            control(c)
            u32(role.abiValue)
        case .choice(let c, let items, let selected, let style):
            u8(7)
            control(c)
            choices(items)
            string(selected)
            u32(style.abiValue)
        case .date(let c, let seconds, let mode):
            u8(8)
            control(c)
            f64(seconds)
            u32(mode.abiValue)
        case .message(let kind, let text):
            u8(9)
            u32(kind.abiValue)
            string(text)
        case .number(let c, let value, let minimum, let maximum, let step, let style):
            u8(10)
            control(c)
            f64(value)
            f64(minimum)
            f64(maximum)
            f64(step)
            u32(style.abiValue)
        case .multiChoice(let c, let items, let selected, let style):
            u8(11)
            control(c)
            choices(items)
            strings(selected)
            u32(style.abiValue)
        }
    }
}
