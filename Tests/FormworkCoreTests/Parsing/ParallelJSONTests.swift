import Testing

@testable import FormworkCore

@Suite("Parsing: a large JSON document's sections on several cores")
struct ParallelJSONTests {
    enum Fault { case none, badNumber, duplicateKey, unbalanced, textAfterList, unterminated }
    /// Sixty sections of 250 fields, one section of 15,000, six sections of which the third has 12,000, or
    /// three pages of twenty sections.
    enum Shape: CaseIterable { case sections, oneSection, oneLarge, pages }

    /// A document past the parallel threshold: sections of fields, with escapes (an escaped backslash before
    /// a closing quote among them), braces in strings, raw UTF-8 and blank lines; `fault` breaks it in one place.
    func document(_ fault: Fault = .none, shape: Shape = .sections) -> String {
        var out = "{\n  \"formwork\": 1,\n  \"id\": \"big\",\n  \"\(shape == .pages ? "pages" : "sections")\": [\n"
        let sections = shape == .oneSection ? 1 : shape == .oneLarge ? 6 : 60
        for s in 0..<sections {
            if shape == .pages && s % 20 == 0 {
                out += s > 0 ? "]},\n" : ""
                out += "{\"id\": \"p\(s)\", \"sections\": [\n"
            } else {
                out += s > 0 ? ",\n" : ""
            }
            out += "    {\"id\": \"s\(s)\", \"header\": \"Section \\\"\(s)\\\" {[\""
            if fault == .duplicateKey && s == 31 { out += ", \"id\": 2" }
            out += ", \"fields\": [\n"
            for f in 0..<(shape == .oneSection ? 15_000 : shape == .oneLarge && s == 2 ? 12_000 : 250) {
                out += f > 0 ? ",\n" : ""
                let n = fault == .badNumber && s == 44 && f == 7 ? "07x" : "\(f)"
                let labels = fault == .unbalanced && s == 12 && f == 3 ? "[\"a\", \"b}\"" : "[\"a\", \"b}\"]"
                out += "      {\"id\": \"f\(s)_\(f)\", \"cell\": \"org.example.cell\", \"model\": {\"title\": \"Name \\u00e9 \(f)\", "
                // An escaped backslash just before a closing quote, raw UTF-8 and brackets in strings.
                out += "\"path\": \"C:\\\\dir\\\\\", \"raw\": \"★ é ]}\", "
                out += "\"labels\": \(labels), \"n\": \(n), \"x\": \(f).5}}"
            }
            out += "\n\n    ]}"
        }
        if shape == .pages { out += "]}" }
        out += "\n  ]"
        if fault == .textAfterList { out += ", \"sections\": []" }
        out += "\n}\n"
        return fault == .unterminated ? String(out.dropLast(3)) : out
    }

    func sequential(_ text: String) -> Result<SourceNode, ParseError> {
        var text = text
        return text.withUTF8 { bytes in Result { () throws(ParseError) in try JSONParser.parseSequentially(bytes: bytes) } }
    }

    /// Lines of every node, in document order.
    func lines(_ node: SourceNode) -> [Int?] {
        switch node.kind {
        case .array(let items): [node.line] + items.flatMap(lines)
        case .object(let members): [node.line] + members.flatMap { lines($0.value) }
        default: [node.line]
        }
    }

    @Test(
        "the nodes and their lines are those of the sequential parse, fields in sections, in one section or in pages",
        arguments: Shape.allCases)
    func same(shape: Shape) throws {
        var text = document(shape: shape)
        #expect(text.utf8.count > JSONParser.parallelThreshold)
        let parallel = try #require(text.withUTF8 { JSONParser.parseSectionsInParallel($0) })
        let expected = try sequential(text).get()
        #expect(parallel.json == expected.json)
        #expect(lines(parallel) == lines(expected))
        // The entry point takes the parallel path at this size (with more than one thread) and gives the same tree.
        let entry = try JSONParser.parse(text)
        #expect(entry.json == expected.json && lines(entry) == lines(expected))
    }

