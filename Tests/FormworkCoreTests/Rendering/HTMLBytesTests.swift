import Testing

@testable import FormworkCore

/// The HTML renderer writes bytes: its escape works on UTF-8 bytes, checked here against the scalar-by-scalar
/// escape it replaced, and a field's HTML is the same whether it is asked for as text or written into a page.
@Suite("HTML written as bytes")
struct HTMLBytesTests {
    /// The escape as it was written before, one Unicode scalar at a time.
    func reference(_ s: String, lineBreaks: Bool = false) -> String {
        var out = ""
        for c in s.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\n": out += lineBreaks ? "<br>" : "\n"
            case "\t", "\r": out.unicodeScalars.append(c)
            default:
                switch c.value {
                case 0x00..<0x20: out.unicodeScalars.append(Unicode.Scalar(0x2400 + c.value)!)
                case 0x7F: out += "\u{2421}"
                case 0x80...0x9F: out += "\u{FFFD}"
                default: out.unicodeScalars.append(c)
                }
            }
        }
        return out
    }

    /// Every scalar below U+0200 and a few above, at each position of strings of 1…18 scalars, among
    /// plain letters, multi-byte text and other escapes (the eight-byte scan's lanes and its tail).
    @Test("the byte escape writes what the scalar escape wrote")
    func sameAsScalars() {
        let scalars = (0..<0x200).compactMap(Unicode.Scalar.init) + ["\u{2028}", "\u{FFFD}", "\u{1F600}", "é", "★"]
        let fillers: [String] = ["a", "é", "&", "\u{85}", " "]
        for scalar in scalars {
            for fill in fillers {
                for length in [1, 2, 7, 8, 9, 15, 16, 18] {
                    for position in [0, length / 2, length - 1] {
                        var text = String(repeating: fill, count: length - 1)
                        text.insert(Character(scalar), at: text.index(text.startIndex, offsetBy: position))
                        #expect(HTML.escape(text) == reference(text), "\(Array(text.unicodeScalars))")
                        var lines = HTMLBytes()
                        lines.lines(text)
                        #expect(lines.string == reference(text, lineBreaks: true))
                    }
                }
            }
        }
        #expect(HTML.escape("") == "")
        // A lone 0xC2 before the end, and 0xC2 before a byte that is not a C1 control (U+00A0, U+00BF).
        #expect(HTML.escape("x\u{A0}\u{BF}\u{9F}") == "x\u{A0}\u{BF}\u{FFFD}")
    }

    @Test("integers, markup and text go in as they are, escaped or not")
    func writer() {
        var out = HTMLBytes(capacity: 8)
        out.raw("<p id=\"")
        out.text("a\"b")
        out.raw("-")
        out.int(0)
        out.raw(" ")
        out.int(9)
        out.raw(" ")
        out.int(10)
        out.raw(" ")
        out.int(-3)
        out.raw(" ")
        out.int(Int.max)
        out.html("\">x &amp; y</p>")
        #expect(out.string == "<p id=\"a&quot;b-0 9 10 -3 \(Int.max)\">x &amp; y</p>")
        var sunk: [UInt8] = []
        out.flush { sunk.append(contentsOf: $0) }
        #expect(out.isEmpty && String(decoding: sunk, as: UTF8.self).hasPrefix("<p id="))
    }
}
