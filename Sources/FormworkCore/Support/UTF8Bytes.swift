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
        guard let base = bytes.baseAddress else { return true }
        let n = bytes.count
        var i = 0
        while i + 8 <= n {
            if UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
            i += 8
        }
        while i < n {
            if base[i] >= 0x80 { return false }
            i += 1
        }
        return true
    }

    /// Whether any byte is one of `a`, `b` or `c` (ASCII bytes), eight at a time.
    @inline(__always)
    static func contains(_ bytes: UnsafeBufferPointer<UInt8>, _ a: UInt8, _ b: UInt8, _ c: UInt8) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        let n = bytes.count
        var i = 0
        @inline(__always) func has(_ word: UInt64, _ byte: UInt8) -> Bool {
            // The classic "has zero byte" test on `word ^ byte×8`.
            let x = word ^ (0x0101_0101_0101_0101 &* UInt64(byte))
            return (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080 != 0
        }
        while i + 8 <= n {
            let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
            if has(word, a) || has(word, b) || has(word, c) { return true }
            i += 8
        }
        while i < n {
            let x = base[i]
            if x == a || x == b || x == c { return true }
            i += 1
        }
        return false
    }

    /// Whether any byte is a C0 control (below 0x20), DEL (0x7F) or 0xC2 (the lead byte of the
    /// C1 controls): false means the text is safe for a terminal as it is, eight bytes at a time.
    static func mayHaveControls(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        let n = bytes.count
        var i = 0
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        while i + 8 <= n {
            let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
            // A byte below 0x20 (exact for bytes below 0x80; a high byte is caught by `~word`), 0x7F or 0xC2.
            let below = (word &- ones &* 0x20) & ~word & highs
            let del = word ^ (ones &* 0x7F), c2 = word ^ (ones &* 0xC2)
            let equal = ((del &- ones) & ~del | (c2 &- ones) & ~c2) & highs
            if below | equal != 0 { return true }
            i += 8
        }
        while i < n {
            let x = base[i]
            if x < 0x20 || x == 0x7F || x == 0xC2 { return true }
            i += 1
        }
        return false
    }

    /// Whether any byte is a control (below 0x20), `"`, `\\` or 0xE2 (the lead byte of U+2028 and
    /// U+2029): false means JSON takes the text as it is between quotes.
    static func mayNeedJSONEscape(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        let n = bytes.count
        var i = 0
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        while i + 8 <= n {
            let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
            let below = (word &- ones &* 0x20) & ~word & highs
            let quote = word ^ (ones &* 0x22), backslash = word ^ (ones &* 0x5C), e2 = word ^ (ones &* 0xE2)
            let equal = ((quote &- ones) & ~quote | (backslash &- ones) & ~backslash | (e2 &- ones) & ~e2) & highs
            if below | equal != 0 { return true }
            i += 8
        }
        while i < n {
            let x = base[i]
            if x < 0x20 || x == 0x22 || x == 0x5C || x == 0xE2 { return true }
            i += 1
        }
        return false
    }
}
