/// Text for a terminal: nothing from a document, a values file or a pack may carry
/// an escape sequence to it (set the window title, clear the screen, write the
/// clipboard with OSC 52, plant a hyperlink). Only Formwork's own styling emits escapes.
public enum TerminalText {
    /// `s` with every C0 control, DEL and C1 control replaced by a visible stand-in of
    /// the same width: C0 by its Unicode control picture (ESC → `␛`, BEL → `␇`), DEL by
    /// `␡`, C1 (U+0080–U+009F, which some terminals obey as CSI, OSC, …) by `�`, and the bidirectional controls
    /// (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069) by `�` too.
    /// With `keepLayout`, line feeds and tabs are kept.
    public static func safe(_ s: String, keepLayout: Bool = false) -> String {
        guard UTF8Bytes.with(s, { UTF8Bytes.mayHaveTerminalHazards($0) && needsReplacing($0, keepLayout: keepLayout) }) else { return s }
        var out = String.UnicodeScalarView()
        for scalar in s.unicodeScalars {
            switch scalar.value {
            case 0x0A where keepLayout, 0x09 where keepLayout: out.append(scalar)
            case 0x00..<0x20: out.append(Unicode.Scalar(0x2400 + scalar.value)!)
            case 0x7F: out.append("\u{2421}")
            case 0x80...0x9F: out.append("\u{FFFD}")
            case _ where isBidiControl(scalar.value): out.append("\u{FFFD}")
            default: out.append(scalar)
            }
        }
        return String(out)
    }

    /// The bidirectional controls (embeddings, overrides, isolates, marks): they reorder what a terminal shows
    /// ("Trojan Source"), so text from a document or a pack never carries them to one.
    @inline(__always)
    static func isBidiControl(_ v: UInt32) -> Bool {
        v == 0x061C || v == 0x200E || v == 0x200F || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
    }

    /// Whether `bytes` hold anything `safe` replaces: a C0 control (but a line feed or tab with `keepLayout`), DEL,
    /// a C1 control, or a bidirectional control. One pass over the bytes.
    static func needsReplacing(_ bytes: UnsafeBufferPointer<UInt8>, keepLayout: Bool = false) -> Bool {
        var i = 0
        let n = bytes.count
        while i < n {
            let b = bytes[i]
            if b < 0x20 || b == 0x7F {
                if !(keepLayout && (b == 0x0A || b == 0x09)) { return true }
            } else if b == 0xC2, i + 1 < n, (0x80...0x9F).contains(bytes[i + 1]) {
                return true
            } else if b == 0xD8, i + 1 < n, bytes[i + 1] == 0x9C {
                return true
            } else if b == 0xE2, i + 2 < n {
                let b1 = bytes[i + 1], b2 = bytes[i + 2]
                if b1 == 0x80 && (b2 == 0x8E || b2 == 0x8F || (0xAA...0xAE).contains(b2)) { return true }
                if b1 == 0x81 && (0xA6...0xA9).contains(b2) { return true }
            }
            i += 1
        }
        return false
    }
}
