/// Turns a parsed document into a `Form`, collecting every problem (not just
/// the first), each with its JSON pointer and line.
public struct FormDecoder {
    let registry: any CellTypeCatalog
    let file: String?
    private var diagnostics: [Diagnostic] = []
    /// Labelled choices of the field being decoded (see `FormField.labelledChoices`).
    private var labelledChoices: [String: LabelledChoice] = [:]
    /// Conditions and cross-field rules, parsed once every field id is known (`resolveConditions`).
    var pending: [PendingCondition] = []
    /// The cell types met last: a form's fields use a few, and comparing an id with theirs is cheaper than
    /// hashing it into the catalog for every field.
    private var recentCells: [CellType] = []
    /// Whether field ids are checked for repeats (and so hashed into the table). The parallel path turns it
    /// off: it decodes only documents whose ids it has already found to be unique.
    private var checksRepeatedFieldIDs = true
    /// Set by `decodeSectionsAsParsed`: the root's sections are still bytes, each parsed where it is decoded.
    private var unparsedSections: UnparsedSections?
    /// Set by `decodeSectionsAsRead`: the root's sections, decoded as they were read (the tree holds nulls in their place).
    private var readSections: ReadSections?
    /// Set when the sections could not be decoded as they are parsed (`decodeSectionsAsParsed` then returns nil).
    private var gaveUp = false

    /// The sections a first pass skipped (`JSONParser.sectionsSkipped`), and the document they are in.
    struct UnparsedSections {
        let bytes: UnsafeBufferPointer<UInt8>
        let items: [JSONParser.SkippedSection]
    }

    static let rootKeys = ["formwork", "id", "title", "description", "sections", "pages"]
    static let sectionKeys = ["id", "header", "footer", "insets", "spacing", "fields", "visibleIf", "enabledIf", "repeat"]
    static let fieldKeys = ["id", "cell", "model", "textInput", "accessibilityId", "required", "rules"] + FieldConditions.keys

    init(registry: any CellTypeCatalog, file: String?, checksRepeatedFieldIDs: Bool = true) {
        self.registry = registry
        self.file = file
        self.checksRepeatedFieldIDs = checksRepeatedFieldIDs
    }

    /// Reads, parses and validates the document at `path`.
    public static func load(path: String, registry: any CellTypeCatalog) throws(FormError) -> Form {
        let bytes = try SourceFile.bytes(of: path)
        let file = SourceFile.displayName(path)
        return try bytes.withUnsafeBufferPointer { (buffer) throws(FormError) -> Form in
            try SourceFile.checkEncoding(buffer, of: path)
            if let form = decodeSectionsAsParsed(buffer, path: path, registry: registry) { return form }
            if let form = decodeSectionsAsRead(buffer, path: path, registry: registry) { return form }
            let root = try SourceFile.parse(validated: buffer, of: path)
            return try decode(consume root, registry: registry, file: file)
        }
    }

    /// A large JSON document of sections, each section parsed and at once decoded on the same core (its nodes
    /// freed there and then: no tree of the whole document, and no section's nodes handed from the core that
    /// parsed them to another to be decoded); nil when the document is not of that kind, or as soon as
    /// anything is not as expected — a section that does not parse, any problem, a repeated id. The caller
    /// then takes the usual path, which reports exactly what it always reports: this one only ever returns
    /// a form that has no problem at all, the same form the usual path makes.
    ///
    /// `minimumBytes`: documents smaller than this take the usual path (tests lower it to compare both paths on
    /// many small documents).
    static func decodeSectionsAsParsed(
        _ bytes: UnsafeBufferPointer<UInt8>, path: String, registry: any CellTypeCatalog, minimumBytes: Int = JSONParser.parallelThreshold
    ) -> Form? {
        guard bytes.count >= minimumBytes, registry.supportsConcurrentLookups,
            SourceFile.format(of: SourceFile.displayName(path), bytes: bytes) == .json,
            let first = JSONParser.sectionsSkipped(bytes), !first.sections.isEmpty,
            case .array(let items)? = first.root["sections"]?.kind, items.count == first.sections.count
        else { return nil }
        var decoder = FormDecoder(registry: registry, file: SourceFile.displayName(path))
        decoder.unparsedSections = UnparsedSections(bytes: bytes, items: first.sections)
        let form = decoder.form(first.root)
        guard !decoder.gaveUp, decoder.diagnostics.isEmpty, let form else { return nil }
        return form
    }

    /// A YAML document whose sections are decoded one by one as they are read (`YAMLReader.parse(bytes:takeSection:
    /// takeField:)`): each section's nodes are decoded and freed as soon as they are complete, and no tree of the whole
    /// document is built. The fields that read flat (an `id`, a `cell`, a model of plain values: most fields of a large
    /// document) are decoded straight from libyaml's events, as JSON's are from their bytes (`flatField`), with no node
    /// made for them: 0.92 of the CPU time of a 100,000-field YAML render, 0.91 at 10,000 (the sections alone as read
    /// were within the noise, 0.98). nil as soon as anything is not as expected — a section with a problem, a repeated
    /// id, a list of pages, a section that is not a mapping, any problem in the rest of the document: the caller then
    /// takes the usual path, which reports exactly what it always reports. This one only ever returns a form that has
    /// no problem at all, the same form the usual path makes, section for section, decoded in the same order by the
    /// same code.
    ///
    /// Not when the tree would be decoded on several cores (`decodesTreesInParallel`, four cores or more).
    package static func decodeSectionsAsRead(_ bytes: UnsafeBufferPointer<UInt8>, path: String, registry: any CellTypeCatalog) -> Form? {
        guard SourceFile.format(of: SourceFile.displayName(path), bytes: bytes) == .yaml,
            !(decodesTreesInParallel && registry.supportsConcurrentLookups && Parallel.threads > 1)
        else { return nil }
        let file = SourceFile.displayName(path)
        var decoder = FormDecoder(registry: registry, file: file)
        // Three variables, not one `ReadSections`: two `inout` accesses to one captured variable would overlap.
        var sections: [FormSection] = []
        var sectionIDs: [String: String] = [:]
        var fieldIDs: [String: FieldLocation] = [:]
        var failed = false
        // The fields that read flat are decoded as they are read (`FormDecoder.flatField`, as for JSON), by a decoder
        // that does not check repeated ids: they are checked below, with the section's other fields, in row order.
        var flat = FlatFieldDecoder(decoder: FormDecoder(registry: registry, file: file, checksRepeatedFieldIDs: false), pointer: "")
        var flatSection = -1
        let takeField = { (field: inout FlatField, section: Int, row: Int) -> Bool in
            guard !failed else { return false }
            if section != flatSection {
                flat = FlatFieldDecoder(decoder: flat.decoder, pointer: "/sections/\(section)")
                flatSection = section
            }
            return flat.take(&field, position: row)
        }
        let taken = { (node: SourceNode, index: Int) -> Bool in
            guard !failed else { return false }
            let pointer = "/sections/\(index)"
            var section: FormSection?
            if flatSection == index && flat.taken > 0 {
                section = decoder.sectionWithFlatFields(
                    node, index: index, pointer: pointer, flat: flat, sectionIDs: &sectionIDs, fieldIDs: &fieldIDs)
            } else {
                section = decoder.section(
                    node, index: index, pointer: pointer, sectionIDs: &sectionIDs, fieldIDs: &fieldIDs, formID: "form")
            }
            guard let section, decoder.diagnostics.isEmpty, index == sections.count else {
                failed = true
                return false
            }
            sections.append(section)
            return true
        }
        guard let root = try? YAMLReader.parse(bytes: bytes, takeSection: taken, takeField: takeField), !failed, !sections.isEmpty
        else { return nil }
        decoder.readSections = ReadSections(sections: sections, sectionIDs: sectionIDs, fieldIDs: fieldIDs)
        let form = decoder.form(root)
        guard !decoder.gaveUp, decoder.diagnostics.isEmpty, let form else { return nil }
        return form
    }

    /// A section some of whose fields were read flat and decoded as they were read (`flat`, the section's: those
    /// fields are nulls in `node`'s list), decoded as `section` decodes it whole: the other fields from their nodes,
    /// each field's id checked against `fieldIDs` in row order, the section's own conditions pending before its
    /// fields'. A repeated group's checks read its fields' nodes for keys that a flat field never has (conditions,
    /// cross-field rules): its nulls pass them as the fields would. nil, having reported nothing, for anything
    /// `section` would do otherwise (a repeated id, a field with a problem): `decodeSectionsAsRead` then gives up.
    mutating func sectionWithFlatFields(
        _ node: SourceNode, index: Int, pointer: String, flat: FlatFieldDecoder, sectionIDs: inout [String: String],
        fieldIDs: inout [String: FieldLocation]
    ) -> FormSection? {
        guard case .array(let items)? = node["fields"]?.kind,
            let read = fields(items, flat: flat, pointer: pointer, section: index, accept: { fieldIDs.updateValue($1, forKey: $0) == nil }),
            let section = self.section(
                node, index: index, pointer: pointer, sectionIDs: &sectionIDs, fieldIDs: &fieldIDs, formID: "form", decoded: read.fields),
            diagnostics.isEmpty
        else { return nil }
        pending += read.pending
        return section
    }

