import Testing

@testable import FormworkCore

@Suite("Terminal columns")
struct DisplayWidthTests {
    @Test("the narrow fast path agrees with grapheme-by-grapheme measuring for every scalar it accepts")
    func narrowFastPath() {
        var accepted = 0
        for v in UInt32(0x80)...0xFFFF {
            guard String.isNarrow(v), let scalar = Unicode.Scalar(v) else { continue }
            accepted += 1
            let c = Character(scalar)
            #expect(c.columns == 1, "U+\(String(v, radix: 16))")
            // A grapheme of its own: it never joins the character before or after it.
            #expect("a\(c)a".count == 3, "U+\(String(v, radix: 16))")
            #expect("a\(c)a".columns == 3)
        }
        #expect(accepted > 1000)
    }

    @Test("text mixing narrow symbols, wide, combining and emoji characters is measured by graphemes")
    func mixed() {
        #expect("‹you@example.com›".columns == 17)
        #expect("★★☆ │ ✓".columns == 7)
        #expect("日本".columns == 4)
        #expect("e\u{301}‹".columns == 2)
        #expect("‹e\u{301}".columns == 2)
        #expect("✓\u{FE0F}".columns == 2)
        #expect("→ 👍🏽".columns == 4)
        #expect("‹\u{200D}›".columns == 2)
    }
}