    /// A seeded generator (the same documents on every run).
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state ^ (state >> 29)
        }
    }

    /// A large document of odd shapes: field lists holding numbers, strings, lists and nulls among the fields,
    /// a section's `fields` first or an object, empty lists, `fields` nested where no field list is, pages
    /// beside sections, one section far larger than the rest, and spacing of every kind.
    func oddDocument(_ seed: UInt64) -> String {
        var rng = Seeded(state: seed)
        func space() -> String { ["", " ", "\n", "\n\n  ", "\t"][Int.random(in: 0..<5, using: &rng)] }
        func field(_ n: Int) -> String {
            switch Int.random(in: 0..<12, using: &rng) {
            case 0: return "\(n)"
            case 1: return "\"f\(n) ]}\""
            case 2: return "[\(n), {\"fields\": [{\"id\": \(n)}]}]"
            case 3: return "null"
            case 4: return "{\"id\":\(space())\"f\(n)\", \"model\": {\"fields\": [{\"a\": {\"fields\": []}}], \"x\": \"\\\"{\"}}"
            default:
                return
                    "{\(space())\"id\": \"f\(n)\",\(space())\"cell\": \"c\", \"model\": {\"title\": \"Name \\u00e9 \(n)\", \"v\": [\(n), \(n).5, true]}}"
            }
        }
        func fields(_ count: Int, _ start: Int) -> String {
            "[" + (0..<count).map { space() + field(start + $0) }.joined(separator: ",") + space() + "]"
        }
        var n = 0
        func section(_ s: Int, large: Bool) -> String {
            let count = large ? 4000 : Int.random(in: 0..<60, using: &rng)
            defer { n += count }
            var out = "{\"id\": \"s\(s)\", \"fields\": \(fields(count, n))"
            switch Int.random(in: 0..<6, using: &rng) {
            case 0: out = "{\"fields\": \(fields(count, n)), \"id\": \"s\(s)\", \"footer\": \"]}\""
            case 1: out += ", \"more\": {\"fields\": \(fields(2, n + count))}"
            case 2: out = "{\"id\": \"s\(s)\", \"fields\": {\"a\": \(fields(2, n))}, \"x\": \(fields(count, n))"
            default: break
            }
            return out + space() + "}"
        }
        let large = Int.random(in: 0..<40, using: &rng)
        let sections = (0..<40).map { section($0, large: $0 == large) }
        let pages = (0..<3).map { p in
            "{\"id\": \"p\(p)\", \"sections\": [\(section(100 + p, large: false)), \(section(200 + p, large: p == 1))]}"
        }
        let pagesFirst = Int.random(in: 0..<2, using: &rng) == 0
        var out = "{\"formwork\": 1, \"id\": \"odd\""
        if pagesFirst { out += ", \"pages\": [\(pages.joined(separator: ","))]" }
        out += ",\(space())\"sections\": [\(sections.joined(separator: "," + space()))]"
        if !pagesFirst { out += ", \"pages\": [\(pages.joined(separator: ","))]" }
        return out + space() + "}" + space()
    }

    @Test("documents of odd shapes: whatever the parallel parse takes, it gives the sequential parse's nodes and lines")
    func oddShapes() throws {
        var taken = 0
        for seed in UInt64(1)...6 {
            var text = oddDocument(seed)
            #expect(text.utf8.count > JSONParser.parallelThreshold / 2, "seed \(seed)")
            let expected = try sequential(text).get()
            guard let parallel = text.withUTF8({ JSONParser.parseSectionsInParallel($0) }) else { continue }
            taken += 1
            #expect(parallel.json == expected.json, "seed \(seed)")
            #expect(lines(parallel) == lines(expected), "seed \(seed)")
        }
        #expect(taken == 6)
    }

    @Test("a document with an error anywhere gives up the parallel parse and is reported as by the sequential one")
    func errors() throws {
        for fault in [Fault.badNumber, .duplicateKey, .unbalanced, .textAfterList, .unterminated] {
            var text = document(fault)
            #expect(text.withUTF8 { JSONParser.parseSectionsInParallel($0) } == nil, "\(fault)")
            guard case .failure(let expected) = sequential(text) else {
                Issue.record("\(fault): the sequential parse accepted it")
                continue
            }
            #expect(throws: expected, "\(fault)") { try JSONParser.parse(text) }
        }
    }

    /// The skip a byte at a time: a backslash in a string takes the next byte as it is (uncounted).
    func skippedByBytes(_ bytes: [UInt8], from start: Int) -> (closed: Bool, end: Int, line: Int) {
        var index = start, line = 1, depth = 0, inString = false
        while index < bytes.count {
            let b = bytes[index]
            index += 1
            if inString {
                if b == 0x5C { index += 1 } else if b == 0x22 { inString = false } else if b == 0x0A { line += 1 }
                continue
            }
            switch b {
            case 0x22: inString = true
            case 0x7B, 0x5B: depth += 1
            case 0x7D, 0x5D:
                depth -= 1
                if depth == 0 { return (true, index, line) }
            case 0x0A: line += 1
            default: break
            }
        }
        return (false, index, line)
    }

    @Test("the first pass's skip, eight bytes at a time, ends where a byte-at-a-time scan ends, on the same line")
    func skipByWords() {
        var rng = Seeded(state: 7)
        // Bytes that matter, and some that do not; escapes at every place in a word, brackets in strings, line feeds
        // after backslashes, and runs that do not close.
        let dense = Array(#""\{}[]"#.utf8) + [0x0A, 0x0A, 0x61, 0x20, 0xC3, 0x7B | 0x80, 0x5D ^ 0x20]
        // Mostly words with no bracket and no backslash, whose quotes and line feeds are only counted.
        let sparse = Array(repeating: UInt8(0x61), count: 40) + Array(repeating: UInt8(0x22), count: 8) + [0x0A, 0x0A, 0x20] + dense
        var checked = 0
        for k in 0..<4000 {
            var bytes: [UInt8] = [Bool.random(using: &rng) ? 0x7B : 0x5B]
            let alphabet = k % 2 == 0 ? dense : sparse
            for _ in 0..<Int.random(in: 0..<(k % 2 == 0 ? 90 : 400), using: &rng) { bytes.append(alphabet.randomElement(using: &rng)!) }
            if Bool.random(using: &rng) { bytes += Array(#"}]}]"}"#.utf8) }
            let words = bytes.withUnsafeBufferPointer { JSONParser.skipped(from: 0, in: $0) }
            let expected = skippedByBytes(bytes, from: 0)
            #expect(words.closed == expected.closed && words.end == expected.end && words.line == expected.line, "\(bytes)")
            checked += expected.closed ? 1 : 0
        }
        #expect(checked > 500)  // both outcomes were checked
    }

    @Test("a parsed node is 24 bytes (a large document holds millions of them), YAML's plain-scalar text included")
    func nodeSize() throws {
        #expect(MemoryLayout<SourceNode>.stride == 24)
        let node = try YAMLReader.parse("a: yes\nb: 1.0\nc: 'yes'\nd: 3\ne: 1e3\nf: 0x1F\ng: true\nh: 4\n")
        #expect(node["a"]?.plainText == "yes" && node["b"]?.plainText == "1.0" && node["c"]?.plainText == nil)
        #expect(node["d"]?.plainText == "3" && node["e"]?.plainText == "1e3" && node["f"]?.plainText == "0x1F")
        #expect(node["g"]?.plainText == "true" && node["h"]?.line == 8)
        #expect(try JSONParser.parse("{\"a\": 3}")["a"]?.plainText == nil)  // JSON numbers never read as text
        if case .bool(true)? = node["a"]?.kind {} else { Issue.record("a plain yes is a boolean") }
        if case .number(1.0)? = node["b"]?.kind {} else { Issue.record("a plain 1.0 is a number") }
    }
}
