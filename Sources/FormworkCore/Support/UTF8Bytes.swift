/// Scans over a string's UTF-8 bytes in place. Iterating `String.UTF8View` index by index (or
/// `Character` by `Character`) costs a bounds and encoding check per byte; the renderers ask the
/// same yes-or-no questions of every label, value and hint, so they read the bytes through a pointer,
/// eight at a time where they can.
enum UTF8Bytes {
    /// Calls `body` with the UTF-8 bytes of `s`: in place for a native string, else from a copy.
    @inline(__always)
    static func with<R>(_ s: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let result = s.utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = s
        return copy.withUTF8(body)
    }

    /// Whether every byte is ASCII (below 0x80).
    @inline(__always)
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        !any(bytes, word: { $0 & highs != 0 })
    }

    /// Whether any byte is one of `a`, `b` or `c` (ASCII bytes), eight at a time.
    @inline(__always)
    static func contains(_ bytes: UnsafeBufferPointer<UInt8>, _ a: UInt8, _ b: UInt8, _ c: UInt8) -> Bool {
        assert(a != 0x41 && b != 0x41 && c != 0x41, "'A' pads a short text: it cannot be looked for")
        return any(bytes, word: { equal($0, a) | equal($0, b) | equal($0, c) != 0 })
    }

    /// Whether any byte is a C0 control (below 0x20), DEL (0x7F) or 0xC2 (the lead byte of the
    /// C1 controls): false means the text is safe for a terminal as it is, eight bytes at a time.
    static func mayHaveControls(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        any(bytes, word: { below($0, 0x20) | equal($0, 0x7F) | equal($0, 0xC2) != 0 })
    }

    /// Whether any byte may begin something a terminal must not be given as it is: what `mayHaveControls` looks
    /// for, and the lead bytes of the bidirectional controls (0xE2: U+200E, U+200F, U+202A–U+202E, U+2066–U+2069;
    /// 0xD8: U+061C). False means the text goes to a terminal as it is; true, that `TerminalText.needsReplacing`
    /// looks closer.
    static func mayHaveTerminalHazards(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        any(bytes, word: { below($0, 0x20) | equal($0, 0x7F) | equal($0, 0xC2) | equal($0, 0xE2) | equal($0, 0xD8) != 0 })
    }

    /// Whether any byte is one HTML escapes (`&`, `<`, `>`, `"`, `'`) or one `mayHaveControls` looks for: false
    /// means HTML takes the text as it is, in text and in attribute values. One scan (it was three).
    static func mayNeedHTMLEscape(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        any(
            bytes,
            word: { w in
                equal(w, 0x26) | equal(w, 0x3C) | equal(w, 0x3E) | equal(w, 0x22) | equal(w, 0x27) | below(w, 0x20)
                    | equal(w, 0x7F) | equal(w, 0xC2) != 0
            })
    }

    /// Whether any byte is a control (below 0x20), DEL, `"`, a backslash, 0xC2 (the lead byte of the C1
    /// controls) or 0xE2 (of U+2028 and U+2029): false means JSON takes the text as it is between quotes.
    static func mayNeedJSONEscape(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        any(
            bytes,
            word: { w in
                below(w, 0x20) | equal(w, 0x22) | equal(w, 0x5C) | equal(w, 0x7F) | equal(w, 0xC2) | equal(w, 0xE2) != 0
            })
    }

    /// Whether `word` says yes for any of the bytes, eight at a time. The last eight are read again when the
    /// count is not a multiple of eight (they were no by then); fewer than eight are read as one word whose
    /// missing bytes are "A" (0x41), which none of the tests here looks for. A short string (most are) is one
    /// test, not a byte at a time.
    @inline(__always)
    static func any(_ bytes: UnsafeBufferPointer<UInt8>, word: (UInt64) -> Bool) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        let n = bytes.count
        guard n >= 8 else {
            var padded: UInt64 = 0x4141_4141_4141_4141
            withUnsafeMutableBytes(of: &padded) { $0.baseAddress!.copyMemory(from: base, byteCount: n) }
            return word(padded)
        }
        var i = 0
        while i + 8 <= n {
            if word(UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)) { return true }
            i += 8
        }
        return i < n && word(UnsafeRawPointer(base + n - 8).loadUnaligned(as: UInt64.self))
    }

    @inline(__always) static var ones: UInt64 { 0x0101_0101_0101_0101 }
    @inline(__always) static var highs: UInt64 { 0x8080_8080_8080_8080 }

    /// The bytes of `word` equal to `byte`, marked by their high bit. Exact as a yes or no, and the lowest
    /// mark is exact (a borrow can only add a false mark above a true one).
    @inline(__always)
    static func equal(_ word: UInt64, _ byte: UInt8) -> UInt64 {
        let x = word ^ (ones &* UInt64(byte))
        return (x &- ones) & ~x & highs
    }

    /// The bytes of `word` equal to `byte`, each marked by its high bit, exactly (no borrow runs from one byte
    /// to the next): for a word whose marks are all read, not only the lowest.
    @inline(__always)
    static func exactlyEqual(_ word: UInt64, _ byte: UInt8) -> UInt64 {
        let x = word ^ (ones &* UInt64(byte))
        let lows: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        return ~(((x & lows) &+ lows) | x) & highs
    }

    /// How many bytes `marks` marks (exact marks: `exactlyEqual`'s, or any made of them), by one multiplication
    /// (no population count instruction is assumed of the machine).
    @inline(__always)
    static func count(_ marks: UInt64) -> Int { Int(truncatingIfNeeded: ((marks >> 7) &* ones) >> 56) }

    /// The bytes of `word` below `limit` (at most 0x80), marked the same way.
    @inline(__always)
    static func below(_ word: UInt64, _ limit: UInt8) -> UInt64 { (word &- ones &* UInt64(limit)) & ~word & highs }
}
