/// Text for a terminal: nothing from a document, a values file or a pack may carry
/// an escape sequence to it (set the window title, clear the screen, write the
/// clipboard with OSC 52, plant a hyperlink). Only Formwork's own styling emits escapes.
public enum TerminalText {
    /// `s` with every C0 control, DEL and C1 control replaced by a visible stand-in of
    /// the same width: C0 by its Unicode control picture (ESC → `␛`, BEL → `␇`), DEL by
    /// `␡`, C1 (U+0080–U+009F, which some terminals obey as CSI, OSC, …) by `�`.
    /// With `keepLayout`, line feeds and tabs are kept.
    public static func safe(_ s: String, keepLayout: Bool = false) -> String {
        // Fast path: nothing to replace (the common case) costs one scan of the bytes.
        func needsReplacing(_ bytes: some Sequence<UInt8>) -> Bool {
            var previous: UInt8 = 0
            for b in bytes {
                if b < 0x20 || b == 0x7F {
                    if !(keepLayout && (b == 0x0A || b == 0x09)) { return true }
                } else if previous == 0xC2 && (0x80...0x9F).contains(b) {
                    return true
                }
                previous = b
            }
            return false
        }
        guard UTF8Bytes.with(s, { UTF8Bytes.mayHaveControls($0) && needsReplacing($0) }) else { return s }
        var out = String.UnicodeScalarView()
        for scalar in s.unicodeScalars {
            switch scalar.value {
            case 0x0A where keepLayout, 0x09 where keepLayout: out.append(scalar)
            case 0x00..<0x20: out.append(Unicode.Scalar(0x2400 + scalar.value)!)
            case 0x7F: out.append("\u{2421}")
            case 0x80...0x9F: out.append("\u{FFFD}")
            default: out.append(scalar)
            }
        }
        return String(out)
    }
}