    /// A section's fields from its list: those taken flat (`flat`; nulls in `items`) as they were decoded, the others
    /// decoded from their nodes, with the pending conditions of those; nil when one has a problem, or when `accept`
    /// refuses a field's id and location (in row order).
    func fields(
        _ items: [SourceNode], flat: FlatFieldDecoder, pointer: String, section: Int,
        accept: (String, FieldLocation) -> Bool = { _, _ in true }
    ) -> (fields: [FormField], pending: [PendingCondition])? {
        var fields: [FormField] = []
        fields.reserveCapacity(items.count)
        var nodes = FormDecoder(registry: registry, file: file, checksRepeatedFieldIDs: false)
        var unused: [String: FieldLocation] = [:]
        for row in items.indices {
            let location = FieldLocation(section: pointer, row: row)
            let field: FormField
            if let taken = flat.field(at: row) {
                field = taken
            } else {
                guard let decoded = nodes.field(items[row], location: location, section: section, row: row, fieldIDs: &unused),
                    nodes.diagnostics.isEmpty
                else { return nil }
                field = decoded
            }
            guard accept(field.id, location) else { return nil }
            fields.append(field)
        }
        return (fields, nodes.pending)
    }

    /// The sections `decodeSectionsAsRead` decoded as they were read, with the ids they use.
    struct ReadSections {
        var sections: [FormSection] = []
        var sectionIDs: [String: String] = [:]
        var fieldIDs: [String: FieldLocation] = [:]
    }

    /// Parses and validates a document given as text.
    public static func decode(text: String, json: Bool, registry: any CellTypeCatalog, file: String? = nil) throws(FormError) -> Form {
        let root: SourceNode
        do { root = try SourceFile.parse(text, format: json ? .json : .yaml) } catch { throw .parse(file ?? "<document>", error) }
        return try decode(consume root, registry: registry, file: file)
    }

    /// Decodes the tree, which it owns: each section's nodes are freed once its fields are read, so a
    /// large document's tree and its form are not both whole in memory at once.
    static func decode(_ root: consuming SourceNode, registry: any CellTypeCatalog, file: String?) throws(FormError) -> Form {
        var decoder = FormDecoder(registry: registry, file: file)
        let form = decoder.form(consume root)
        guard decoder.diagnostics.isEmpty, let form else { throw .invalid(decoder.diagnostics) }
        return form
    }

    // MARK: structure

    mutating func report(_ pointer: String, _ node: SourceNode?, _ message: String, kind: Diagnostic.Kind = .invalid, hint: String? = nil) {
        diagnostics.append(Diagnostic(kind: kind, file: file, pointer: pointer, line: node?.line, message: message, hint: hint))
    }

    mutating func checkKeys(_ node: SourceNode, allowed: [String], at pointer: @autoclosure () -> String, what: String) {
        for (key, value) in node.members ?? [] where !allowed.contains(key) {
            var message = "unknown key '\(key)' in \(what)"
            if let suggestion = EditDistance.suggestion(for: key, in: allowed) {
                message += "; did you mean '\(suggestion)'?"
            } else {
                message += "; allowed keys: \(allowed.joined(separator: ", "))"
            }
            report(pointer() + "/" + Pointer.escape(key), value, message)
        }
    }

    mutating func string(_ node: SourceNode?, _ pointer: @autoclosure () -> String, what: @autoclosure () -> String) -> String? {
        guard let node else { return nil }
        guard let s = node.string else {
            report(pointer(), node, "\(what()) must be a string, not \(node.typeName)")
            return nil
        }
        return s
    }

    mutating func identifier(_ node: SourceNode?, _ pointer: @autoclosure () -> String, parent: SourceNode, what: String) -> String? {
        guard let node else {
            report(pointer().dropLastComponent, parent, "missing '\(pointer().lastComponent)': every \(what) needs an id")
            return nil
        }
        guard let s = string(node, pointer(), what: "the \(what) id") else { return nil }
        guard Self.isIdentifier(s) else {
            report(
                pointer(), node,
                "\(what) id '\(SchemaValidator.truncated(s))' must start with a letter and use only letters, digits, '_' and '-'")
            return nil
        }
        return s
    }

    /// An ASCII letter, then ASCII letters, digits, '_' and '-'; at most 128 bytes. Checked on the bytes
    /// (every field id of a document goes through here; Unicode property lookups were 2% of a render).
    static func isIdentifier(_ s: String) -> Bool {
        // Over the contiguous bytes (walking `s.utf8` was three hundred instructions for a short id).
        UTF8Bytes.with(s) { bytes in
            guard let first = bytes.first, bytes.count <= 128, (0x61...0x7A).contains(first | 0x20) else { return false }
            for b in bytes {
                let letter = (0x61...0x7A).contains(b | 0x20)
                if !(letter || (0x30...0x39).contains(b) || b == 0x5F || b == 0x2D) { return false }
            }
            return true
        }
    }

    mutating func form(_ root: consuming SourceNode) -> Form? {
        guard root.members != nil else {
            report("", root, "a form document must be an object with 'formwork', 'id' and 'sections', not \(root.typeName)")
            return nil
        }
        checkKeys(root, allowed: Self.rootKeys, at: "", what: "the form")
        switch root["formwork"]?.kind {
        case .integer(1)?: break
        case nil: report("", root, "missing 'formwork: 1' (the document format version)")
        default:
            report(
                "/formwork", root["formwork"],
                "unsupported format version \(root["formwork"]!.json.serialized(pretty: false)); this formwork reads 'formwork: 1'")
        }
        let id = identifier(root["id"], "/id", parent: root, what: "form")
        let title = string(root["title"], "/title", what: "the title")
        let description = string(root["description"], "/description", what: "the description")

        var sections: [FormSection] = []
        var pages: [FormPage] = []
        var sectionIDs: [String: String] = [:]
        var fieldIDs: [String: FieldLocation] = [:]
        var fieldCount = 0
        // Sized once for every field of the document (a 100k-field form otherwise regrows it seventeen times).
        var estimate = 0
        for key in ["sections", "pages"] {
            guard case .array(let items)? = root[key]?.kind else { continue }
            for item in items {
                if case .array(let fields)? = item["fields"]?.kind { estimate += fields.count }
                if case .array(let inner)? = item["sections"]?.kind {
                    for section in inner { if case .array(let fields)? = section["fields"]?.kind { estimate += fields.count } }
                }
            }
        }
        fieldIDs.reserveCapacity(min(estimate, 1 << 22))
        var pageIDs: [String: String] = [:]
        if root["pages"] != nil && root["sections"] != nil {
            report(
                "/pages", root["pages"], "a form has 'sections' or 'pages' (each with its sections), not both; move the sections into pages"
            )
        }
        if readSections != nil && root["pages"] != nil {
            gaveUp = true  // the usual path reports it
            return nil
        }
        if let pagesNode = root["pages"] {
            switch pagesNode.kind {
            case .array(let items):
                if items.isEmpty { report("/pages", pagesNode, "'pages' needs at least one page") }
                for (p, pageNode) in items.enumerated() {
                    let pointer = "/pages/\(p)"
                    guard pageNode.members != nil else {
                        report(pointer, pageNode, "a page must be an object with 'id' and 'sections', not \(pageNode.typeName)")
                        continue
                    }
                    checkKeys(pageNode, allowed: ["id", "title", "sections"], at: pointer, what: "a page")
                    let pageID = identifier(pageNode["id"], "\(pointer)/id", parent: pageNode, what: "page")
                    if let pageID {
                        if let first = pageIDs[pageID] {
                            report("\(pointer)/id", pageNode["id"], "duplicate page id '\(pageID)' (first used at \(first))")
                        } else {
                            pageIDs[pageID] = pointer
                        }
                    }
                    let pageTitle = string(pageNode["title"], "\(pointer)/title", what: "the page title")
                    let first = sections.count
                    switch pageNode["sections"]?.kind {
                    case .array(let sectionNodes)?:
                        if sectionNodes.isEmpty { report("\(pointer)/sections", pageNode["sections"], "a page needs at least one section") }
                        for (i, node) in sectionNodes.enumerated() {
                            if let section = section(
                                node, index: sections.count, pointer: "\(pointer)/sections/\(i)", sectionIDs: &sectionIDs,
                                fieldIDs: &fieldIDs,
                                formID: id ?? "form")
                            {
                                sections.append(section)
                            }
                        }
                    case nil: report(pointer, pageNode, "missing 'sections': a page needs a list of sections")
                    default:
                        report(
                            "\(pointer)/sections", pageNode["sections"], "'sections' must be a list, not \(pageNode["sections"]!.typeName)")
                    }
                    if let pageID {
                        pages.append(FormPage(id: pageID, title: pageTitle, firstSection: first, sectionCount: sections.count - first))
                    }
                }
            default: report("/pages", pagesNode, "'pages' must be a list of pages, not \(pagesNode.typeName)")
            }
        } else {
            var items: [SourceNode] = []
            switch root["sections"]?.kind {
            case .array(let list)?:
                if list.isEmpty { report("/sections", root["sections"], "a form needs at least one section") }
                items = list
            case nil: report("", root, "missing 'sections': a form needs a list of sections (or 'pages' of sections)")
            default: report("/sections", root["sections"], "'sections' must be a list, not \(root["sections"]!.typeName)")
            }
            // The rest of the tree is read: let go of it (outside the switch, whose subject holds the list) so that
            // each section's nodes are freed as soon as its fields are decoded.
            root = SourceNode(kind: .null, line: nil)
            if let read = readSections {
                // Every item was taken: a section that was not (a scalar) is the usual path's to report.
                guard read.sections.count == items.count else {
                    gaveUp = true
                    return nil
                }
                sections = read.sections
                sectionIDs = read.sectionIDs
                fieldIDs = read.fieldIDs
            } else if let unparsedSections {
                guard let decoded = sectionsAsParsed(unparsedSections, formID: id ?? "form") else {
                    gaveUp = true
                    return nil
                }
                sections = decoded.sections
                fieldCount = decoded.fields
            } else if let decoded = sectionsInParallel(&items, formID: id ?? "form") {
                sections = decoded.sections
                fieldCount = decoded.fields
            } else {
                for i in items.indices {
                    let node = items[i]
                    items[i] = SourceNode(kind: .null, line: nil)
                    if let section = section(
                        node, index: i, pointer: "/sections/\(i)", sectionIDs: &sectionIDs, fieldIDs: &fieldIDs, formID: id ?? "form")
                    {
                        sections.append(section)
                    }
                }
            }
        }
        // Index loops (a `for field in` loop copies every field) and positions, not pointers, until a duplicate is found.
        // Only a field with an accessibility id of its own (not its field id, which is unique) can be reported: without
        // one, the whole table (a hash per field, a twentieth of decoding a large form) is not built.
        var accessibilityIDs: [String: (section: Int, field: Int)] = [:]
        let anyOwnAccessibilityID = sections.contains { $0.fields.contains { $0.accessibilityId != $0.id } }
        if anyOwnAccessibilityID { accessibilityIDs.reserveCapacity(max(fieldIDs.count, fieldCount)) }
        for s in sections.indices where anyOwnAccessibilityID {
            for f in sections[s].fields.indices {
                let accessibilityId = sections[s].fields[f].accessibilityId
                if let first = accessibilityIDs[accessibilityId], accessibilityId != sections[s].fields[f].id {
                    report(
                        "\(sections[s].fields[f].pointer)/accessibilityId", nil,
                        "duplicate accessibility id '\(accessibilityId)' (also used by the field at \(sections[first.section].fields[first.field].pointer)); accessibility ids must be unique across the form"
                    )
                } else {
                    accessibilityIDs[accessibilityId] = (s, f)
                }
            }
        }
        // Conditions cannot read the fields of a repeated group (checked in resolveConditions through `repeated`).
        let order = resolveConditions(&sections)
        for s in sections.indices where sections[s].repeatGroup != nil {
            sections[s].template = sections[s].fields
            let shown = max(sections[s].repeatGroup!.minItems, 1)
            sections[s].fields = (0..<shown).flatMap { sections[s].item($0) }
        }
        guard let id else { return nil }
        var form = Form(id: id, title: title, description: description, sections: sections)
        form.evaluationOrder = order
        form.pages = pages
        return form
    }

