import Testing

@testable import FormworkCore

@Suite("Parsing: YAML plain scalars resolved")
struct YAMLReaderTests {
    /// The kind a plain scalar resolves to, read as a document's only value.
    func kind(_ scalar: String) throws -> String {
        let node = try YAMLReader.parse("v: \(scalar)\n")
        switch node["v"]?.kind {
        case .null?: return "null"
        case .bool(let b)?: return "bool \(b)"
        case .integer(let n)?: return "integer \(n)"
        case .number(let d)?: return "number \(d)"
        case .string(let s)?: return "string \(s)"
        default: return "other"
        }
    }

    @Test("every null and boolean word, and the words next to them, resolve as YAML 1.1 reads them")
    func words() throws {
        for word in ["~", "null", "Null", "NULL"] { #expect(try kind(word) == "null", "\(word)") }
        if case .null? = try YAMLReader.parse("v:\n")["v"]?.kind {} else { Issue.record("an empty value is null") }
        for word in ["true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON"] { #expect(try kind(word) == "bool true", "\(word)") }
        for word in ["false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF"] {
            #expect(try kind(word) == "bool false", "\(word)")
        }
        // Other case mixes, prefixes, longer words and look-alikes stay text.
        for word in [
            "nULL", "nul", "nulls", "tRUE", "truE", "tru", "truex", "yES", "ye", "yess", "oN", "o", "of", "offf", "fAlse", "falsey",
            "n", "N", "Y", "y", "T", "F", "One", "Two", "Off-line", "ñull", "nüll", "tr\u{0301}ue", "noé",
        ] {
            #expect(try kind(word) == "string \(word)", "\(word)")
        }
        // Quoted words are text.
        #expect(try kind("'yes'") == "string yes" && (try kind("\"null\"")) == "string null")
        #expect(try kind("2") == "integer 2" && (try kind("2.5")) == "number 2.5")
    }

    /// The nesting scan a byte at a time, as it was first written: what the word-at-a-time scan must answer.
    static func flowNestingByteByByte(_ bytes: [UInt8]) -> Int? {
        var depth = 0, line = 1
        var quote: UInt8? = nil
        for b in bytes {
            if b == 0x0A { line += 1 }
            if let q = quote {
                if b == q { quote = nil }
                continue
            }
            switch b {
            case 0x22, 0x27: quote = b
            case 0x5B, 0x7B:
                depth += 1
                if depth > InputLimits.maxDepth { return line }
            case 0x5D, 0x7D: depth = max(0, depth - 1)
            default: break
            }
        }
        return nil
    }

    @Test("the flow-nesting guard, eight bytes at a time, finds what a byte-at-a-time scan finds, on the same line")
    func flowNesting() {
        // Bytes drawn from those that matter (brackets, both quotes, line feeds) and a few that do not, at every
        // alignment: documents that exceed the limit at various places, inside and outside quoted text, and not.
        let alphabet: [UInt8] = Array("[]{}\"'\n a:é".utf8)
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: state >> 33) % bound
        }
        var exceeded = 0
        for round in 0..<3000 {
            var bytes: [UInt8] = []
            let opening = round % 3 == 0 ? InputLimits.maxDepth + 1 + next(4) : next(40)
            for _ in 0..<next(9) { bytes.append(alphabet[next(alphabet.count)]) }
            let filler: [UInt8] = Array(" a:é\n".utf8)
            for _ in 0..<opening {
                bytes.append(next(2) == 0 ? 0x5B : 0x7B)
                // Between the brackets: plain bytes, or a quoted run holding brackets that do not count.
                switch next(4) {
                case 0: bytes += Array("'[{]'".utf8)
                case 1: bytes += Array("\"}\n[\"".utf8)
                default: for _ in 0..<next(3) { bytes.append(filler[next(filler.count)]) }
                }
            }
            for _ in 0..<next(20) { bytes.append(alphabet[next(alphabet.count)]) }
            let expected = Self.flowNestingByteByByte(bytes)
            let found = bytes.withUnsafeBufferPointer { YAMLReader.excessiveFlowNesting($0) }
            #expect(found == expected, "\(bytes)")
            if expected != nil { exceeded += 1 }
        }
        #expect(exceeded > 300)
    }
}
