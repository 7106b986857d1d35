/// JSON pointer helpers (RFC 6901).
public enum Pointer {
    /// Escapes one reference token (`~` → `~0`, `/` → `~1`). Called only when a
    /// pointer is reported, never on the success path.
    public static func escape(_ key: String) -> String {
        guard key.utf8.contains(where: { $0 == 0x7E || $0 == 0x2F }) else { return key }
        var out = ""
        out.reserveCapacity(key.utf8.count + 2)
        for c in key.unicodeScalars {
            switch c {
            case "~": out += "~0"
            case "/": out += "~1"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }
}

extension String {
    /// The same text in storage of its own: a copy's reference counts are not the original's (a string of up
    /// to 15 bytes has no storage, and is itself).
    var withOwnStorage: String {
        let count = utf8.count
        guard count > 15 else { return self }
        return String(unsafeUninitializedCapacity: count) { buffer in buffer.initialize(from: utf8).1 }
    }

    var lastComponent: String { String(split(separator: "/", omittingEmptySubsequences: false).last ?? "") }
    var dropLastComponent: String {
        guard let slash = lastIndex(of: "/") else { return "" }
        return String(self[..<slash])
    }
}

/// Numbers as Formwork writes them everywhere (messages, JSON, inspect): whole
/// numbers below 1e15 without a fraction, others in Swift's shortest form.
public enum NumberText {
    public static func format(_ number: Double) -> String {
        if let whole = wholeValue(number) { return String(whole) }
        return String(number)
    }

    /// `number` as an Int64 when it is whole and below 1e15 in magnitude; never traps.
    static func wholeValue(_ number: Double) -> Int64? {
        guard number.isFinite, number == number.rounded(), abs(number) < 1e15 else { return nil }
        return Int64(number)
    }
}

/// Levenshtein distance, for "did you mean" suggestions.
public enum EditDistance {
    public static func between(_ a: String, _ b: String) -> Int {
        let a = Array(a.unicodeScalars), b = Array(b.unicodeScalars)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }

    /// The closest of `candidates` to `word`, if close enough to suggest.
    public static func suggestion(for word: String, in candidates: [String]) -> String? {
        candidates.map { ($0, between($0.lowercased(), word.lowercased())) }
            .filter { $0.1 <= max(2, word.count / 3) }
            .min { ($0.1, $0.0) < ($1.1, $1.0) }?.0
    }
}

/// The host's own version.
public enum FormworkVersion {
    public static let string = "0.2.0"
}

/// UTF-8 well-formedness (what `String(validating:as:)` accepts: no overlong forms, no
/// surrogates, nothing above U+10FFFF), eight ASCII bytes at a time: a document is checked
/// once, without building a `String` of it.
package enum UTF8Validation {
    package static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let n = bytes.count
        var i = 0
        while i < n {
            while i + 8 <= n, UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0 { i += 8 }
            guard i < n else { break }
            let c = base[i]
            if c < 0x80 {
                i += 1
                continue
            }
            @inline(__always) func continuation(_ k: Int) -> UInt8? {
                guard i + k < n, base[i + k] & 0xC0 == 0x80 else { return nil }
                return base[i + k]
            }
            switch c {
            case 0xC2...0xDF:
                guard continuation(1) != nil else { return false }
                i += 2
            case 0xE0...0xEF:
                guard let c1 = continuation(1), continuation(2) != nil else { return false }
                if c == 0xE0 && c1 < 0xA0 { return false }  // overlong
                if c == 0xED && c1 >= 0xA0 { return false }  // UTF-16 surrogates
                i += 3
            case 0xF0...0xF4:
                guard let c1 = continuation(1), continuation(2) != nil, continuation(3) != nil else { return false }
                if c == 0xF0 && c1 < 0x90 { return false }  // overlong
                if c == 0xF4 && c1 >= 0x90 { return false }  // above U+10FFFF
                i += 4
            default:
                return false
            }
        }
        return true
    }
}
