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