    /// Whether a parsed tree's sections (a YAML document's, or a JSON document's that is not decoded as it is
    /// parsed) are decoded on several cores: only with four threads or more. On two cores it cost more than it
    /// saved, in CPU time and in wall time alike (10k YAML fields 84.9 → 78.8 ms of CPU, 85.7 → 82.2 ms of wall
    /// time in order; 100k 836 → 773 ms of CPU for 661 → 674 ms of wall time; a 100k JSON tree 474 → 437 ms of CPU,
    /// 311 → 291 ms): the tree is built on one core, and every node the other cores read is retained and released
    /// there, each count's cache line moved between the cores. Tests turn it on for their own task
    /// (`$decodesTreesInParallel.withValue(true)`) to check the path against the decoder in order.
    @TaskLocal static var decodesTreesInParallel = Parallel.threads >= 4

    /// The sections of a large document decoded on several cores, each by a decoder of its own, or nil
    /// (decode them in order) when that might not give exactly what one decoder gives: a small
    /// document, a catalog that is not safe to share, or section or field ids that are repeated (their
    /// "first used at" diagnostics depend on the order). Each section's problems, pending conditions
    /// and the sections themselves are put together in document order; each section's nodes are freed
    /// once it is decoded, as in the sequential path.
    ///
    /// Only with `decodesTreesInParallel`.
    mutating func sectionsInParallel(_ items: inout [SourceNode], formID: String) -> (sections: [FormSection], fields: Int)? {
        guard Self.decodesTreesInParallel, registry.supportsConcurrentLookups, Parallel.threads > 1, !items.isEmpty else {
            return nil
        }
        var total = 0
        for item in items { if case .array(let fields)? = item["fields"]?.kind { total += fields.count } }
        guard total >= 2000 else { return nil }
        // Repeated ids (or what might be: any string under 'id') are left to the sequential path. Each half of
        // the sections has its ids gathered on a core of its own (reading every field's node is most of the
        // cost: its memory was written by the parse on another core); then one half's are looked up in the other's.
        let halves = items.withUnsafeBufferPointer { nodes in
            Parallel.map(2, worthIt: true) { half -> (sections: Set<String>, fields: Set<String>)? in
                let range = half == 0 ? 0..<nodes.count / 2 : nodes.count / 2..<nodes.count
                var sectionIDs = Set<String>(minimumCapacity: range.count)
                var fieldIDs = Set<String>(minimumCapacity: total / 2 + 16)
                for i in range {
                    if case .string(let id)? = nodes[i]["id"]?.kind, !sectionIDs.insert(id).inserted { return nil }
                    guard case .array(let fields)? = nodes[i]["fields"]?.kind else { continue }
                    for field in fields { if case .string(let id)? = field["id"]?.kind, !fieldIDs.insert(id).inserted { return nil } }
                }
                return (sectionIDs, fieldIDs)
            }
        }
        guard let first = halves[0], let second = halves[1], first.sections.isDisjoint(with: second.sections),
            first.fields.isDisjoint(with: second.fields)
        else { return nil }
        // Consecutive small sections are decoded together, by one decoder: a decoder per section of ten fields
        // looked each cell type up again (a look-up that names the pack to the cell hosts under a lock, which
        // the two cores then took turns at).
        var groups: [Range<Int>] = []
        var start = 0, weight = 0
        for i in items.indices {
            if case .array(let fields)? = items[i]["fields"]?.kind { weight += fields.count } else { weight += 1 }
            if weight >= 256 || i == items.count - 1 {
                groups.append(start..<i + 1)
                start = i + 1
                weight = 0
            }
        }
        let file = self.file
        let catalogs = WorkerCatalog.forWorkers(of: registry, groups.count, worthIt: true)
        let parts = items.withUnsafeMutableBufferPointer { nodes in
            Parallel.mapOnWorkers(groups.count, worthIt: true) { worker, g -> DecodedPart in
                var decoder = FormDecoder(registry: catalogs[worker], file: file)
                decoder.checksRepeatedFieldIDs = false  // every id is unique: checked above
                var part = DecodedPart()
                for i in groups[g] {
                    let node = nodes[i]
                    nodes[i] = SourceNode(kind: .null, line: nil)  // each index is touched by one thread only
                    var sectionIDs: [String: String] = [:]
                    var fieldIDs: [String: FieldLocation] = [:]
                    if let section = decoder.section(
                        node, index: i, pointer: "/sections/\(i)", sectionIDs: &sectionIDs, fieldIDs: &fieldIDs, formID: formID)
                    {
                        part.fields += section.fields.count
                        part.sections.append(section)
                    }
                }
                part.diagnostics = decoder.diagnostics
                part.pending = decoder.pending
                return part
            }
        }
        var sections: [FormSection] = []
        sections.reserveCapacity(items.count)
        var fields = 0
        for part in parts {
            sections += part.sections
            diagnostics += part.diagnostics
            pending += part.pending
            fields += part.fields
        }
        return (sections, fields)
    }

    /// Consecutive sections decoded by one decoder of a parallel path, with what it found.
    struct DecodedPart {
        var sections: [FormSection] = []
        var diagnostics: [Diagnostic] = []
        var pending: [PendingCondition] = []
        var fields = 0
    }

