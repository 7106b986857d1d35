// A large JSON document's sections, each parsed and at once decoded on the same core: no tree of the whole
// document. A streaming path beside the reference decoder (`FormDecoder.form` with `SectionSource.nodes`); it
// gives up on anything unusual, and is tested against the reference (SectionsAsParsedTests, FlatFieldsTests).

extension FormDecoder {

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
        guard let outline = sectionsToParse(bytes, path: path, registry: registry, minimumBytes: minimumBytes) else { return nil }
        return decodeSections(outline, from: .memory(bytes), path: path, registry: registry)
    }

    /// The first pass of `decodeSectionsAsParsed`: the document parsed with its sections skipped, when it is a
    /// document that path takes (large enough, JSON, a list of sections and no pages, a catalog that several
    /// threads can ask); nil otherwise.
    static func sectionsToParse(
        _ bytes: UnsafeBufferPointer<UInt8>, path: String, registry: any CellTypeCatalog, minimumBytes: Int
    ) -> (root: SourceNode, sections: [JSONParser.SkippedSection])? {
        guard bytes.count >= minimumBytes, registry.supportsConcurrentLookups,
            SourceFile.format(of: SourceFile.displayName(path), bytes: bytes) == .json,
            let first = JSONParser.sectionsSkipped(bytes), !first.sections.isEmpty, first.root["pages"] == nil,
            case .array(let items)? = first.root["sections"]?.kind, items.count == first.sections.count
        else { return nil }
        return first
    }

    /// The second pass of `decodeSectionsAsParsed`: the sections that `sectionsToParse` skipped, parsed and decoded
    /// from `bytes` (the document in memory, or the file it was read from, read again a part at a time).
    static func decodeSections(
        _ outline: (root: SourceNode, sections: [JSONParser.SkippedSection]), from bytes: DocumentBytes, path: String,
        registry: any CellTypeCatalog
    ) -> Form? {
        var decoder = FormDecoder(registry: registry, file: SourceFile.displayName(path))
        guard let decoded = decoder.sectionsAsParsed(UnparsedSections(bytes: bytes, items: outline.sections)) else { return nil }
        let form = decoder.form(outline.root, sections: .decoded(decoded))
        guard decoder.diagnostics.isEmpty, let form else { return nil }
        return form
    }

    /// Where the streaming path reads the bytes of the sections it skipped: the document in memory, or the regular
    /// file it was read from, each part read again when it is decoded (`FormDecoder.loadDocument` lets a large
    /// document's bytes go once its outline is parsed: held to the end, they were a large part of the decode's peak).
    enum DocumentBytes {
        case memory(UnsafeBufferPointer<UInt8>)
        /// The file and the document's size.
        case file(ReopenableFile, count: Int)

        var count: Int {
            switch self {
            case .memory(let bytes): bytes.count
            case .file(_, let count): count
            }
        }

        /// `body` given bytes that hold `range` of the document, and the place of their first byte in it (the whole
        /// document and 0 when it is in memory); nil when the part cannot be read again or is not UTF-8 (the file
        /// changed: the caller gives up, and the document is read again for the usual path).
        func with<R>(_ range: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>, Int) -> R?) -> R? {
            switch self {
            case .memory(let bytes):
                return body(bytes, 0)
            case .file(let file, _):
                // Checked again: the parser reads only bytes that `checkEncoding` accepted.
                guard let part = file.read(range) else { return nil }
                return part.withUnsafeBufferPointer { UTF8Validation.isValid($0) ? body($0, range.lowerBound) : nil }
            }
        }
    }

    /// The sections a first pass skipped (`JSONParser.sectionsSkipped`), and the document they are in.
    struct UnparsedSections {
        let bytes: DocumentBytes
        let items: [JSONParser.SkippedSection]
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
    func sectionsAsParsed(_ unparsed: UnparsedSections) -> DecodedSections? {
        // Runs of about the bytes of 256 fields (as in `sectionsInParallel`: a decoder per small section looked each
        // cell type up again). A section much larger than its share (a form of one section of 10,000 fields) is a
        // run of its own, its fields shared out instead (`largeSectionAsParsed`).
        let share = JSONParser.sectionShare(count: unparsed.bytes.count)
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
            var part = DecodedPart()
            let workspace = JSONParser.Workspace()
            // The group's bytes: read again from the file when the document's were let go.
            let range = unparsed.items[groups[g].lowerBound].start..<unparsed.items[groups[g].upperBound - 1].end
            let read: Bool? = unparsed.bytes.with(range) { bytes, base in
                for k in groups[g] {
                    let item = unparsed.items[k].relative(to: base)
                    let pointer = "/sections/\(item.position)"
                    // The section's fields read flat and decoded as they are read (no nodes made for them), those that
                    // cannot be decoded so read as nodes and decoded after; a repeated section is read again whole
                    // (its checks read its fields' nodes).
                    var flat = FlatFieldDecoder(decoder: FormDecoder(registry: registry, file: file), pointer: pointer)
                    guard var node = JSONParser.section(item, in: bytes, workspace: workspace, flatFields: flat) else { return nil }
                    if flat.taken > 0 && (node["repeat"] != nil || node["object"] != nil) {
                        guard let whole = JSONParser.section(item, in: bytes, workspace: workspace) else { return nil }
                        node = whole
                        flat = FlatFieldDecoder(decoder: flat.decoder, pointer: pointer)
                    }
                    var decoded: DecodedFields?
                    if flat.taken > 0 {
                        guard case .array(let items)? = node["fields"]?.kind,
                            let read = decoder.fields(
                                items, flat: flat, pointer: pointer, section: item.position, scope: FormDecoder.fieldScope(ofSection: node))
                        else { return nil }
                        decoded = read
                    }
                    var sectionIDs: [String: String] = [:]
                    var fieldIDs = FieldIDs(checked: false)  // checked below, once every field is decoded
                    let section = decoder.section(
                        node, index: item.position, pointer: pointer, sectionIDs: &sectionIDs, fieldIDs: &fieldIDs, decoded: decoded)
                    guard let section, decoder.diagnostics.isEmpty else { return nil }
                    part.fields += section.fields.count
                    part.sections.append(section)
                }
                return true
            }
            guard read != nil else { return nil }
            part.pending = decoder.pending
            return part
        }
        for g in groups.indices where isLarge(groups[g]) {
            parts[g] = largeSectionAsParsed(unparsed.items[groups[g].lowerBound], in: unparsed.bytes, catalogs: catalogs)
        }
        var sections: [FormSection] = []
        sections.reserveCapacity(unparsed.items.count)
        var fields = 0
        var pending: [PendingCondition] = []
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
        return DecodedSections(sections: sections, fieldCount: fields, pending: pending)
    }

    /// A section much larger than its share, parsed with its fields skipped, then its fields parsed and decoded a
    /// run at a time on several cores (each field's nodes freed as soon as it is decoded); nil as soon as a field
    /// does not parse or anything has a problem, and for a repeated section (its checks read the fields' nodes).
    ///
    /// `catalogs`: the catalog of each worker (`WorkerCatalog.forWorkers`), as many as `Parallel.threads`.
    func largeSectionAsParsed(
        _ item: JSONParser.SkippedSection, in bytes: DocumentBytes, catalogs: [any CellTypeCatalog]
    ) -> DecodedPart? {
        // The fields' places in the document (read from the file, the section's bytes are let go before its fields
        // are decoded: each run reads its own again).
        let skipped = bytes.with(item.start..<item.end) { bytes, base in
            JSONParser.sectionFieldsSkipped(item.relative(to: base), in: bytes).map {
                ($0.section, base == 0 ? $0.fields : $0.fields.map { $0.relative(to: -base) })
            }
        }
        guard let (node, items) = skipped, node["repeat"] == nil, node["object"] == nil else { return nil }
        let pointer = "/sections/\(item.position)", sectionPosition = item.position
        let count = items.count, runs = max(1, min(Parallel.threads * 4, count / 512))
        let registry = self.registry, file = self.file
        var fieldsPending: [PendingCondition] = []
        var complete = true
        // Each run decodes its fields straight into its slice of the section's array: putting runs' arrays
        // together copied every field (a retain and a release of each of its references).
        let fields = [FormField](unsafeUninitializedCapacity: count) { buffer, initialized in
            guard let storage = buffer.baseAddress else { return }
            let pieces = Parallel.mapOnWorkers(runs, worthIt: true) { worker, r -> (rows: Range<Int>, pending: [PendingCondition]?) in
                var decoder = FormDecoder(registry: catalogs[worker], file: file)
                var unused = FieldIDs(checked: false)  // checked by the caller, once every field is decoded
                let workspace = JSONParser.Workspace()
                var flat = FlatField()
                let rows = r * count / runs..<(r + 1) * count / runs
                guard !rows.isEmpty else { return (rows, []) }
                let range = items[rows.lowerBound].start..<items[rows.upperBound - 1].end
                let read = bytes.with(range) { bytes, base -> (rows: Range<Int>, pending: [PendingCondition]?)? in
                    for k in rows {
                        let item = items[k].relative(to: base)
                        let row = item.position
                        let location = FieldLocation(section: pointer, row: row)
                        // Read flat and decoded at once when it can be (no nodes made), else parsed and decoded as nodes.
                        if JSONParser.readFlatField(item, in: bytes, workspace: workspace, into: &flat),
                            let field = decoder.flatField(flat, location: location)
                        {
                            (storage + k).initialize(to: field)
                            continue
                        }
                        guard let fieldNode = JSONParser.field(item, section: sectionPosition, in: bytes, workspace: workspace),
                            let field = decoder.field(fieldNode, location: location, section: sectionPosition, row: row, fieldIDs: &unused),
                            decoder.diagnostics.isEmpty
                        else { return (rows.lowerBound..<k, nil) }
                        (storage + k).initialize(to: field)
                    }
                    return (rows, decoder.pending)
                }
                return read ?? (rows.lowerBound..<rows.lowerBound, nil)
            }
            if pieces.allSatisfy({ $0.pending != nil }) {
                for piece in pieces { fieldsPending += piece.pending! }
                initialized = count
            } else {
                for piece in pieces { (storage + piece.rows.lowerBound).deinitialize(count: piece.rows.count) }
                complete = false
            }
        }
        guard complete else { return nil }
        var decoder = FormDecoder(registry: registry, file: file)
        var sectionIDs: [String: String] = [:]
        var unused = FieldIDs(checked: false)
        guard
            let section = decoder.section(
                node, index: item.position, pointer: pointer, sectionIDs: &sectionIDs, fieldIDs: &unused,
                decoded: DecodedFields(fields: fields, pending: fieldsPending)),
            decoder.diagnostics.isEmpty
        else { return nil }
        return DecodedPart(sections: [section], pending: decoder.pending, fields: fields.count)
    }
}
