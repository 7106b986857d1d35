/// Terminal columns, not characters: East Asian wide and fullwidth characters and
/// emoji take two columns, combining marks, zero-width joiners and variation
/// selectors none. Text and ANSI layout measure with this, so a Japanese title
/// gets an underline as wide as itself and boxes stay aligned beside emoji.
extension Character {
    /// Columns the character (a grapheme cluster) takes in a terminal.
    package var columns: Int {
        let scalars = unicodeScalars
        guard let first = scalars.first else { return 0 }
        if first.value < 0x300 { return 1 }  // ASCII and Latin: the common case
        if scalars.contains(where: { $0.value == 0xFE0F })
            || scalars.count > 1 && scalars.contains(where: { $0.properties.isEmojiPresentation })
        {
            return 2  // emoji presentation, ZWJ sequences, flags
        }
        if first.properties.isEmojiPresentation || Self.isWide(first.value) { return 2 }
        switch first.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: return 1
        }
    }

    /// East Asian Wide (W) and Fullwidth (F) ranges.
    static func isWide(_ v: UInt32) -> Bool {
        switch v {
        case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF,
            0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19,
            0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF,
            0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }
}

extension String {
    /// Columns the text takes in a terminal (the concrete `String` version: specialised where the generic
    /// one below would iterate its UTF-8 view through protocol witnesses from other modules).
    package var columns: Int {
        let narrow = UTF8Bytes.with(self) { bytes in UTF8Bytes.isASCII(bytes) ? bytes.count : Self.narrowColumns(bytes) }
        if let narrow { return narrow }
        var total = 0
        for c in self { total += c.columns }
        return total
    }

    /// Columns of text whose every scalar is one column wide on its own and never joins the
    /// character before it (Latin, general punctuation, arrows, box drawing, ‹›, ★, ✓…): one per
    /// scalar, without breaking graphemes. Nil when any scalar is outside those ranges.
    static func narrowColumns<Bytes: Sequence<UInt8>>(_ utf8: Bytes) -> Int? {
        var count = 0
        var iterator = utf8.makeIterator()
        while let lead = iterator.next() {
            if lead < 0x80 {
                count += 1
                continue
            }
            var scalar: UInt32
            if lead & 0xE0 == 0xC0 {
                guard let b1 = iterator.next() else { return nil }
                scalar = UInt32(lead & 0x1F) << 6 | UInt32(b1 & 0x3F)
            } else if lead & 0xF0 == 0xE0 {
                guard let b1 = iterator.next(), let b2 = iterator.next() else { return nil }
                scalar = UInt32(lead & 0x0F) << 12 | UInt32(b1 & 0x3F) << 6 | UInt32(b2 & 0x3F)
            } else {
                return nil
            }
            guard Self.isNarrow(scalar) else { return nil }
            count += 1
        }
        return count
    }

    /// Scalars that are one column and a grapheme of their own (checked against `Character.columns` by a test).
    static func isNarrow(_ v: UInt32) -> Bool {
        switch v {
        case 0x80..<0x300, 0x2010...0x2027, 0x2030...0x205E, 0x2190...0x21FF, 0x2500...0x25FC, 0x2605, 0x2606, 0x2713, 0x2717:
            return v >= 0xA0  // C1 controls (neutralised before layout anyway) take the careful path
        default:
            return false
        }
    }
}

extension StringProtocol {
    /// Columns the text takes in a terminal.
    package var columns: Int {
        // ASCII (the common case) is one column per byte: no grapheme breaking, no Unicode properties.
        if utf8.allSatisfy({ $0 < 0x80 }) { return utf8.count }
        if let narrow = String.narrowColumns(utf8) { return narrow }
        var total = 0
        for c in self { total += c.columns }
        return total
    }

    /// The longest prefix that fits in `columns` terminal columns.
    package func prefix(columns limit: Int) -> String {
        var used = 0
        var out = ""
        for c in self {
            let w = c.columns
            if used + w > limit { break }
            used += w
            out.append(c)
        }
        return out
    }
}