    /// The sections of `unparsed` parsed and decoded on several cores, a run of consecutive sections by each
    /// decoder, each section's nodes freed as soon as it is decoded; nil as soon as a section does not parse or
    /// has a problem, and when a section or field id is repeated (what the usual path reports in order).
    mutating func sectionsAsParsed(_ unparsed: UnparsedSections, formID: String) -> (sections: [FormSection], fields: Int)? {
        // Runs of about the bytes of 256 fields (as in `sectionsInParallel`: a decoder per small section looked each
        // cell type up again). A section much larger than its share (a form of one section of 10,000 fields) is a
        // run of its own, its fields shared out instead (`largeSectionAsParsed`).
        let share = JSONParser.sectionShare(unparsed.bytes)
        var groups: [Range<Int>] = []
        var start = 0, weight = 0
        for k in unparsed.items.indices {
            if unparsed.items[k].end - unparsed.items[k].start > share {
                if start < k { groups.append(start..<k) }
                groups.append(k..<k + 1)
                start = k + 1
                weight = 0
                continue
            }
            weight += unparsed.items[k].end - unparsed.items[k].start
            if weight >= 1 << 15 || k == unparsed.items.count - 1 {
                groups.append(start..<k + 1)
                start = k + 1
                weight = 0
            }
        }
        func isLarge(_ group: Range<Int>) -> Bool {
            group.count == 1 && unparsed.items[group.lowerBound].end - unparsed.items[group.lowerBound].start > share
        }
        let file = self.file
        // A catalog for each worker, for this step and each large section's (a worker's copies are made once).
        let catalogs = WorkerCatalog.forWorkers(of: registry, Parallel.threads, worthIt: true)
        var parts = Parallel.mapOnWorkers(groups.count, worthIt: true) { worker, g -> DecodedPart? in
            if isLarge(groups[g]) { return DecodedPart() }  // below, its fields on every core
            let registry = catalogs[worker]
            var decoder = FormDecoder(registry: registry, file: file)
            decoder.checksRepeatedFieldIDs = false  // checked below, once every field is decoded
            var part = DecodedPart()
            let workspace = JSONParser.Workspace()
            for k in groups[g] {
                let item = unparsed.items[k]
                let pointer = "/sections/\(item.position)"
                // The section's fields read flat and decoded as they are read (no nodes made for them), those that
                // cannot be decoded so read as nodes and decoded after; a repeated section is read again whole
                // (its checks read its fields' nodes).
                var flat = FlatFieldDecoder(
                    decoder: FormDecoder(registry: registry, file: file, checksRepeatedFieldIDs: false), pointer: pointer)
                guard var node = JSONParser.section(item, in: unparsed.bytes, workspace: workspace, flatFields: flat) else { return nil }
                if flat.taken > 0 && node["repeat"] != nil {
                    guard let whole = JSONParser.section(item, in: unparsed.bytes, workspace: workspace) else { return nil }
                    node = whole
                    flat = FlatFieldDecoder(decoder: flat.decoder, pointer: pointer)
                }
                var decoded: [FormField]?
                var fieldsPending: [PendingCondition] = []
                if flat.taken > 0 {
                    guard case .array(let items)? = node["fields"]?.kind,
                        let read = decoder.fields(items, flat: flat, pointer: pointer, section: item.position)
                    else { return nil }
                    decoded = read.fields
                    fieldsPending = read.pending
                }
                var sectionIDs: [String: String] = [:]
                var fieldIDs: [String: FieldLocation] = [:]
                let section = decoder.section(
                    node, index: item.position, pointer: pointer, sectionIDs: &sectionIDs, fieldIDs: &fieldIDs, formID: formID,
                    decoded: decoded)
                guard let section, decoder.diagnostics.isEmpty else { return nil }
                // The section's own conditions first, then its fields', as the usual path gathers them.
                decoder.pending += fieldsPending
                part.fields += section.fields.count
                part.sections.append(section)
            }
            part.pending = decoder.pending
            return part
        }
        for g in groups.indices where isLarge(groups[g]) {
            parts[g] = largeSectionAsParsed(
                unparsed.items[groups[g].lowerBound], in: unparsed.bytes, formID: formID, catalogs: catalogs)
        }
        var sections: [FormSection] = []
        sections.reserveCapacity(unparsed.items.count)
        var fields = 0
        for part in parts {
            guard let part else { return nil }
            sections += part.sections
            pending += part.pending
            fields += part.fields
        }
        // Every section and field id once: each half of the sections gathers its ids on a core of its own, then
        // one half's are looked up in the other's.
        let halves = sections.withUnsafeBufferPointer { sections in
            Parallel.map(2, worthIt: fields >= 4096) { half -> (sections: Set<String>, fields: Set<String>)? in
                let range = half == 0 ? 0..<sections.count / 2 : sections.count / 2..<sections.count
                var sectionIDs = Set<String>(minimumCapacity: range.count)
                var fieldIDs = Set<String>(minimumCapacity: fields / 2 + 16)
                for s in range {
                    guard sectionIDs.insert(sections[s].id).inserted else { return nil }
                    for f in sections[s].fields.indices { guard fieldIDs.insert(sections[s].fields[f].id).inserted else { return nil } }
                }
                return (sectionIDs, fieldIDs)
            }
        }
        guard let first = halves[0], let second = halves[1], first.sections.isDisjoint(with: second.sections),
            first.fields.isDisjoint(with: second.fields)
        else { return nil }
        return (sections, fields)
    }

    /// A section much larger than its share, parsed with its fields skipped, then its fields parsed and decoded a
    /// run at a time on several cores (each field's nodes freed as soon as it is decoded); nil as soon as a field
    /// does not parse or anything has a problem, and for a repeated section (its checks read the fields' nodes).
    ///
    /// `catalogs`: the catalog of each worker (`WorkerCatalog.forWorkers`), as many as `Parallel.threads`.
    func largeSectionAsParsed(
        _ item: JSONParser.SkippedSection, in bytes: UnsafeBufferPointer<UInt8>, formID: String, catalogs: [any CellTypeCatalog]
    ) -> DecodedPart? {
        guard let (node, items) = JSONParser.sectionFieldsSkipped(item, in: bytes), node["repeat"] == nil else { return nil }
        let pointer = "/sections/\(item.position)"
        let count = items.count, runs = max(1, min(Parallel.threads * 4, count / 512))
        let registry = self.registry, file = self.file
        var fieldsPending: [PendingCondition] = []
        var complete = true
        // Each run decodes its fields straight into its slice of the section's array: putting runs' arrays
        // together copied every field (a retain and a release of each of its references).
        let fields = [FormField](unsafeUninitializedCapacity: count) { buffer, initialized in
            guard let base = buffer.baseAddress else { return }
            let pieces = Parallel.mapOnWorkers(runs, worthIt: true) { worker, r -> (rows: Range<Int>, pending: [PendingCondition]?) in
                var decoder = FormDecoder(registry: catalogs[worker], file: file)
                decoder.checksRepeatedFieldIDs = false  // checked by the caller, once every field is decoded
                var unused: [String: FieldLocation] = [:]
                let workspace = JSONParser.Workspace()
                var flat = FlatField()
                let rows = r * count / runs..<(r + 1) * count / runs
                for k in rows {
                    let row = items[k].position
                    let location = FieldLocation(section: pointer, row: row)
                    // Read flat and decoded at once when it can be (no nodes made), else parsed and decoded as nodes.
                    if JSONParser.readFlatField(items[k], in: bytes, workspace: workspace, into: &flat),
                        let field = decoder.flatField(flat, location: location)
                    {
                        (base + k).initialize(to: field)
                        continue
                    }
                    guard let fieldNode = JSONParser.field(items[k], section: item.position, in: bytes, workspace: workspace),
                        let field = decoder.field(fieldNode, location: location, section: item.position, row: row, fieldIDs: &unused),
                        decoder.diagnostics.isEmpty
                    else { return (rows.lowerBound..<k, nil) }
                    (base + k).initialize(to: field)
                }
                return (rows, decoder.pending)
            }
            if pieces.allSatisfy({ $0.pending != nil }) {
                for piece in pieces { fieldsPending += piece.pending! }
                initialized = count
            } else {
                for piece in pieces { (base + piece.rows.lowerBound).deinitialize(count: piece.rows.count) }
                complete = false
            }
        }
        guard complete else { return nil }
        var decoder = FormDecoder(registry: registry, file: file)
        decoder.checksRepeatedFieldIDs = false
        var sectionIDs: [String: String] = [:]
        var unused: [String: FieldLocation] = [:]
        guard
            let section = decoder.section(
                node, index: item.position, pointer: pointer, sectionIDs: &sectionIDs, fieldIDs: &unused, formID: formID,
                decoded: fields),
            decoder.diagnostics.isEmpty
        else { return nil }
        // The section's own conditions first, then its fields', as the usual path gathers them.
        return DecodedPart(sections: [section], pending: decoder.pending + fieldsPending, fields: fields.count)
    }

