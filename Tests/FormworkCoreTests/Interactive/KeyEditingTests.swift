import Testing

@testable import FormworkCore

@Suite("Keys, line editing and dates of the terminal form")
struct KeyEditingTests {
    func keys(_ bytes: [UInt8]) -> [Key] {
        var decoder = KeyDecoder()
        return decoder.feed(bytes) + decoder.flushEscape()
    }

    @Test("xterm, VT220 and tmux spellings of the keys")
    func decoding() {
        #expect(keys(Array("aé日".utf8)) == [.character("a"), .character("é"), .character("日")])
        #expect(keys([0x1B, 0x5B, 0x41, 0x1B, 0x4F, 0x42, 0x1B, 0x5B, 0x43, 0x1B, 0x5B, 0x44]) == [.up, .down, .right, .left])
        #expect(keys(Array("\u{1B}[1;5C\u{1B}[1;5D\u{1B}b\u{1B}f".utf8)) == [.wordRight, .wordLeft, .wordLeft, .wordRight])
        #expect(
            keys(Array("\u{1B}[H\u{1B}[F\u{1B}[1~\u{1B}[4~\u{1B}[3~\u{1B}[5~\u{1B}[6~\u{1B}[Z".utf8))
                == [.home, .end, .home, .end, .delete, .pageUp, .pageDown, .backTab])
        #expect(keys([0x0D, 0x09, 0x7F, 0x03, 0x0B]) == [.enter, .tab, .backspace, .control("c"), .control("k")])
        #expect(keys([0x1B]) == [.escape], "a lone ESC is Escape once the terminal is quiet")
        #expect(keys(Array("\u{1B}[200~line\u{1B}[31m\nnext\u{1B}[201~z".utf8)) == [.paste("line\u{1B}[31m\nnext"), .character("z")])
        #expect(keys([0xC2, 0x9B, 0x41]) == [.character("A")], "a C1 control is dropped, never passed on")
    }

    @Test("a sequence split across reads is completed by the next read")
    func split() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([0x1B, 0x5B]).isEmpty)
        #expect(decoder.isWaiting)
        #expect(decoder.feed([0x42]) == [.down])
        #expect(decoder.feed([0xE6, 0x97]).isEmpty)
        #expect(decoder.feed([0xA5]) == [.character("日")])
    }

    @Test("shell editing keys")
    func editing() {
        var e = LineEditor("hello world")
        #expect(e.handle(.wordLeft) == .moved)
        #expect(e.handle(.control("k")) == .edited)
        #expect(e.text == "hello ")
        _ = e.handle(.home)
        _ = e.handle(.character("¡"))
        #expect(e.text == "¡hello ")
        _ = e.handle(.end)
        _ = e.handle(.control("w"))
        #expect(e.text == "¡")
        _ = e.handle(.paste("a\nb"))
        #expect(e.text == "¡a b", "a single-line field pastes lines as one")
        _ = e.handle(.control("u"))
        #expect(e.text.isEmpty)
        #expect(e.handle(.backspace) == .ignored)
        var refused = LineEditor("12")
        #expect(refused.handle(.character("x")) { $0.allSatisfy(\.isNumber) } == .ignored)
        #expect(refused.text == "12")
        var wide = LineEditor("日本")
        #expect(wide.cursorColumns == 4)
        _ = wide.handle(.left)
        #expect(wide.cursorColumns == 2)
    }

    @Test("several lines: Enter breaks the line, Up and Down keep the column")
    func multiline() {
        var e = LineEditor("first\nsecond", multiline: true)
        _ = e.handle(.up)
        #expect(e.position()! == (0, 5))
        _ = e.handle(.home)
        _ = e.handle(.down)
        #expect(e.position()! == (1, 0))
        _ = e.handle(.enter)
        #expect(e.text == "first\n\nsecond")
        #expect(e.handle(.down) == .ignored, "off the last line: the form moves on")
    }

    @Test("dates: calendar arithmetic in UTC, the day kept within the month")
    func dates() {
        let jan31 = DateFormat.join(2026, 1, 31, 9, 30, 0)
        #expect(DateFormat.iso8601(jan31) == "2026-01-31T09:30:00Z")
        #expect(DateFormat.iso8601(CivilTime.adding(1, to: .month, of: jan31)) == "2026-02-28T09:30:00Z")
        #expect(DateFormat.iso8601(CivilTime.adding(-1, to: .year, of: DateFormat.join(2024, 2, 29, 0, 0, 0))) == "2023-02-28")
        #expect(DateFormat.iso8601(CivilTime.adding(1, to: .day, of: DateFormat.join(2026, 12, 31, 0, 0, 0))) == "2027-01-01")
        for hostile in [1e300, -1e300, .nan, .infinity] { _ = CivilTime.pieces(hostile, mode: .dateAndTime) }  // never traps
        let before1970 = DateFormat.join(1900, 3, 1, 0, 0, 0)
        #expect(DateFormat.split(before1970).y == 1900 && DateFormat.split(before1970).m == 3)
    }

    @Test("the screen buffer writes only changed rows")
    func screen() {
        var buffer = ScreenBuffer()
        _ = buffer.update(["a", "b", "c"], columns: 80, cursor: nil)
        #expect(buffer.rowsWritten == 3)
        let out = buffer.update(["a", "B", "c"], columns: 80, cursor: (1, 1))
        #expect(buffer.rowsWritten == 1)
        #expect(out.contains("\u{1B}[2;1HB"))
        #expect(out.hasSuffix("\u{1B}[2;2H\u{1B}[?25h"))
        _ = buffer.update(["a", "B", "c"], columns: 100, cursor: nil)
        #expect(buffer.rowsWritten == 3, "a new width redraws everything")
    }
}
