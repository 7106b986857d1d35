import Foundation
import FormworkTestSupport
import Testing

@testable import FormworkCore

/// A large JSON document's sections parsed and decoded together, a section at a time on each core
/// (`FormDecoder.decodeSectionsAsParsed`): the form of the usual path when the document has no problem, and
/// nothing (the usual path then reports) at the first sign of one.
@Suite("Document: sections decoded as they are parsed")
struct SectionsAsParsedTests {
    enum Fault: CaseIterable {
        case none, unknownKey, wrongValue, repeatedField, repeatedSection, badNumber, notAnObject, pages
        /// In a section of 16,000 fields between two small ones (its fields shared out, not the sections).
        case largeSectionUnknownKey, largeSectionRepeatedField, largeSectionBadNumber, largeSectionNotAnObject, largeSectionRepeated

        var inLargeSection: Bool { "\(self)".hasPrefix("largeSection") }
    }

    /// 700 sections of 1 to 40 fields (past the parallel threshold), with conditions, broken in one place by `fault`;
    /// or, with `large` (and any fault in a large section), three sections, the second of 16,000 fields.
    /// With `objects`, every tenth section's values nest (`object: oS`), conditions naming its fields as `oS.tN`.
    static func document(_ fault: Fault, large: Bool = false, objects: Bool = false) -> String {
        let large = large || fault.inLargeSection
        var sections: [String] = []
        var n = 0
        var scope: [Int: String] = [:]
        for s in 0..<(large ? 3 : 700) {
            let object = objects && s % 10 == 3 ? "o\(s)" : nil
            var fields: [String] = []
            for _ in 0..<(large ? (s == 1 ? 16_000 : 5) : 1 + s % 40) {
                n += 1
                if let object { scope[n] = "\(object)." }
                var field =
                    n % 2 == 0
                    ? #"{"id":"t\#(n)","cell":"test.text-field","model":{"title":"Name \#(n) \u00e9 ]}","value":"v\#(n)"}"#
                    : #"{"id":"c\#(n)","cell":"test.counter","model":{"value":\#(n % 50)}"#
                let previous = scope[n - 1] ?? ""
                if n % 97 == 0 {
                    field +=
                        (n - 1) % 2 == 0 ? #","visibleIf":"\#(previous)t\#(n - 1) != ''""# : #","visibleIf":"\#(previous)c\#(n - 1) > 3""#
                }
                if large ? s == 1 && fields.count == 9_000 : s == 650 && fields.isEmpty {
                    switch fault {
                    case .unknownKey, .largeSectionUnknownKey: field += #","colour":"red""#
                    case .wrongValue: field = #"{"id":"c\#(n)","cell":"test.counter","model":{"value":"many"}"#
                    case .repeatedField: field = #"{"id":"t10","cell":"test.text-field","model":{"title":"Again"}"#
                    case .largeSectionRepeatedField: field = #"{"id":"t2","cell":"test.text-field","model":{"title":"Again"}"#
                    case .badNumber, .largeSectionBadNumber: field = #"{"id":"c\#(n)","cell":"test.counter","model":{"value":1.}"#
                    case .largeSectionNotAnObject: field = #""a field""#
                    default: break
                    }
                }
                fields.append(field.hasPrefix("{") ? field + "}" : field)
            }
            let id = fault == .repeatedSection && s == 690 ? "s5" : "s\(s)"
            let repeated =
                fault == .largeSectionRepeated && s == 1 ? #","repeat":{"maxItems":2}"# : object.map { #","object":"\#($0)""# } ?? ""
            sections.append(#"{"id":"\#(id)","header":"Section \#(s)"\#(repeated),"fields":[\#(fields.joined(separator: ",\n"))]}"#)
        }
        if fault == .notAnObject { sections[400] = #""a section""# }
        if fault == .pages {
            return #"{"formwork":1,"id":"big","pages":[{"id":"p","sections":[\#(sections.joined(separator: ",\n"))]}]}"#
        }
        return #"{"formwork":1,"id":"big","sections":[\#(sections.joined(separator: ",\n"))]}"#
    }

    /// What the form holds, written out in order (its dictionaries and sets compared as values, not dumped:
    /// two equal ones may list their members in different orders).
    static func dumped(_ form: Form) -> String {
        var out = "form \(form.id) \(String(describing: form.title)) \(String(describing: form.description))\n"
        out += "order \(form.evaluationOrder)\npages \(form.pages.map { "\($0.id) \($0.sections)" })\n"
        func text(_ value: Any?) -> String { value.map { "\($0)" } ?? "-" }
        for section in form.sections {
            let parts: [Any?] = [
                section.id, section.header, section.footer, section.insets, section.spacing, section.repeatGroup, section.conditions,
                section.template.map(\.id), section.object,
            ]
            out += "section " + parts.map(text).joined(separator: " ") + "\n"
            for field in section.fields {
                let parts: [Any?] = [
                    field.id, field.cell.id, field.model.values, field.textInput, field.accessibilityId, field.required, field.valueField,
                    field.pointer, field.rules, field.conditions, field.crossRules,
                ]
                out += "  " + parts.map(text).joined(separator: " ") + "\n"
            }
        }
        return out
    }

    /// The document decoded as parsed, or nil when that path gives up.
    static func asParsed(_ text: String) -> Form? {
        var text = text
        return text.withUTF8 { FormDecoder.decodeSectionsAsParsed($0, path: "big.json", registry: TreeInParallelTests.SharedCatalog()) }
    }

    /// What the usual path (the whole tree parsed, then decoded) and `FormDecoder.load` make of the document:
    /// the form written out, or the error.
    static func outcomes(_ text: String, _ name: String) throws -> (tree: String, load: String) {
        let catalog = TreeInParallelTests.SharedCatalog()
        let path = try Scratch.file("as-parsed/\(name)/big.json", contents: text)
        func outcome(_ body: () throws(FormError) -> Form) -> String {
            do { return dumped(try body()) } catch { return "\(error)" }
        }
        return (
            outcome { () throws(FormError) in try FormDecoder.decode(text: text, json: true, registry: catalog, file: path) },
            outcome { () throws(FormError) in try FormDecoder.load(path: path, registry: catalog) }
        )
    }

    @Test("a document with no problem: the form of the usual path, from load too")
    func same() throws {
        let text = Self.document(.none)
        #expect(text.utf8.count > JSONParser.parallelThreshold)
        let form = try #require(Self.asParsed(text))
        #expect(form.fieldCount > 13_000)
        let (tree, load) = try Self.outcomes(text, "none")
        #expect(Self.dumped(form) == tree)
        #expect(load == tree)
        #expect(form.evaluationOrder.count > 100)  // the conditions were read
    }

    @Test("sections whose values nest (object): every path makes the usual path's form, ids and conditions scoped")
    func objects() throws {
        let text = Self.document(.none, objects: true)
        let (tree, load) = try Self.outcomes(text, "objects")
        #expect(load == tree)
        #expect(tree.contains("  o3.t"), "\(tree.prefix(600))")
        if let form = Self.asParsed(text) { #expect(Self.dumped(form) == tree) }
        let form = try FormDecoder.decode(text: text, json: true, registry: TreeInParallelTests.SharedCatalog())
        #expect(form.sections[3].object == "o3" && form.sections[3].fields.allSatisfy { $0.id.hasPrefix("o3.") })
        #expect(form.evaluationOrder.contains { $0.hasPrefix("o") && $0.contains(".") })
    }

    @Test("a section of 16,000 fields between small ones: its fields shared out, the form of the usual path")
    func largeSection() throws {
        let text = Self.document(.none, large: true)
        #expect(text.utf8.count > JSONParser.parallelThreshold)
        let form = try #require(Self.asParsed(text))
        #expect(form.sections.map(\.fields.count) == [5, 16_000, 5])
        let (tree, load) = try Self.outcomes(text, "large")
        #expect(Self.dumped(form) == tree)
        #expect(load == tree)
        #expect(form.evaluationOrder.count > 100)
    }

    /// For each cell type of the form, the distinct objects its fields hold.
    static func cellObjects(_ form: Form) -> [String: [CellType]] {
        var objects: [String: [CellType]] = [:]
        for field in form.fields where !(objects[field.cell.id] ?? []).contains(where: { $0 === field.cell }) {
            objects[field.cell.id, default: []].append(field.cell)
        }
        return objects
    }

    @Test(
        "each core decodes with cell types of its own: equal to the catalog's, at most one object per worker",
        arguments: [false, true])
    func cellTypesPerCore(large: Bool) throws {
        let catalog = TreeInParallelTests.SharedCatalog()
        var text = Self.document(.none, large: large)
        let form = try #require(text.withUTF8 { FormDecoder.decodeSectionsAsParsed($0, path: "big.json", registry: catalog) })
        let objects = Self.cellObjects(form)
        #expect(objects.keys.sorted() == ["test.counter", "test.text-field"])
        for (id, cells) in objects {
            let original = try catalog.cellType(id)
            // The catalog's object on the calling thread, a copy made once on each other worker (a large section's
            // runs are decoded by the same workers, with the same copies).
            #expect(cells.count <= Parallel.threads, "\(id): \(cells.count) objects")
            for cell in cells {
                #expect(cell.id == original.id && cell.name == original.name && cell.packPath == original.packPath)
                #expect(cell.fields == original.fields && cell.textInput == original.textInput && cell.roles == original.roles)
                #expect(cell.configure == original.configure && cell.modelOffsets == original.modelOffsets)
                #expect(cell.defaultModel == original.defaultModel && cell.defaultFits == original.defaultFits)
            }
        }
        // The same form as one decoder in order makes.
        let (tree, _) = try Self.outcomes(text, large ? "cell-types-large" : "cell-types")
        #expect(Self.dumped(form) == tree)
    }

    static func traits(contentType: String) -> TextInputTraits {
        var traits = TextInputTraits()
        traits.contentType = contentType
        return traits
    }

    @Test("a copied cell type is equal to its original, with schema objects, arrays and long strings of its own")
    func copiedCellType() throws {
        let long = "org.example.a-cell-type-with-a-long-identifier"
        let original = CellType(
            id: long, name: "A cell type with a long name",
            fields: [
                FieldSchema(
                    name: "value", type: .string, label: "The value of the field, in words",
                    defaultValue: .string("a default longer than fifteen bytes")),
                FieldSchema(name: "tags", type: .stringList, defaultValue: .stringList(["a tag longer than fifteen bytes", "b"])),
                FieldSchema(
                    name: "size", type: .choice,
                    choices: [Choice(value: "small"), Choice(value: "large", label: "Large, the largest of all")]),
            ],
            textInput: TextInputConfiguration(
                kind: .textField, field: "value",
                traits: Self.traits(contentType: "a content type longer than 15")),
            packID: "org.example.pack", packPath: "/usr/lib/formwork/packs/libexample-pack.so",
            packABI: ABIVersion(major: 1, minor: 1, patch: 0))
        let copy = original.copy()
        #expect(copy !== original)
        #expect(
            copy.id == original.id && copy.name == original.name && copy.packPath == original.packPath && copy.packABI == original.packABI)
        #expect(copy.fields == original.fields && copy.textInput == original.textInput && copy.roles == original.roles)
        #expect(copy.defaultModel == original.defaultModel && copy.defaultFits == original.defaultFits)
        #expect(copy.valueRoleField == original.valueRoleField && copy.requiredRoleIndex == original.requiredRoleIndex)
        for (a, b) in zip(copy.fields, original.fields) { #expect(a !== b) }
        func storage<T>(_ array: [T]) -> UnsafeRawPointer? { array.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) } }
        #expect(storage(copy.fields) != storage(original.fields))
        #expect(storage(copy.defaultModel) != storage(original.defaultModel))
        func utf8Storage(_ text: String) -> UnsafeRawPointer? {
            var text = text
            return text.withUTF8 { UnsafeRawPointer($0.baseAddress) }
        }
        #expect(utf8Storage(copy.id) != utf8Storage(original.id))
        #expect(utf8Storage(copy.fields[0].label) != utf8Storage(original.fields[0].label))
        if case .string(let a)? = copy.fields[0].defaultValue, case .string(let b)? = original.fields[0].defaultValue {
            #expect(a == b && utf8Storage(a) != utf8Storage(b))
        } else {
            Issue.record("the copy's default is not the original's")
        }
    }

    /// 600 sections with what a real form has: repeated groups, section and field conditions across sections,
    /// required fields, rules, text input settings, accessibility ids, labels with escapes.
    static func richDocument() -> String {
        var sections: [String] = []
        var n = 0
        var lastCounter: Int?
        for s in 0..<600 {
            let repeated = s % 7 == 3
            let earlierCounter = lastCounter  // a section's condition reads a field of an earlier section
            var fields: [String] = []
            for k in 0..<(1 + s % 30) {
                n += 1
                if n % 2 == 1 {
                    fields.append(#"{"id":"c\#(n)","cell":"test.counter","model":{"title":"Count \"\#(n)\"","value":\#(n % 50)}}"#)
                    if !repeated { lastCounter = n }
                    continue
                }
                var field = #"{"id":"t\#(n)","cell":"test.text-field","model":{"title":"Name \#(n) \u00e9 \/","value":"v\#(n)"}"#
                if n % 3 == 0 { field += #","required":true"# }
                if n % 4 == 0 { field += #","rules":{"maxLength":15}"# }
                if n % 5 == 0 { field += #","textInput":{"contentType":"name","autocapitalization":"words"}"# }
                if n % 6 == 0 { field += #","accessibilityId":"acc_\#(n)""# }
                if !repeated && k > 0 && n % 11 == 0 { field += #","enabledIf":"c\#(n - 1) >= 3""# }
                if !repeated, let c = earlierCounter, n % 13 == 0 { field += #","requiredIf":"c\#(c) > 10""# }
                fields.append(field + "}")
            }
            var section = #"{"id":"s\#(s)","header":"Section \#(s)""#
            if repeated { section += #","repeat":{"minItems":1,"maxItems":3,"itemLabel":"Row"}"# }
            if !repeated, s % 5 == 1, let c = earlierCounter { section += #","visibleIf":"c\#(c) > 3""# }
            sections.append(section + #","fields":[\#(fields.joined(separator: ",\n"))]}"#)
        }
        return #"{"formwork":1,"id":"rich","title":"Rich","sections":[\#(sections.joined(separator: ",\n"))]}"#
    }

    @Test("a document with repeated groups, conditions, rules and settings: the form of the usual path")
    func rich() throws {
        let text = Self.richDocument()
        #expect(text.utf8.count > JSONParser.parallelThreshold)
        let (tree, load) = try Self.outcomes(text, "rich")
        let form = try #require(Self.asParsed(text))
        #expect(Self.dumped(form) == tree)
        #expect(load == tree)
        #expect(form.sections.contains { $0.repeatGroup != nil } && form.sections.contains { $0.conditions.visibleIf != nil })
        #expect(form.fields.contains { $0.accessibilityId != $0.id } && form.fields.contains { $0.conditions.requiredIf != nil })
    }

    @Test(
        "a problem, a repeated id, a section that does not parse or another shape: it gives up, and load reports what the usual path reports",
        arguments: Fault.allCases.filter { $0 != .none })
    func givesUp(fault: Fault) throws {
        let text = Self.document(fault)
        #expect(text.utf8.count > JSONParser.parallelThreshold)
        #expect(Self.asParsed(text) == nil)
        let (tree, load) = try Self.outcomes(text, "\(fault)")
        #expect(load == tree)
        // An error, naming the file (a document of pages, or a repeated section of 16,000 fields, is fine).
        if fault != .pages && fault != .largeSectionRepeated { #expect(tree.contains("big.json")) }
    }

    // MARK: the document's bytes let go, each part read again from the file

    /// The document decoded by the streaming path from its file, read again a part at a time (`DocumentBytes.file`),
    /// or nil when that path gives up; and whether the file is unchanged after.
    static func fromFile(_ path: String) throws -> (form: Form?, unchanged: Bool) {
        let catalog = TreeInParallelTests.SharedCatalog()
        let (bytes, file) = try SourceFile.document(at: path, keepOpen: true)
        let source = try #require(file)
        let outline = try #require(
            bytes.withUnsafeBufferPointer { FormDecoder.sectionsToParse($0, path: path, registry: catalog, minimumBytes: 0) })
        let form = FormDecoder.decodeSections(outline, from: .file(source, count: bytes.count), path: path, registry: catalog)
        return (form, source.isUnchanged)
    }

    @Test(
        "read again from the file a part at a time: the usual path's form, for many small sections, a large one, nested values and a rich form",
        arguments: ["none", "large", "objects", "rich"])
    func readAgain(kind: String) throws {
        let text =
            switch kind {
            case "large": Self.document(.none, large: true)
            case "objects": Self.document(.none, objects: true)
            case "rich": Self.richDocument()
            default: Self.document(.none)
            }
        let (tree, _) = try Self.outcomes(text, "again-\(kind)")
        let path = try Scratch.file("as-parsed/again-\(kind)/big.json", contents: text)
        let (form, unchanged) = try Self.fromFile(path)
        #expect(unchanged)
        if kind == "objects" {
            if let form { #expect(Self.dumped(form) == tree) }
        } else {
            #expect(Self.dumped(try #require(form)) == tree)
        }
        // Through `load`, with the size from which the bytes are let go lowered to take this path.
        let loaded = try FormDecoder.loadDocument(path: path, registry: TreeInParallelTests.SharedCatalog(), readAgainFrom: 0)
        #expect(Self.dumped(loaded) == tree)
    }

    @Test(
        "read again from the file, a document with a problem: it gives up, and load reports what the usual path reports",
        arguments: Fault.allCases.filter { $0 != .none })
    func readAgainGivesUp(fault: Fault) throws {
        let text = Self.document(fault)
        let (tree, _) = try Self.outcomes(text, "again-\(fault)")
        let path = try Scratch.file("as-parsed/again-\(fault)/big.json", contents: text)
        if fault != .pages && fault != .notAnObject {
            #expect(try Self.fromFile(path).form == nil)
        }
        let loaded: String
        do {
            loaded = Self.dumped(try FormDecoder.loadDocument(path: path, registry: TreeInParallelTests.SharedCatalog(), readAgainFrom: 0))
        } catch {
            loaded = "\(error)"
        }
        #expect(loaded == tree)
    }

    @Test("a file written or cut short after it was read: not unchanged, a part past its end not read, so load reads it again")
    func fileChangedAfterReading() throws {
        let text = Self.document(.none)
        let path = try Scratch.file("as-parsed/changed/big.json", contents: text)
        let (bytes, file) = try SourceFile.document(at: path, keepOpen: true)
        let source = try #require(file)
        #expect(source.isUnchanged)
        #expect(source.read(0..<11) == Array(text.utf8.prefix(11)))
        #expect(source.read(5..<5) == [])
        #expect(source.read(bytes.count - 1..<bytes.count + 1) == nil)  // past the end
        // The same length, one value changed in place (a writer that does not replace the file).
        let changed = text.replacingOccurrences(of: #""value":"v2""#, with: #""value":"w2""#)
        #expect(changed != text && changed.utf8.count == text.utf8.count)
        let fd = open(path, O_WRONLY)
        #expect(fd >= 0)
        _ = changed.utf8CString.withUnsafeBufferPointer { pwrite(fd, $0.baseAddress!, changed.utf8.count, 0) }
        close(fd)
        #expect(!source.isUnchanged)
        let (tree, _) = try Self.outcomes(changed, "changed-tree")
        let loaded = try FormDecoder.loadDocument(path: path, registry: TreeInParallelTests.SharedCatalog(), readAgainFrom: 0)
        #expect(Self.dumped(loaded) == tree && tree.contains("w2"))
        // Cut short: the parts past the new end cannot be read, and the streaming path gives up.
        #expect(truncate(path, off_t(bytes.count / 2)) == 0)
        let outline = try #require(
            bytes.withUnsafeBufferPointer {
                FormDecoder.sectionsToParse($0, path: path, registry: TreeInParallelTests.SharedCatalog(), minimumBytes: 0)
            })
        #expect(
            FormDecoder.decodeSections(
                outline, from: .file(source, count: bytes.count), path: path, registry: TreeInParallelTests.SharedCatalog()) == nil)
    }

    @Test("standard input and other files that are not regular are read whole, not kept open")
    func notRegular() throws {
        let (bytes, file) = try SourceFile.document(at: "/dev/null", keepOpen: true)
        #expect(bytes.isEmpty && file == nil)
    }
}