    /// `decoded`: the section's fields, already decoded from its `fields` list (`largeSectionAsParsed`).
    mutating func section(
        _ node: SourceNode, index: Int, pointer: String, sectionIDs: inout [String: String],
        fieldIDs: inout [String: FieldLocation], formID: String, decoded: [FormField]? = nil
    ) -> FormSection? {
        guard node.members != nil else {
            report(pointer, node, "a section must be an object with 'id' and 'fields', not \(node.typeName)")
            return nil
        }
        checkKeys(node, allowed: Self.sectionKeys, at: pointer, what: "a section")
        let id = identifier(node["id"], "\(pointer)/id", parent: node, what: "section")
        if let id {
            if let first = sectionIDs[id] {
                report("\(pointer)/id", node["id"], "duplicate section id '\(id)' (first used at \(first))")
            } else {
                sectionIDs[id] = pointer
            }
        }
        let header = string(node["header"], "\(pointer)/header", what: "the header")
        let footer = string(node["footer"], "\(pointer)/footer", what: "the footer")
        var edgeInsets: EdgeInsets?
        if let insetsNode = node["insets"] { edgeInsets = insets(insetsNode, "\(pointer)/insets") }
        var spacing: Double?
        if let s = node["spacing"] {
            spacing = number(s)
            if spacing == nil || !(0...Self.maxLength).contains(spacing!) {
                report("\(pointer)/spacing", s, "spacing must be a number from 0 to \(Int(Self.maxLength)) (pixels)")
                spacing = nil
            }
        }
        for key in ["visibleIf", "enabledIf"] {
            if let n = node[key] {
                pending.append(PendingCondition(target: .section(index), key: key, node: n, pointer: "\(pointer)/\(key)"))
            }
        }
        var fields: [FormField] = []
        switch node["fields"]?.kind {
        case .array? where decoded != nil: fields = decoded!
        case .array(let items)? where !checksRepeatedFieldIDs && items.count >= 2048 && Parallel.threads > 1:
            // A large section of a form whose ids are known to be unique (sectionsInParallel): its fields are
            // decoded a run at a time on several cores, each run by a decoder of its own, and put together in
            // order with their problems and pending conditions.
            let runs = min(Parallel.threads * 4, items.count / 512)
            let file = self.file
            let catalogs = WorkerCatalog.forWorkers(of: registry, runs, worthIt: true)
            let parts = Parallel.mapOnWorkers(runs, worthIt: true) {
                worker, r -> (fields: [FormField], diagnostics: [Diagnostic], pending: [PendingCondition]) in
                var decoder = FormDecoder(registry: catalogs[worker], file: file)
                decoder.checksRepeatedFieldIDs = false
                var unused: [String: FieldLocation] = [:]
                var part: [FormField] = []
                let rows = r * items.count / runs..<(r + 1) * items.count / runs
                part.reserveCapacity(rows.count)
                for row in rows {
                    let location = FieldLocation(section: pointer, row: row)
                    if let field = decoder.field(items[row], location: location, section: index, row: row, fieldIDs: &unused) {
                        part.append(field)
                    }
                }
                return (part, decoder.diagnostics, decoder.pending)
            }
            fields.reserveCapacity(items.count)
            for part in parts {
                fields += part.fields
                diagnostics += part.diagnostics
                pending += part.pending
            }
        case .array(let items)?:
            fields.reserveCapacity(items.count)
            for (row, item) in items.enumerated() {
                let location = FieldLocation(section: pointer, row: row)
                if let field = field(item, location: location, section: index, row: row, fieldIDs: &fieldIDs) {
                    fields.append(field)
                }
            }
        case nil: report(pointer, node, "missing 'fields': a section needs a list of fields")
        default: report("\(pointer)/fields", node["fields"], "'fields' must be a list, not \(node["fields"]!.typeName)")
        }
        guard let id else { return nil }
        var section = FormSection(id: id, header: header, footer: footer, insets: edgeInsets, spacing: spacing, fields: fields)
        if let repeatNode = node["repeat"] {
            section.repeatGroup = repeatGroup(repeatNode, "\(pointer)/repeat")
            if section.repeatGroup != nil {
                if fields.isEmpty {
                    report("\(pointer)/fields", node["fields"], "a repeated section needs at least one field (the item's fields)")
                }
                for key in ["visibleIf", "enabledIf"] where node[key] != nil {
                    report(
                        "\(pointer)/\(key)", node[key],
                        "a repeated section cannot have '\(key)' yet; put the condition on a section around it")
                }
                var itemNodes: [SourceNode] = []
                if case .array(let list)? = node["fields"]?.kind { itemNodes = list }
                for (row, item) in itemNodes.enumerated() {
                    for key in FieldConditions.keys + ["rules/equals", "rules/expression"]
                    where key.split(separator: "/").reduce(Optional(item), { $0?[String($1)] }) != nil {
                        report(
                            "\(pointer)/fields/\(row)/\(key)", nil,
                            "a field of a repeated group cannot have '\(key.split(separator: "/").last!)' yet (its item's other fields have no single value)"
                        )
                    }
                }
            }
        }
        return section
    }

    /// `repeat: { minItems, maxItems, itemLabel }` (or `repeat: true`: 0 to 100 items).
    mutating func repeatGroup(_ node: SourceNode, _ pointer: @autoclosure () -> String) -> RepeatGroup? {
        if case .bool(true) = node.kind { return RepeatGroup(minItems: 0, maxItems: 100, itemLabel: "Item") }
        guard node.members != nil else {
            report(pointer(), node, "'repeat' must be true or { minItems, maxItems, itemLabel }, not \(node.typeName)")
            return nil
        }
        checkKeys(node, allowed: ["minItems", "maxItems", "itemLabel"], at: pointer(), what: "repeat")
        func count(_ key: String, _ fallback: Int) -> Int? {
            guard let n = node[key] else { return fallback }
            guard case .integer(let i) = n.kind, i >= 0, i <= 1000 else {
                report("\(pointer())/\(key)", n, "'\(key)' must be a whole number from 0 to 1000")
                return nil
            }
            return Int(i)
        }
        guard let minItems = count("minItems", 0), let maxItems = count("maxItems", 100) else { return nil }
        guard minItems <= maxItems else {
            report("\(pointer())/minItems", node["minItems"], "minItems \(minItems) is greater than maxItems \(maxItems)")
            return nil
        }
        guard maxItems > 0 else {
            report("\(pointer())/maxItems", node["maxItems"], "maxItems must be at least 1")
            return nil
        }
        let label = string(node["itemLabel"], "\(pointer())/itemLabel", what: "the item label") ?? "Item"
        return RepeatGroup(minItems: minItems, maxItems: maxItems, itemLabel: label)
    }

    func number(_ node: SourceNode) -> Double? {
        switch node.kind {
        case .integer(let i): Double(i)
        case .number(let d): d
        default: nil
        }
    }

    /// The largest inset or spacing a document may ask for, in pixels (documented in docs/forms.md).
    static let maxLength: Double = 1000

    mutating func insets(_ node: SourceNode, _ pointer: @autoclosure () -> String) -> EdgeInsets? {
        if let all = number(node) {
            guard (0...Self.maxLength).contains(all) else {
                report(pointer(), node, "insets must be from 0 to \(Int(Self.maxLength)) (pixels)")
                return nil
            }
            return EdgeInsets(top: all, left: all, bottom: all, right: all)
        }
        guard node.members != nil else {
            report(pointer(), node, "insets must be a number or an object with top, left, bottom and right")
            return nil
        }
        checkKeys(node, allowed: ["top", "left", "bottom", "right"], at: pointer(), what: "insets")
        var values: [Double] = []
        for key in ["top", "left", "bottom", "right"] {
            guard let v = node[key] else { values.append(0); continue }
            guard let d = number(v), (0...Self.maxLength).contains(d) else {
                report("\(pointer())/\(key)", v, "\(key) must be a number from 0 to \(Int(Self.maxLength)) (pixels)")
                return nil
            }
            values.append(d)
        }
        return EdgeInsets(top: values[0], left: values[1], bottom: values[2], right: values[3])
    }

    // MARK: fields

