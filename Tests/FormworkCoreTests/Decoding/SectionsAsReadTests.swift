import Foundation
import FormworkTestSupport
import Testing

@testable import FormworkCore

/// A YAML document's sections are decoded one by one as libyaml reads them (`FormDecoder.decodeSectionsAsRead`):
/// the form must be the one the usual path (the whole tree, then decoded) makes, and a document with any problem
/// must get exactly the usual path's report.
@Suite("Document: YAML sections decoded as they are read")
struct SectionsAsReadTests {
    /// `body` as on two cores, where `load` decodes a YAML document's sections as read (with four cores or more
    /// it decodes the tree on several instead): `decodeSectionsAsRead` is called directly, so nothing to change.
    static func onTwoCores<T>(_ body: () throws -> T) rethrows -> T { try body() }

    /// The document decoded as read, or nil when that path gives up.
    static func asRead(_ text: String, catalog: some CellTypeCatalog = TreeInParallelTests.SharedCatalog()) -> Form? {
        var text = text
        return onTwoCores { text.withUTF8 { FormDecoder.decodeSectionsAsRead($0, path: "form.yaml", registry: catalog) } }
    }

    /// What the usual path (tree, then decode) and `FormDecoder.load` of a `.yaml` file make of `text`: the form
    /// written out, or the error.
    static func outcomes(
        _ text: String, _ name: String, catalog: some CellTypeCatalog = TreeInParallelTests.SharedCatalog()
    ) throws -> (tree: String, load: String) {
        let path = try Scratch.file("as-read/\(name).yaml", contents: text)
        func outcome(_ body: () throws(FormError) -> Form) -> String {
            do { return SectionsAsParsedTests.dumped(try body()) } catch { return "\(error)" }
        }
        return onTwoCores {
            (
                outcome { () throws(FormError) in try FormDecoder.decode(text: text, json: false, registry: catalog, file: path) },
                outcome { () throws(FormError) in try FormDecoder.load(path: path, registry: catalog) }
            )
        }
    }

    /// A block-style YAML document of `sections` sections (each field a flow mapping on its line, as people and
    /// generators write them), with a condition now and then, a repeated group, required fields and rules.
    static func blockDocument(sections: Int, idLast: Bool = false, extra: String = "") -> String {
        var out = "formwork: 1\n" + (idLast ? "" : "id: block\n") + "title: \"Block: \\u00e9\"\nsections:\n"
        var n = 0
        for s in 0..<sections {
            out += "  - id: s\(s)\n    header: Section \(s)\n"
            if s % 9 == 4 { out += "    repeat: { minItems: 1, maxItems: 3, itemLabel: Row }\n" }
            out += "    fields:\n"
            var counter: Int?  // a counter of this section, for a condition to read
            for _ in 0..<(1 + s % 12) {
                n += 1
                if n % 2 == 0 {
                    var field = "      - { id: t\(n), cell: test.text-field, model: { title: \"Name \(n)\", value: v\(n) }"
                    if n % 3 == 0 { field += ", required: true" }
                    if n % 4 == 0 { field += ", rules: { maxLength: 15 }" }
                    if n % 5 == 0 && s % 9 != 4, let counter { field += ", visibleIf: \"c\(counter) > 3\"" }
                    out += field + " }\n"
                } else {
                    counter = n
                    out +=
                        "      - id: c\(n)\n        cell: test.counter\n        model:\n          title: Count \(n)\n          value: \(n % 50)\n"
                }
            }
        }
        return out + (idLast ? "id: block\n" : "") + extra
    }

    @Test("a block-style document: the form of the usual path, from load too, whether the form's id comes first or last")
    func block() throws {
        for idLast in [false, true] {
            let text = Self.blockDocument(sections: 300, idLast: idLast)
            let (tree, load) = try Self.outcomes(text, "block-\(idLast)")
            #expect(tree.hasPrefix("form "), "\(tree.prefix(300))")
            let form = try #require(Self.asRead(text))
            #expect(form.fieldCount > 1500)
            #expect(SectionsAsParsedTests.dumped(form) == tree)
            #expect(load == tree)
            #expect(form.sections.contains { $0.repeatGroup != nil } && !form.evaluationOrder.isEmpty)
        }
    }

