/// One key press (or event) of an interactive terminal form.
public enum Key: Sendable, Equatable {
    /// A printable character (text typed, one grapheme at a time).
    case character(Character)
    /// Text pasted at once (bracketed paste), offered to the field as one edit.
    case paste(String)
    case enter, tab, backTab, escape, backspace, delete
    case up, down, left, right, home, end, pageUp, pageDown
    /// Word moves: Ctrl-Left / Alt-B and Ctrl-Right / Alt-F.
    case wordLeft, wordRight
    /// Ctrl-A … Ctrl-Z that have no other meaning, by letter (`control("k")` is Ctrl-K).
    case control(Character)
    /// The terminal changed size.
    case resize
}

/// Turns the bytes a terminal sends in raw mode into keys: UTF-8 text, control
/// characters, CSI and SS3 sequences (xterm, VT220, rxvt and tmux spellings),
/// Alt-letter as ESC + letter, and bracketed paste (`ESC [200~ … ESC [201~`).
///
/// Bytes are fed as they arrive; a sequence split across reads is kept until the
/// rest comes. A lone ESC is ambiguous until the terminal has been quiet for a
/// moment: the caller asks `flushEscape()` after a short timeout.
public struct KeyDecoder: Sendable {
    private var pending: [UInt8] = []
    private var pasting: [UInt8]? = nil

    public init() {}

    /// Whether bytes are held waiting for the rest of a sequence.
    public var isWaiting: Bool { !pending.isEmpty }

    /// The keys completed by `bytes`.
    public mutating func feed<Bytes: Sequence>(_ bytes: Bytes) -> [Key] where Bytes.Element == UInt8 {
        pending.append(contentsOf: bytes)
        var keys: [Key] = []
        while let (key, used) = next() {
            pending.removeFirst(used)
            if let key { keys.append(key) }
        }
        return keys
    }

    /// A held lone ESC (or an unfinished sequence) after the terminal went quiet: the Escape key.
    public mutating func flushEscape() -> [Key] {
        guard !pending.isEmpty else { return [] }
        let rest = Array(pending.dropFirst())
        pending = []
        return [.escape] + feed(rest)
    }

    /// The next key and the bytes it used; nil when more bytes are needed. A nil key
    /// with a count consumes bytes that mean nothing (an unknown sequence).
    private mutating func next() -> (Key?, Int)? {
        guard let first = pending.first else { return nil }
        if pasting != nil { return pasteByte() }
        switch first {
        case 0x1B: return escape()
        case 0x0D, 0x0A: return (.enter, 1)
        case 0x09: return (.tab, 1)
        case 0x7F, 0x08: return (.backspace, 1)
        case 0x01...0x1A: return (.control(Character(Unicode.Scalar(first + 0x60))), 1)
        case 0x00, 0x1C...0x1F: return (nil, 1)
        default: return utf8()
        }
    }

    private func utf8() -> (Key?, Int)? {
        let first = pending[0]
        let length =
            first < 0x80 ? 1 : first >> 5 == 0b110 ? 2 : first >> 4 == 0b1110 ? 3 : first >> 3 == 0b11110 ? 4 : 0
        guard length > 0 else { return (nil, 1) }  // a stray continuation byte
        guard pending.count >= length else { return nil }
        let scalarBytes = pending[0..<length]
        guard scalarBytes.dropFirst().allSatisfy({ $0 & 0xC0 == 0x80 }) else { return (nil, 1) }
        let text = String(decoding: scalarBytes, as: UTF8.self)
        guard let character = text.first, !text.unicodeScalars.contains(where: { (0x80...0x9F).contains($0.value) }) else {
            return (nil, length)
        }
        return (.character(character), length)
    }

    private mutating func escape() -> (Key?, Int)? {
        guard pending.count >= 2 else { return nil }
        let second = pending[1]
        switch second {
        case UInt8(ascii: "["): return csi()
        case UInt8(ascii: "O"):
            guard pending.count >= 3 else { return nil }
            let key: Key? =
                switch pending[2] {
                case UInt8(ascii: "A"): .up
                case UInt8(ascii: "B"): .down
                case UInt8(ascii: "C"): .right
                case UInt8(ascii: "D"): .left
                case UInt8(ascii: "H"): .home
                case UInt8(ascii: "F"): .end
                default: nil
                }
            return (key, 3)
        case UInt8(ascii: "b"): return (.wordLeft, 2)
        case UInt8(ascii: "f"): return (.wordRight, 2)
        case 0x7F: return (.control("w"), 2)  // Alt-Backspace: delete the word before the cursor
        case 0x1B: return (.escape, 1)
        default: return (.escape, 1)
        }
    }

    /// `ESC [` parameters final-byte.
    private mutating func csi() -> (Key?, Int)? {
        var end = 2
        while end < pending.count, (0x30...0x3F).contains(pending[end]) { end += 1 }
        guard end < pending.count else { return pending.count > 32 ? (nil, pending.count) : nil }
        let final = pending[end]
        let parameters = String(decoding: pending[2..<end], as: UTF8.self).split(separator: ";").map { Int($0) ?? 0 }
        let used = end + 1
        let ctrl = parameters.count >= 2 && (parameters[1] - 1) & 4 != 0
        switch final {
        case UInt8(ascii: "A"): return (.up, used)
        case UInt8(ascii: "B"): return (.down, used)
        case UInt8(ascii: "C"): return (ctrl ? .wordRight : .right, used)
        case UInt8(ascii: "D"): return (ctrl ? .wordLeft : .left, used)
        case UInt8(ascii: "H"): return (.home, used)
        case UInt8(ascii: "F"): return (.end, used)
        case UInt8(ascii: "Z"): return (.backTab, used)
        case UInt8(ascii: "~"):
            switch parameters.first ?? 0 {
            case 1, 7: return (.home, used)
            case 4, 8: return (.end, used)
            case 3: return (.delete, used)
            case 5: return (.pageUp, used)
            case 6: return (.pageDown, used)
            case 200:
                pasting = []
                return (nil, used)
            default: return (nil, used)
            }
        default: return (nil, used)
        }
    }

    /// Inside a bracketed paste: everything up to `ESC [201~` is text.
    private mutating func pasteByte() -> (Key?, Int)? {
        let terminator: [UInt8] = [0x1B, 0x5B, 0x32, 0x30, 0x31, 0x7E]
        if pending[0] == 0x1B {
            guard pending.count >= terminator.count else {
                return pending.elementsEqual(terminator.prefix(pending.count)) ? nil : append(1)
            }
            if pending.prefix(terminator.count).elementsEqual(terminator) {
                let text = String(decoding: pasting ?? [], as: UTF8.self)
                pasting = nil
                return (.paste(text), terminator.count)
            }
        }
        return append(1)
    }

    private mutating func append(_ count: Int) -> (Key?, Int) {
        pasting?.append(contentsOf: pending.prefix(count))
        return (nil, count)
    }
}