    mutating func field(
        _ node: SourceNode, location: FieldLocation, section: Int, row: Int,
        fieldIDs: inout [String: FieldLocation]
    ) -> FormField? {
        // Made only where it is used: in a diagnostic (the autoclosures below) or for a condition.
        var pointer: String { location.pointer }
        guard let members = node.members else {
            report(pointer, node, "a field must be an object with 'id' and 'cell', not \(node.typeName)")
            return nil
        }
        // One pass over the field's keys (a look-up per key compared every key with each of the field's, and
        // checking for unknown keys did it again); the first of a repeated key counts, as with `node[key]`.
        var idNode: SourceNode?, cellNode: SourceNode?, modelNode: SourceNode?, textInputNode: SourceNode?
        var accessibilityNode: SourceNode?, requiredNode: SourceNode?, rulesNode: SourceNode?
        var unknownKeys = false, conditionKeys = false
        for (key, value) in members {
            // On the key's length first: a `switch` on the string compares it with each case in turn, and each
            // case that does not match is a call (six a field).
            switch key.utf8.count {
            case 2 where key == "id": if idNode == nil { idNode = value }
            case 4 where key == "cell": if cellNode == nil { cellNode = value }
            case 5 where key == "model": if modelNode == nil { modelNode = value }
            case 9 where key == "textInput": if textInputNode == nil { textInputNode = value }
            case 15 where key == "accessibilityId": if accessibilityNode == nil { accessibilityNode = value }
            case 8 where key == "required": if requiredNode == nil { requiredNode = value }
            case 5 where key == "rules": if rulesNode == nil { rulesNode = value }
            default:
                if FieldConditions.keys.contains(key) { conditionKeys = true } else { unknownKeys = true }
            }
        }
        if unknownKeys { checkKeys(node, allowed: Self.fieldKeys, at: pointer, what: "a field") }
        let id = identifier(idNode, "\(pointer)/id", parent: node, what: "field")
        if let id, checksRepeatedFieldIDs {
            if let first = fieldIDs[id] {
                report(
                    "\(pointer)/id", idNode,
                    "duplicate field id '\(id)' (first used at \(first.pointer)); field ids must be unique across the form")
            } else {
                fieldIDs[id] = location
            }
        }
        var required = false
        if let r = requiredNode {
            if case .bool(let b) = r.kind { required = b } else { report("\(pointer)/required", r, "'required' must be true or false") }
        }
        let accessibilityId = accessibility(accessibilityNode, "\(pointer)/accessibilityId", fieldID: id, section: section, row: row)

        guard let cellNode else {
            report(pointer, node, "missing 'cell': name the cell type, e.g. org.formwork.text-field")
            return nil
        }
        guard let cellID = string(cellNode, "\(pointer)/cell", what: "'cell'") else { return nil }
        let cell: CellType
        // Lengths first: two ids of different storage compare byte by byte, a call for each that does not match.
        let cellIDLength = cellID.utf8.count
        if let recent = recentCells.first(where: { $0.id.utf8.count == cellIDLength && $0.id == cellID }) {
            cell = recent
        } else {
            do { cell = try registry.cellType(cellID) } catch {
                report("\(pointer)/cell", cellNode, error.summary, kind: .unavailable, hint: error.hint)
                return nil
            }
            if recentCells.count == 8 { recentCells.removeFirst() }
            recentCells.append(cell)
        }

        labelledChoices = [:]
        var model = model(modelNode, "\(pointer)/model", cell: cell, parent: node)
        if required, let role = cell.roles.required, modelNode?[role] == nil {
            model[role] = .bool(true)
        }
        let textInput = textInput(textInputNode, "\(pointer)/textInput", cell: cell)
        if cell.textInput.hasDateBounds,
            let problem = DateBounds.problem(model: model, traits: cell.textInput.traits, field: cell.textInput.field)
        {
            report("\(pointer)/model/\(problem.field)", modelNode?[problem.field] ?? node, problem.message)
        }
        let requiredByModel = cell.roles.required.map { model[$0] == .bool(true) } ?? false
        var rules = FieldRules()
        if let rulesNode {
            rules = self.rules(
                rulesNode, "\(pointer)/rules", valueType: cell.roles.value.flatMap { cell.field(named: $0)?.type }, cell: cell)
            // A value written in the document keeps the rules too.
            if let name = cell.roles.value, let value = model[name] {
                let label = cell.roles.title.flatMap { if case .string(let s)? = model[$0] { s } else { nil } } ?? id ?? name
                for problem in rules.problems(value, label: label) {
                    report("\(pointer)/model/\(Pointer.escape(name))", modelNode?[name] ?? node, problem)
                }
            }
        }
        for key in FieldConditions.keys where conditionKeys {
            if let n = node[key] {
                pending.append(PendingCondition(target: .field(pointer), key: key, node: n, pointer: "\(pointer)/\(key)"))
            }
        }
        guard let id else { labelledChoices = [:]; return nil }
        var field = FormField(
            id: id, cell: cell, model: model, textInput: textInput, accessibilityId: accessibilityId ?? id,
            required: required || requiredByModel, valueField: cell.roles.value, location: location)
        field.rules = rules
        field.labelledChoices = labelledChoices
        labelledChoices = [:]
        return field
    }

    /// A field read flat from its bytes (`FlatField`), decoded as `field` decodes the same object: the same
    /// `FormField`, or nil when `field` would report anything, or would do anything this does not (a value of
    /// another type, a model value out of its schema's bounds, an unknown key, a cell type not found). The
    /// caller then reads the field as a node and `field` reports it. Never reports itself, and checks no repeated
    /// ids (only for decoders that do not: `decodeSectionsAsParsed` checks them once every field is decoded).
    mutating func flatField(_ flat: borrowing FlatField, location: FieldLocation) -> FormField? {
        guard !checksRepeatedFieldIDs, let id = flat.id, Self.isIdentifier(id), let cellID = flat.cell else { return nil }
        if let a = flat.accessibilityId, !Self.isIdentifier(a) { return nil }
        let cell: CellType
        let cellIDLength = cellID.utf8.count
        if let recent = recentCells.first(where: { $0.id.utf8.count == cellIDLength && $0.id == cellID }) {
            cell = recent
        } else {
            guard let found = try? registry.cellType(cellID) else { return nil }
            if recentCells.count == 8 { recentCells.removeFirst() }
            recentCells.append(found)
            cell = found
        }
        // The model, as `model` builds it: the values in schema order, each coerced as `ValueCoercion` does,
        // starting from the cell type's defaults. The array is made here and appended to (a copy of the shared
        // defaults on the first write went through the generic copy, about 960 instructions a field, and an
        // uninitialized array through an unspecialised allocation, 680).
        let fields = cell.fields
        var values: [Value?] = []
        values.reserveCapacity(fields.count)
        for value in cell.defaultModel { values.append(value) }
        // Which fields the document wrote (a field left at a default that fits whatever the model holds needs
        // no check); beyond 64 fields every one is checked.
        var written: UInt64 = fields.count > 64 ? ~0 : 0
        for member in flat.model {
            guard let index = cell.index(of: member.key) else { return nil }
            let value: Value
            switch (fields[index].type, member.value) {
            case (_, .null): continue
            case (.string, .string(let s)), (.text, .string(let s)), (.choice, .string(let s)): value = .string(s)
            case (.bool, .bool(let b)): value = .bool(b)
            case (.integer, .integer(let i)): value = .integer(i)
            case (.integer, .number(let d)) where d == d.rounded() && abs(d) < 9e15: value = .integer(Int64(d))
            case (.number, .integer(let i)): value = .number(Double(i))
            case (.number, .number(let d)): value = .number(d)
            case (.date, .string(let s)):
                guard let seconds = DateFormat.parse(s) else { return nil }
                value = .number(seconds)
            case (.stringList, .strings(let list)), (.choiceList, .strings(let list)): value = .stringList(list)
            default: return nil
            }
            values[index] = value
            if index < 64 { written |= 1 << UInt64(index) }
        }
        var model = FieldModel(cell: cell, values: values)
        values = []  // the model's array is its own from here
        let defaultFits = cell.defaultFits
        for i in fields.indices {
            guard let value = model[i] else {
                if fields[i].required { return nil }
                continue
            }
            if i < 64 && written & (1 << UInt64(i)) == 0 && defaultFits[i] { continue }
            if !SchemaValidator.fits(value, fields[i]), SchemaValidator.problem(with: value, for: fields[i], model: model) != nil {
                return nil
            }
        }
        let required = flat.required ?? false
        if required, let role = cell.roles.required, !(flat.hasModel && flat.model.contains { $0.key == role }) {
            model[role] = .bool(true)
        }
        if cell.textInput.hasDateBounds,
            DateBounds.problem(model: model, traits: cell.textInput.traits, field: cell.textInput.field) != nil
        {
            return nil
        }
        let requiredByModel =
            cell.roles.required.map { role in (cell.requiredRoleIndex.map { model[$0] } ?? model[role]) == .bool(true) } ?? false
        return FormField(
            id: id, cell: cell, model: model, textInput: cell.textInput, accessibilityId: flat.accessibilityId ?? id,
            required: required || requiredByModel, valueField: cell.roles.value, location: location)
    }

    /// `{ value: 1, label: Poor }` or a plain scalar: the value's text (the model holds text), and the choice.
    mutating func labelledChoice(_ node: SourceNode, _ pointer: @autoclosure () -> String) -> (text: String, choice: LabelledChoice)? {
        func scalar(_ n: SourceNode) -> (String, JSON)? {
            switch n.kind {
            case .string(let s): (s, .string(s))
            case .integer(let i): (String(i), .integer(i))
            case .bool(let b): (b ? "true" : "false", .bool(b))
            default: nil
            }
        }
        if let members = node.members {
            for (k, v) in members where k != "value" && k != "label" {
                report("\(pointer())/\(Pointer.escape(k))", v, "unknown key '\(k)' in a choice; a choice is { value, label }")
            }
            guard let valueNode = node["value"], let (text, json) = scalar(valueNode), !text.isEmpty else {
                report(pointer(), node, "a choice needs a 'value': a non-empty string, an integer or a boolean")
                return nil
            }
            let label = node["label"]?.string ?? text
            if let l = node["label"], l.string == nil { report("\(pointer())/label", l, "'label' must be a string") }
            return (text, LabelledChoice(json: json, label: label))
        }
        guard let (text, json) = scalar(node), !text.isEmpty else {
            report(pointer(), node, "a choice must be a string, an integer, a boolean or { value, label }")
            return nil
        }
        return (text, LabelledChoice(json: json, label: text))
    }