    @Test("the generated documents, written as YAML's flow style: the usual path's form, or its report word for word")
    func flow() throws {
        for fault in SectionsAsParsedTests.Fault.allCases {
            let text = SectionsAsParsedTests.document(fault)
            let (tree, load) = try Self.outcomes(text, "flow-\(fault)")
            #expect(load == tree, "\(fault)")
            // Taken as read only when there is no problem at all (`1.` is a number in YAML), and not with pages (each
            // page's sections are the usual path's).
            #expect((Self.asRead(text) != nil) == (tree.hasPrefix("form ") && fault != .pages), "\(fault)")
            #expect(tree.hasPrefix("form ") == [.none, .badNumber, .largeSectionBadNumber, .pages].contains(fault), "\(fault)")
        }
        let rich = SectionsAsParsedTests.richDocument()
        let form = try #require(Self.asRead(rich))
        let (tree, load) = try Self.outcomes(rich, "flow-rich")
        #expect(SectionsAsParsedTests.dumped(form) == tree)
        #expect(load == tree)
    }

    @Test(
        "a problem anywhere, a section that is not a mapping, pages, a second document: it gives up, and load reports what the usual path reports",
        arguments: [
            ("late", "  - id: s1\n    fields:\n      - { id: x1, cell: test.counter, model: { value: many } }\n"),
            ("unknownKey", "  - id: s1\n    colour: red\n    fields:\n      - { id: x1, cell: test.counter }\n"),
            ("repeatedSection", "  - id: s0\n    fields:\n      - { id: x1, cell: test.counter }\n"),
            ("repeatedField", "  - id: s1\n    fields:\n      - { id: t2, cell: test.text-field, model: { title: Again } }\n"),
            ("scalarSection", "  - a section\n"),
            ("nullSection", "  - null\n"),
            ("missingCell", "  - id: s1\n    fields:\n      - { id: x1, cell: test.nothing }\n"),
            ("rootKey", "colour: red\n"),
            ("pages", "pages:\n  - id: p\n    sections:\n      - id: q\n        fields:\n          - { id: x1, cell: test.counter }\n"),
            ("secondDocument", "---\nformwork: 1\n"),
            ("syntax", "  - id: [s1\n"),
            ("alias", "  - id: s1\n    fields: *list\n"),
        ])
    func givesUp(name: String, tail: String) throws {
        // The fault comes after 200 sections that were decoded as they were read.
        let text = Self.blockDocument(sections: 200) + tail
        let (tree, load) = try Self.outcomes(text, "faults/\(name)")
        #expect(load == tree)
        #expect(!tree.hasPrefix("form "), "the usual path finds the fault: \(tree.prefix(200))")
        #expect(Self.asRead(text) == nil)
    }

    @Test("a document is told to be YAML before it is read as its load tells it: by name, else by its first bytes")
    func yamlBeforeReading() throws {
        let cases: [(name: String, contents: String, yaml: Bool)] = [
            ("form.yaml", "{\"formwork\": 1}", true),  // the name decides, as for the load
            ("form.YML", "formwork: 1\n", true),
            ("form.json", "formwork: 1\n", false),
            ("form", "  \n\t{\"formwork\": 1}", false),
            ("form-list", "[1]", false),
            ("form-text", "\u{3000}formwork: 1\n", true),  // a blank past ASCII, then YAML
            ("empty", "", true),
        ]
        for c in cases {
            let path = try Scratch.file("kind/\(c.name)", contents: c.contents)
            #expect(SourceFile.isYAMLDocument(at: path) == c.yaml, "\(c.name)")
            let bytes = Array(c.contents.utf8)
            let byLoad = bytes.withUnsafeBufferPointer { SourceFile.format(of: path, bytes: $0) } == .yaml
            #expect(byLoad == c.yaml, "\(c.name): the load's own test")
        }
        // What cannot be opened or read is left to the load to report.
        #expect(!SourceFile.isYAMLDocument(at: "-"))
        #expect(!SourceFile.isYAMLDocument(at: Scratch.directory + "/kind/missing.yaml"))
        #expect(!SourceFile.isYAMLDocument(at: Scratch.directory + "/kind"))
    }

    /// The document at `path` decoded as read from its file (its bytes let go, `YAMLReader.parse(file:count:)`),
    /// and whether the file is unchanged after.
    static func asReadFromFile(_ path: String) throws -> (form: Form?, unchanged: Bool) {
        let (bytes, file) = try SourceFile.document(at: path, keepOpen: true)
        let source = try #require(file)
        let form = FormDecoder.decodeSectionsAsRead(
            file: source, count: bytes.count, path: path, registry: TreeInParallelTests.SharedCatalog())
        return (form, source.isUnchanged)
    }

    /// `load`'s outcome with the size from which the bytes are let go lowered to take that path.
    static func loadReadingAgain(_ path: String) -> String {
        do {
            return SectionsAsParsedTests.dumped(
                try FormDecoder.loadDocument(path: path, registry: TreeInParallelTests.SharedCatalog(), readAgainFrom: 0))
        } catch {
            return "\(error)"
        }
    }

