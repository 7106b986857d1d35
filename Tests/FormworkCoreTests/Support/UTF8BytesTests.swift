import Testing

@testable import FormworkCore

/// The eight-bytes-at-a-time scans against the byte-by-byte answers they replace, for every byte value at
/// every position of a word (and in the tail after the last whole word), next to every other kind of byte.
@Suite("UTF-8 scans, eight bytes at a time")
struct UTF8BytesTests {
    /// Buffers of 1…19 bytes of `fill` with `byte` at each position: every lane of a word and the tail.
    func cases(_ byte: UInt8, fill: UInt8) -> [[UInt8]] {
        var out: [[UInt8]] = []
        for length in 1..<20 {
            for position in 0..<length {
                var bytes = [UInt8](repeating: fill, count: length)
                bytes[position] = byte
                out.append(bytes)
            }
        }
        return out
    }

    /// Fillers that sit next to the bytes searched for (0x01 and 0x80 trip a careless zero-byte test).
    let fillers: [UInt8] = [0x41, 0x20, 0x01, 0x21, 0x7E, 0x80, 0xC3, 0xFF, 0x00]

    @Test("each scan answers as a loop over the bytes does")
    func sameAsLoop() {
        for byte in 0...UInt8.max {
            for fill in fillers {
                for bytes in cases(byte, fill: fill) {
                    bytes.withUnsafeBufferPointer { b in
                        #expect(UTF8Bytes.isASCII(b) == b.allSatisfy { $0 < 0x80 })
                        #expect(UTF8Bytes.contains(b, 0x2A, 0x60, 0x5B) == b.contains { $0 == 0x2A || $0 == 0x60 || $0 == 0x5B })
                        #expect(
                            UTF8Bytes.mayHaveControls(b) == b.contains { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 },
                            "\(bytes)")
                        #expect(
                            UTF8Bytes.mayNeedHTMLEscape(b)
                                == b.contains { [0x26, 0x3C, 0x3E, 0x22, 0x27, 0x7F, 0xC2].contains($0) || $0 < 0x20 },
                            "\(bytes)")
                        #expect(
                            UTF8Bytes.mayNeedJSONEscape(b)
                                == b.contains { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x7F || $0 == 0xC2 || $0 == 0xE2 },
                            "\(bytes)")
                    }
                }
            }
        }
        [UInt8]().withUnsafeBufferPointer { empty in
            #expect(UTF8Bytes.isASCII(empty) && !UTF8Bytes.contains(empty, 1, 2, 3))
            #expect(!UTF8Bytes.mayHaveControls(empty) && !UTF8Bytes.mayNeedJSONEscape(empty) && !UTF8Bytes.mayNeedHTMLEscape(empty))
        }
    }

    /// JSON's escapes a Unicode scalar at a time, as the writer made them before it read bytes.
    static func escapedByScalars(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{2028}": out += "\\u2028"
            case "\u{2029}": out += "\\u2029"
            default:
                if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    @Test("JSON strings are escaped byte by byte exactly as scalar by scalar, for every scalar up to U+3000 and beyond")
    func jsonEscapes() {
        var scalars = (0..<0x3000).compactMap(Unicode.Scalar.init)
        scalars += [0xFEFF, 0xFFFD, 0x1F600, 0x10FFFF].compactMap(Unicode.Scalar.init)
        for scalar in scalars {
            // Alone, between plain text (a run copied on each side), and twice in a row.
            for s in [String(scalar), "ab\(scalar)cd", "\(scalar)\(scalar)", "★\(scalar)€"] {
                var out = JSONBytes()
                JSON.writeString(s, to: &out)
                #expect(out.string == Self.escapedByScalars(s), "U+\(String(scalar.value, radix: 16))")
            }
        }
        // Lead bytes of what is escaped, followed by what is not: 0xC2 0xA0 (U+00A0), 0xE2 0x80 0xA7 (U+2027).
        var out = JSONBytes()
        JSON.writeString("\u{A0}\u{2027}\u{202A}\u{85}", to: &out)
        #expect(out.string == "\"\u{A0}\u{2027}\u{202A}\\u0085\"")
    }

    @Test("what the scans decide is unchanged: escapes, terminal safety, markup, widths, wrapping")
    func callers() {
        // Each case has the byte that matters past the first word (the scans' fast lanes).
        #expect(JSON.string("abcdefgh\u{1}ij\"k\\l\u{2028}").serialized() == "\"abcdefgh\\u0001ij\\\"k\\\\l\\u2028\"")
        #expect(JSON.string("abcdefghijklmnop").serialized() == "\"abcdefghijklmnop\"")
        #expect(TerminalText.safe("abcdefgh\u{1B}[2Jx\u{85}y\u{7F}") == "abcdefgh␛[2Jx\u{FFFD}y\u{2421}")
        #expect(TerminalText.safe("abcdefgh é ★ Ç") == "abcdefgh é ★ Ç")  // 0xC3, 0xE2: no control
        #expect(TerminalText.safe("abcdefgh\nij", keepLayout: true) == "abcdefgh\nij")
        #expect(RichText.plain("abcdefgh *ij* [k](https://l.example)") == "abcdefgh ij k (https://l.example)")
        #expect(RichText.plain("abcdefgh ij") == "abcdefgh ij")
        #expect(RichText.html("abcdefgh <b> & 'q'").html == "abcdefgh &lt;b&gt; &amp; &#39;q&#39;")
        #expect(HTML.escape("abcdefghij\"") == "abcdefghij&quot;")
        // Controls never reach a terminal through HTML or JSON either: neutralised, or escaped.
        #expect(HTML.escape("abcdefgh\u{1B}[2J\u{9B}x\u{7F}\ty\nz") == "abcdefgh␛[2J\u{FFFD}x\u{2421}\ty\nz")
        #expect(JSON.string("abcdefgh\u{7F}\u{9B}é").serialized() == "\"abcdefgh\\u007f\\u009bé\"")
        #expect("abcdefghij".columns == 10 && "abcdefgh★★".columns == 10 && "abcdefgh日本".columns == 12)
        let text = TextRenderer(width: 40, ansi: false)
        #expect(text.wrap("★★☆☆☆  2/5   b ", 40) == ["★★☆☆☆ 2/5 b"])
        #expect(text.wrap("  ", 40) == [""])
        #expect(text.wrap("one two", 40) == ["one two"])
        #expect(text.wrap("aaaa bbbb  cccc", 9) == ["aaaa bbbb", "cccc"])
    }
}