    /// `rules:`: each key a plain value or `{ value, message }`, checked against the type of the
    /// field's value (lengths, pattern and format for text; bounds and step for numbers; item counts for lists).
    mutating func rules(_ node: SourceNode, _ pointer: @autoclosure () -> String, valueType: FieldType?, cell: CellType) -> FieldRules {
        var rules = FieldRules()
        guard let members = node.members else {
            report(
                pointer(), node,
                "'rules' must be an object of validation rules (\(FieldRules.keys.joined(separator: ", "))), not \(node.typeName)")
            return rules
        }
        guard let type = valueType else {
            report(pointer(), node, "cell '\(cell.id)' holds no value, so it takes no rules; remove 'rules'")
            return rules
        }
        checkKeys(node, allowed: FieldRules.keys, at: pointer(), what: "rules")
        let text = type == .string || type == .text, numeric = type == .integer || type == .number, list = type.isList
        func split(_ key: String, _ n: SourceNode) -> (SourceNode, String?)? {
            guard let inner = n.members else { return (n, nil) }
            for (k, v) in inner where k != "value" && k != "message" {
                report(
                    "\(pointer())/\(key)/\(Pointer.escape(k))", v, "unknown key '\(k)' in a rule; a rule is a value or { value, message }")
            }
            guard let value = n["value"] else { report("\(pointer())/\(key)", n, "a rule written as an object needs 'value'"); return nil }
            var message: String?
            if let m = n["message"] {
                message = m.string; if message == nil { report("\(pointer())/\(key)/message", m, "'message' must be a string") }
            }
            return (value, message)
        }
        func applies(_ key: String, _ ok: Bool, _ n: SourceNode, _ what: String) -> Bool {
            if !ok { report("\(pointer())/\(key)", n, "'\(key)' applies to \(what) values, but this field's value is \(type.rawValue)") }
            return ok
        }
        func count(_ key: String, _ n: SourceNode) -> FieldRules.Rule<Int>? {
            guard let (v, message) = split(key, n) else { return nil }
            guard case .integer(let i) = v.kind, i >= 0, i <= 1_000_000 else {
                report("\(pointer())/\(key)", v, "'\(key)' must be a whole number from 0 to 1000000"); return nil
            }
            return FieldRules.Rule(Int(i), message: message)
        }
        func bound(_ key: String, _ n: SourceNode) -> FieldRules.Rule<Double>? {
            guard let (v, message) = split(key, n) else { return nil }
            guard let d = number(v), d.isFinite, abs(d) <= 1e15 else {
                report("\(pointer())/\(key)", v, "'\(key)' must be a number within ±1e15"); return nil
            }
            if key == "step" && d <= 0 { report("\(pointer())/\(key)", v, "'step' must be greater than 0"); return nil }
            if type == .integer && d != d.rounded() {
                report("\(pointer())/\(key)", v, "'\(key)' of an integer field must be a whole number"); return nil
            }
            return FieldRules.Rule(d, message: message)
        }
        for (key, value) in members {
            switch key {
            case "equals", "expression":
                guard let (v, message) = split(key, value) else { continue }
                let fieldPointer = String(pointer().dropLast("/rules".count))
                pending.append(
                    PendingCondition(target: .field(fieldPointer), key: key, node: v, pointer: "\(pointer())/\(key)", message: message))
            case "required":
                if let s = value.string {
                    rules.required = s
                } else if let (_, message) = split(key, value), let message {
                    rules.required = message
                } else {
                    report("\(pointer())/required", value, "'required' in rules is the message shown when the value is missing: a string")
                }
            case "minLength": if applies(key, text, value, "text") { rules.minLength = count(key, value) }
            case "maxLength": if applies(key, text, value, "text") { rules.maxLength = count(key, value) }
            case "minItems": if applies(key, list, value, "list") { rules.minItems = count(key, value) }
            case "maxItems": if applies(key, list, value, "list") { rules.maxItems = count(key, value) }
            case "minimum": if applies(key, numeric, value, "number") { rules.minimum = bound(key, value) }
            case "maximum": if applies(key, numeric, value, "number") { rules.maximum = bound(key, value) }
            case "step": if applies(key, numeric, value, "number") { rules.step = bound(key, value) }
            case "pattern":
                guard applies(key, text, value, "text"), let (v, message) = split(key, value) else { continue }
                guard let s = v.string, !s.isEmpty, s.count <= 500 else {
                    report("\(pointer())/pattern", v, "'pattern' must be a regular expression of at most 500 characters"); continue
                }
                guard (try? Regex(s)) != nil else {
                    report("\(pointer())/pattern", v, "'\(SchemaValidator.truncated(s))' is not a valid regular expression"); continue
                }
                guard FieldRules.isSafe(s) else {
                    report(
                        "\(pointer())/pattern", v,
                        "'\(SchemaValidator.truncated(s))' nests quantifiers (such as (a+)+), which can take exponential time; simplify it")
                    continue
                }
                rules.pattern = FieldRules.Rule(s, message: message)
            case "format":
                guard applies(key, text, value, "text"), let (v, message) = split(key, value) else { continue }
                guard let s = v.string, let f = FieldRules.Format(rawValue: s) else {
                    report(
                        "\(pointer())/format", v,
                        "unknown format; use one of \(FieldRules.Format.allCases.map(\.rawValue).joined(separator: ", "))");
                    continue
                }
                rules.format = FieldRules.Rule(f, message: message)
            default: break
            }
        }
        if let a = rules.minLength?.value, let b = rules.maxLength?.value, a > b {
            report("\(pointer())/minLength", node["minLength"], "minLength \(a) is greater than maxLength \(b)")
        }
        if let a = rules.minItems?.value, let b = rules.maxItems?.value, a > b {
            report("\(pointer())/minItems", node["minItems"], "minItems \(a) is greater than maxItems \(b)")
        }
        if let a = rules.minimum?.value, let b = rules.maximum?.value, a > b {
            report(
                "\(pointer())/minimum", node["minimum"], "minimum \(NumberText.format(a)) is greater than maximum \(NumberText.format(b))")
        }
        return rules
    }

    /// `accessibilityId: login_username`, or `{ id: login_username, suffix: [section, row] }`
    /// (CellViewModel's suffix options: `_<section>` and / or `_<row>` appended).
    mutating func accessibility(
        _ node: SourceNode?, _ pointer: @autoclosure () -> String, fieldID: String?, section: Int, row: Int
    ) -> String? {
        guard let node else { return nil }
        if let s = node.string {
            guard Self.isIdentifier(s) else {
                report(pointer(), node, "accessibility id '\(s)' must start with a letter and use only letters, digits, '_' and '-'");
                return nil
            }
            return s
        }
        guard node.members != nil else {
            report(pointer(), node, "accessibilityId must be a string or an object with 'id' and 'suffix'")
            return nil
        }
        checkKeys(node, allowed: ["id", "suffix"], at: pointer(), what: "accessibilityId")
        var base = fieldID
        if let idNode = node["id"] {
            guard let s = idNode.string, Self.isIdentifier(s) else {
                report(
                    "\(pointer())/id", idNode,
                    "accessibility id must be a string that starts with a letter and uses only letters, digits, '_' and '-'")
                return nil
            }
            base = s
        }
        guard var id = base else { return nil }
        if let suffix = node["suffix"] {
            guard case .array(let items) = suffix.kind else {
                report("\(pointer())/suffix", suffix, "suffix must be a list of 'section' and / or 'row'")
                return id
            }
            for (i, item) in items.enumerated() {
                switch item.string {
                case "section": id += "_\(section)"
                case "row": id += "_\(row)"
                default:
                    report(
                        "\(pointer())/suffix/\(i)", item,
                        "unknown suffix option \(item.json.serialized(pretty: false)); use 'section' or 'row'")
                }
            }
        }
        return id
    }