    @Test("read again from the file as libyaml asks: the usual path's form, block and flow style, from load too")
    func readAgain() throws {
        for (name, text) in [("block", Self.blockDocument(sections: 300)), ("rich", SectionsAsParsedTests.richDocument())] {
            let (tree, _) = try Self.outcomes(text, "again-\(name)")
            let path = try Scratch.file("as-read/again-\(name).yaml", contents: text)
            let (form, unchanged) = try Self.asReadFromFile(path)
            #expect(unchanged)
            #expect(SectionsAsParsedTests.dumped(try #require(form)) == tree, "\(name)")
            #expect(Self.loadReadingAgain(path) == tree, "\(name)")
        }
    }

    @Test(
        "read again from the file, a problem anywhere: it gives up, and load reports what the usual path reports",
        arguments: ["late", "repeatedField", "scalarSection", "pages", "secondDocument", "syntax", "alias"])
    func readAgainGivesUp(name: String) throws {
        let tails = [
            "late": "  - id: s1\n    fields:\n      - { id: x1, cell: test.counter, model: { value: many } }\n",
            "repeatedField": "  - id: s1\n    fields:\n      - { id: t2, cell: test.text-field, model: { title: Again } }\n",
            "scalarSection": "  - a section\n",
            "pages": "pages:\n  - id: p\n    sections:\n      - id: q\n        fields:\n          - { id: x1, cell: test.counter }\n",
            "secondDocument": "---\nformwork: 1\n",
            "syntax": "  - id: [s1\n",
            "alias": "  - id: s1\n    fields: *list\n",
        ]
        let text = Self.blockDocument(sections: 200) + tails[name]!
        let (tree, _) = try Self.outcomes(text, "again-faults/\(name)")
        let path = try Scratch.file("as-read/again-faults/\(name).yaml", contents: text)
        #expect(try Self.asReadFromFile(path).form == nil)
        #expect(Self.loadReadingAgain(path) == tree)
    }