    mutating func model(_ node: SourceNode?, _ pointer: @autoclosure () -> String, cell: CellType, parent: SourceNode) -> FieldModel {
        // Values are gathered in schema order (no hashing per schema field), as the model keeps them.
        let fields = cell.fields
        // Reserved and filled rather than `Array(repeating:count:)`, whose allocation looks the storage class's
        // metadata up in the runtime's table on every call.
        var values: [Value?] = []
        values.reserveCapacity(fields.count)
        for _ in fields.indices { values.append(nil) }
        if let node {
            guard let members = node.members else {
                report(pointer(), node, "'model' must be an object of the cell's fields, not \(node.typeName)")
                return defaults(cell)
            }
            for (key, valueNode) in members {
                // The pointer() is built only when a problem is reported (it was a large share of decoding).
                func at() -> String { "\(pointer())/\(Pointer.escape(key))" }
                guard let index = cell.index(of: key) else {
                    var message = "unknown model field '\(key)' for cell '\(cell.id)'"
                    if let s = EditDistance.suggestion(for: key, in: fields.map(\.name)) {
                        message += "; did you mean '\(s)'?"
                    } else {
                        message += "; its fields are \(fields.map(\.name).joined(separator: ", "))"
                    }
                    report(at(), valueNode, message)
                    continue
                }
                let field = fields[index]
                if case .null = valueNode.kind { continue }
                // An options list may be written as { value, label } objects (values: strings, integers, booleans).
                let isOptions = field.type == .stringList && fields.contains { $0.optionsField == key }
                if isOptions, case .array(let items) = valueNode.kind, items.contains(where: { $0.members != nil }) {
                    var texts: [String] = []
                    for (i, item) in items.enumerated() {
                        guard let choice = labelledChoice(item, "\(at())/\(i)") else { continue }
                        let text = choice.text
                        if labelledChoices[text] != nil {
                            report(
                                "\(at())/\(i)", item, "the choice value \(choice.choice.json.serialized(pretty: false)) is listed twice");
                            continue
                        }
                        labelledChoices[text] = choice.choice
                        texts.append(text)
                    }
                    values[index] = .stringList(texts)
                    continue
                }
                switch ValueCoercion.value(valueNode, as: field) {
                case .success(let value): values[index] = value
                case .failure(let problem): report(at(), valueNode, "\(field.name) \(problem.text)")
                }
            }
        }
        for i in fields.indices where values[i] == nil {
            if let value = fields[i].defaultValue { values[i] = value }
        }
        var model = FieldModel(cell: cell, values: values)
        values = []  // the model's array is its own from here (a second reference made every model a copy)
        for i in fields.indices {
            let field = fields[i]
            func at() -> String { "\(pointer())/\(Pointer.escape(field.name))" }
            guard let value = model[i] else {
                if field.required {
                    report(
                        node == nil ? pointer().dropLastComponent : pointer(), node ?? parent,
                        "missing required model field '\(field.name)' (\(field.type.rawValue)) for cell '\(cell.id)'")
                }
                continue
            }
            // `fits` answers yes for most values without building anything; only the others are looked at in full.
            if !SchemaValidator.fits(value, field), let problem = SchemaValidator.problem(with: value, for: field, model: model) {
                report(at(), node?[field.name] ?? node, "\(field.name) \(problem)")
                model[i] = nil
            }
        }
        return model
    }

    func defaults(_ cell: CellType) -> FieldModel {
        FieldModel(cell: cell, values: cell.fields.map(\.defaultValue))
    }

    mutating func textInput(_ node: SourceNode?, _ pointer: @autoclosure () -> String, cell: CellType) -> TextInputConfiguration {
        var configuration = cell.textInput
        guard let node else { return configuration }
        guard let members = node.members else {
            report(pointer(), node, "'textInput' must be an object of trait overrides, not \(node.typeName)")
            return configuration
        }
        let kind = cell.textInput.kind
        if kind == .none {
            report(pointer(), node, "cell '\(cell.id)' has no text input; remove 'textInput'")
            return configuration
        }
        for (key, value) in members {
            guard let trait = TraitKey.named(key), trait.isDocumentKey else {
                var message = "unknown text-input trait '\(key)'"
                if let s = EditDistance.suggestion(for: key, in: TraitKey.documentKeys) { message += "; did you mean '\(s)'?" }
                report("\(pointer())/\(Pointer.escape(key))", value, message)
                continue
            }
            guard trait.kinds.contains(kind) else {
                let fits = trait.kinds.map(\.rawValue)
                report(
                    "\(pointer())/\(Pointer.escape(key))", value,
                    "'\(key)' does not apply to a \(kind.rawValue) (cell '\(cell.id)'); it applies to \(fits.joined(separator: " and "))")
                continue
            }
            if let problem = trait.apply(value, to: &configuration.traits) { report("\(pointer())/\(Pointer.escape(key))", value, problem) }
        }
        return configuration
    }
}

/// Converts document nodes to typed values for a field.
enum ValueCoercion {
    struct Problem: Error { var text: String }

    static func value(_ node: SourceNode, as field: FieldSchema) -> Result<Value, Problem> {
        func wrong() -> Result<Value, Problem> {
            let expected: String =
                switch field.type {
                case .string, .text: "a string"
                case .choice: "one of " + field.choices.map { "'\($0.value)'" }.joined(separator: ", ")
                case .bool: "true or false"
                case .integer: "an integer"
                case .number: "a number"
                case .date: "a date such as \"2026-11-21\" or \"2026-11-21T09:30:00Z\""
                case .stringList: "a list of strings"
                case .choiceList: "a list of " + field.choices.map { "'\($0.value)'" }.joined(separator: ", ")
                }
            return .failure(Problem(text: "must be \(expected), not \(node.typeName)"))
        }
        // YAML reads plain `On`, `Yes`, `1.0` as booleans and numbers; a string field takes the text as written.
        if let text = node.plainText, [.string, .text, .choice].contains(field.type) { return .success(.string(text)) }
        switch (field.type, node.kind) {
        case (.string, .string(let s)), (.text, .string(let s)), (.choice, .string(let s)): return .success(.string(s))
        case (.bool, .bool(let b)): return .success(.bool(b))
        case (.integer, .integer(let i)): return .success(.integer(i))
        case (.integer, .number(let d)) where d == d.rounded() && abs(d) < 9e15: return .success(.integer(Int64(d)))
        case (.number, .integer(let i)): return .success(.number(Double(i)))
        case (.number, .number(let d)): return .success(.number(d))
        case (.date, .string(let s)):
            guard let seconds = DateFormat.parse(s) else {
                return .failure(
                    Problem(text: "'\(SchemaValidator.truncated(s))' is not a date; write \"2026-11-21\" or \"2026-11-21T09:30:00Z\""))
            }
            return .success(.number(seconds))
        // A bare number is not a date in a document (is it seconds? milliseconds? a year?): write ISO 8601.
        case (.stringList, .array(let items)), (.choiceList, .array(let items)):
            var strings: [String] = []
            strings.reserveCapacity(items.count)  // one allocation, not one per doubling
            for (i, item) in items.enumerated() {
                guard let s = item.string ?? item.plainText else {
                    return .failure(Problem(text: "item \(i) must be a string, not \(item.typeName)"))
                }
                strings.append(s)
            }
            return .success(.stringList(strings))
        default: return wrong()
        }
    }
}

/// A date picker's value must lie within its model's minimum / maximum dates.
package enum DateBounds {
    package static func problem(model: some ModelLookup, traits: TextInputTraits, field: String?) -> (field: String, message: String)? {
        func date(_ name: String?) -> Double? {
            guard let name, case .number(let d)? = model.value(named: name) else { return nil }
            return d
        }
        let minimum = date(traits.minimumField), maximum = date(traits.maximumField)
        if let minimum, let maximum, minimum > maximum {
            return (
                traits.minimumField!,
                "\(traits.minimumField!) \(DateFormat.iso8601(minimum)) is after \(traits.maximumField!) \(DateFormat.iso8601(maximum))"
            )
        }
        guard let field, let value = date(field) else { return nil }
        if let minimum, value < minimum {
            return (
                field,
                "\(field) \(DateFormat.iso8601(value)) is before the earliest date \(DateFormat.iso8601(minimum)) (\(traits.minimumField!))"
            )
        }
        if let maximum, value > maximum {
            return (
                field,
                "\(field) \(DateFormat.iso8601(value)) is after the latest date \(DateFormat.iso8601(maximum)) (\(traits.maximumField!))"
            )
        }
        return nil
    }
}

/// The decoder's side of a section's fields read flat (`JSONParser.flatFields`): each field is decoded as it is
/// read (`FormDecoder.flatField`), and kept by its place in the section's list.
final class FlatFieldDecoder: FlatFieldSink {
    private(set) var decoder: FormDecoder
    let pointer: String
    private var fields: [FormField?] = []
    /// How many fields were taken.
    private(set) var taken = 0

    /// `decoder` must not check repeated ids (see `FormDecoder.flatField`); `pointer` is the section's.
    init(decoder: FormDecoder, pointer: String) {
        self.decoder = decoder
        self.pointer = pointer
    }

    func take(_ field: inout FlatField, position: Int) -> Bool {
        guard let decoded = decoder.flatField(field, location: FieldLocation(section: pointer, row: position)) else { return false }
        if fields.count < position { fields.append(contentsOf: repeatElement(nil, count: position - fields.count)) }
        fields.append(decoded)
        taken += 1
        return true
    }

    /// The field taken at `row`, if it was.
    func field(at row: Int) -> FormField? { row < fields.count ? fields[row] : nil }
}