    @Test("a YAML file cut short after it was read: libyaml's read fails, the path gives up, and load reads the file again")
    func readAgainCutShort() throws {
        let text = Self.blockDocument(sections: 300)
        let path = try Scratch.file("as-read/again-cut/form.yaml", contents: text)
        let (bytes, file) = try SourceFile.document(at: path, keepOpen: true)
        let source = try #require(file)
        let cut = String(text.prefix(text.utf8.count / 2))
        let keep = String(cut[..<cut.lastIndex(of: "\n")!]) + "\n"
        #expect(truncate(path, off_t(keep.utf8.count)) == 0)
        #expect(!source.isUnchanged)
        #expect(
            FormDecoder.decodeSectionsAsRead(file: source, count: bytes.count, path: path, registry: TreeInParallelTests.SharedCatalog())
                == nil)
        let tree: String
        do {
            tree = SectionsAsParsedTests.dumped(
                try FormDecoder.decode(text: keep, json: false, registry: TreeInParallelTests.SharedCatalog(), file: path))
        } catch {
            tree = "\(error)"
        }
        #expect(Self.loadReadingAgain(path) == tree)
    }

    @Test("a document whose sections are not a list, or are empty, is the usual path's; JSON is never read this way")
    func notSections() throws {
        for (name, text) in [
            ("map", "formwork: 1\nid: f\nsections:\n  a: 1\n"), ("empty", "formwork: 1\nid: f\nsections: []\n"),
            ("none", "formwork: 1\nid: f\n"),
        ] {
            let (tree, load) = try Self.outcomes(text, "not/\(name)")
            #expect(load == tree)
            #expect(Self.asRead(text) == nil)
        }
        var json = SectionsAsParsedTests.richDocument()
        let taken = Self.onTwoCores {
            json.withUTF8 { FormDecoder.decodeSectionsAsRead($0, path: "form.json", registry: TreeInParallelTests.SharedCatalog()) }
        }
        #expect(taken == nil)
    }

    @Test("each section's nodes are offered as soon as they are read, at the root's sections list only")
    func offered() throws {
        let text = """
            formwork: 1
            id: f
            sections:
              - id: a
                fields: [{ id: x, cell: test.counter, model: { sections: [{ id: inner }] } }]
              - [not, a, mapping]
              - plain
            """
        var offered: [(index: Int, kind: String)] = []
        var bytes = text
        let root = try bytes.withUTF8 { buffer in
            try YAMLReader.parse(bytes: buffer) { node, index in
                offered.append((index, node.typeName))
                return index == 0
            }
        }
        // The mapping and the list (collections end with an event of their own); the scalar is not offered.
        #expect(offered.map(\.index) == [0, 1] && offered.map(\.kind) == ["an object", "a list"])
        guard case .array(let items)? = root["sections"]?.kind else {
            Issue.record("no sections list")
            return
        }
        #expect(items.map(\.typeName) == ["null", "a list", "a string"])
    }

    // MARK: fields read flat

    /// The shared catalog's cell types and one with a list of text (`tags`).
    struct TagsCatalog: CellTypeCatalog {
        static let tags = CellType(
            id: "test.tags", name: "Tags",
            fields: [
                FieldSchema(name: "title", type: .string, required: true),
                FieldSchema(name: "tags", type: .stringList),
            ],
            packID: "test.pack", packPath: "<memory>", packABI: InMemory.abi)
        let inner = InMemory.Catalog(cellTypes: [InMemory.textField, InMemory.counter, tags])
        func cellType(_ id: String) throws(RegistryError) -> CellType { try inner.cellType(id) }
        var cellTypes: [CellType] { inner.cellTypes }
        var supportsConcurrentLookups: Bool { true }
    }

    /// Fields as people write them, each in a section of a 40-section document: read flat (quoted or plain scalars,
    /// block or flow style, numbers in YAML's forms, lists of text), or not (a value that is not the schema's kind as
    /// YAML reads it, conditions, rules) and read from the same events into nodes.
    static let flatVariants = [
        "{ id: a, cell: test.text-field, model: { title: \"Quoted\", value: plain } }",
        "id: b\n        cell: test.text-field\n        model:\n          title: Block\n          value: 'single'",
        "{ id: c, cell: test.text-field, model: { title: yes, value: 1.5 } }",
        "{ id: d, cell: test.counter, model: { title: Hex, value: 0x1F } }",
        "{ id: e, cell: test.counter, model: { value: 1_0 }, required: yes, accessibilityId: acc-e }",
        "{ id: f, cell: test.tags, model: { title: Tags, tags: [a, \"b\", c] } }",
        "{ id: g, cell: test.tags, model: { title: None, tags: [] } }",
        "{ id: h, cell: test.tags, model: { title: Words, tags: [a, On, 3] } }",
        "{ id: j, cell: test.counter, model: { value: ~ } }",
        "{ id: k, cell: test.counter, model: { value: 4 }, visibleIf: \"d > 3\" }",
        "{ id: l, cell: test.text-field, model: { title: Rules, value: x }, rules: { maxLength: 5 } }",
        "{ \"id\": m, 'cell': test.text-field, model: { 'title': \"Keys quoted\" } }",
        "{ id: n, cell: test.text-field, required: false, model: { title: \"Caf\\u00e9\" } }",
    ]

    /// A document with `variants` as the fields of its first sections, and plain sections after them (one repeated).
    static func flatDocument(_ variants: [String]) -> String {
        var out = "formwork: 1\nid: flat\nsections:\n"
        for (k, field) in variants.enumerated() {
            out += "  - id: v\(k)\n    fields:\n      - \(field)\n      - { id: p\(k), cell: test.counter, model: { value: \(k) } }\n"
        }
        for s in 0..<40 {
            out += "  - id: s\(s)\n" + (s == 7 ? "    repeat: { minItems: 1, maxItems: 3 }\n" : "") + "    fields:\n"
            for f in 0..<5 { out += "      - { id: q\(s)x\(f), cell: test.text-field, model: { title: T\(f), value: v\(f) } }\n" }
        }
        return out
    }

    @Test("fields read flat, as people write them: the usual path's form, from load too")
    func flatFields() throws {
        let text = Self.flatDocument(Self.flatVariants)
        let (tree, load) = try Self.outcomes(text, "flat/variants", catalog: TagsCatalog())
        #expect(tree.hasPrefix("form "), "\(tree.prefix(400))")
        let form = try #require(Self.asRead(text, catalog: TagsCatalog()))
        #expect(SectionsAsParsedTests.dumped(form) == tree)
        #expect(load == tree)
        #expect(form.sections.contains { $0.repeatGroup != nil })
    }

    @Test(
        "a field that cannot be read flat, or has a problem: the usual path's report word for word",
        arguments: [
            ("quotedRequired", "{ id: x, cell: test.counter, required: \"true\" }"),
            ("numberID", "{ id: 12, cell: test.counter }"),
            ("nullModel", "{ id: x, cell: test.counter, model: }"),
            ("lineBreak", "{ id: x, cell: test.text-field, model: { title: \"Line\\nbreak\" } }"),
            ("anchor", "&a { id: x, cell: test.counter }"),
            ("anchoredValue", "{ id: x, cell: test.counter, model: { value: &v 3 } }"),
            ("alias", "{ id: x, cell: test.counter, model: *m }"),
            ("tag", "{ id: x, cell: test.counter, model: { value: !!int 3 } }"),
            ("mergeKey", "{ id: x, cell: test.counter, <<: { model: {} } }"),
            ("repeatedKey", "{ id: x, cell: test.counter, model: { value: 1, value: 2 } }"),
            ("repeatedFieldKey", "{ id: x, cell: test.counter, id: y }"),
            ("nul", "{ id: x, cell: test.text-field, model: { title: \"a\\0b\" } }"),
            ("unknownKey", "{ id: x, cell: test.counter, colour: red }"),
            ("manyValues", "{ id: x, cell: test.counter, model: { " + (0..<17).map { "k\($0): 1" }.joined(separator: ", ") + " } }"),
            ("outOfRange", "{ id: x, cell: test.counter, model: { value: 1000 } }"),
            ("repeatedID", "{ id: p3, cell: test.counter }"),
            ("unknownCell", "{ id: x, cell: test.nothing }"),
            ("mappingKey", "{ id: x, cell: test.counter, { a: 1 }: 2 }"),
            ("unclosed", "{ id: x, cell: test.counter, model: { value: 3 }"),
            ("listInList", "{ id: x, cell: test.tags, model: { title: T, tags: [a, [b]] } }"),
        ])
    func flatFieldFaults(name: String, field: String) throws {
        let text = Self.flatDocument(Self.flatVariants + [field])
        let (tree, load) = try Self.outcomes(text, "flat/faults/\(name)", catalog: TagsCatalog())
        #expect(load == tree)
        #expect(!tree.hasPrefix("form "), "the usual path finds the fault: \(tree.prefix(200))")
        #expect(Self.asRead(text, catalog: TagsCatalog()) == nil)
    }

    /// A node written out with its kinds, keys and lines (`SourceNode` is not `Equatable`).
    static func dump(_ node: SourceNode) -> String {
        let line = node.line.map(String.init) ?? "-"
        switch node.kind {
        case .object(let members): return "{\(line) " + members.map { "\($0.key): \(dump($0.value))" }.joined(separator: ", ") + "}"
        case .array(let items): return "[\(line) " + items.map(dump).joined(separator: ", ") + "]"
        default: return "\(node.kind)@\(line)/\(node.plainText ?? "")"
        }
    }

    @Test("each field of a section's list is offered flat as it is read; one taken is a null, any other the nodes it would be")
    func offeredFlat() throws {
        let text = Self.flatDocument(Self.flatVariants)
        var bytes = text
        var offered: [String] = []
        let (plain, taking) = try bytes.withUTF8 { buffer in
            (
                try YAMLReader.parse(bytes: buffer),
                try YAMLReader.parse(
                    bytes: buffer,
                    takeField: { (field: inout FlatField, section: Int, row: Int) -> Bool in
                        offered.append("\(section)/\(row) \(field.id ?? "-")")
                        return row == 1  // the plain counter after each variant, and every section's second field
                    })
            )
        }
        // Offered: every field that reads flat, and none that does not (conditions, rules, a list with
        // words YAML reads as other kinds, a string field's `yes` is offered: the decoder, not the reader, refuses it).
        let variantsOffered = offered.filter {
            $0.hasSuffix("/0 " + $0.split(separator: " ").last!) && Int($0.split(separator: "/")[0])! < 13
        }
        #expect(variantsOffered.map { String($0.split(separator: " ").last!) } == ["a", "b", "c", "d", "e", "f", "g", "j", "m", "n"])
        #expect(offered.count == 10 + 13 + 40 * 5)
        guard case .array(let plainSections)? = plain["sections"]?.kind, case .array(let takenSections)? = taking["sections"]?.kind
        else {
            Issue.record("no sections")
            return
        }
        #expect(plainSections.count == takenSections.count)
        for (a, b) in zip(plainSections, takenSections) {
            guard case .array(let fa)? = a["fields"]?.kind, case .array(let fb)? = b["fields"]?.kind else {
                Issue.record("no fields")
                return
            }
            for row in fa.indices {
                if row == 1 {
                    #expect(Self.dump(fb[row]).hasPrefix("null@"))
                } else {
                    #expect(Self.dump(fa[row]) == Self.dump(fb[row]))
                }
            }
            #expect(Self.dump(a["id"]!) == Self.dump(b["id"]!))
        }
    }
}
