// A parsed tree's sections decoded on several cores (four or more: on two it costs more than it saves), beside
// the reference decoder, which decodes them in order; tested against it (TreeInParallelTests).

extension FormDecoder {
    /// Whether a parsed tree's sections (a YAML document's, or a JSON document's that is not decoded as it is
    /// parsed) are decoded on several cores: with four threads or more, and a catalog safe to share. On two cores
    /// it cost more than it saved, in CPU time and in wall time alike (docs/performance.md): the tree is built on
    /// one core, and every node the other cores read is retained and released there.
    static func decodesTreeInParallel(_ registry: any CellTypeCatalog) -> Bool {
        Parallel.threads >= treeInParallelFrom && registry.supportsConcurrentLookups
    }

    /// Threads from which a document's tree may be decoded on several of them (below: one thread decodes a YAML
    /// document, which `formwork` tunes its allocator by).
    package static let treeInParallelFrom = 4

    /// The form of `root` with its sections decoded on several cores (`sectionsInParallel`), or nil when that
    /// path does not take the document (the caller decodes the tree in order). Problems are reported exactly as
    /// the reference reports them, in the same order.
    static func decodeTreeInParallel(
        _ root: SourceNode, registry: any CellTypeCatalog, file: String?
    ) throws(FormError) -> Form? {
        guard root["pages"] == nil, case .array(let items)? = root["sections"]?.kind else { return nil }
        var decoder = FormDecoder(registry: registry, file: file)
        guard let decoded = decoder.sectionsInParallel(items) else { return nil }
        let form = decoder.form(root, sections: .decoded(decoded))
        guard decoder.diagnostics.isEmpty, let form else { throw .invalid(decoder.diagnostics) }
        return form
    }

    /// The sections of a large document decoded on several cores, each by a decoder of its own, or nil
    /// (decode them in order) when that might not give exactly what one decoder gives: a small
    /// document, a catalog that is not safe to share, or section or field ids that are repeated (their
    /// "first used at" diagnostics depend on the order). Each section's problems, pending conditions
    /// and the sections themselves are put together in document order; each section's nodes are freed
    /// once it is decoded, as in the sequential path.
    func sectionsInParallel(_ items: [SourceNode]) -> DecodedSections? {
        guard registry.supportsConcurrentLookups, Parallel.threads > 1, !items.isEmpty else { return nil }
        var items = items
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
                var part = DecodedPart()
                for i in groups[g] {
                    let node = nodes[i]
                    nodes[i] = SourceNode(kind: .null, line: nil)  // each index is touched by one thread only
                    var sectionIDs: [String: String] = [:]
                    var fieldIDs = FieldIDs(checked: false)  // every id is unique: checked above
                    let pointer = "/sections/\(i)"
                    var decoded: DecodedFields?
                    if case .array(let fields)? = node["fields"]?.kind, fields.count >= 2048 {
                        decoded = fieldsInParallel(fields, pointer: pointer, section: i)
                    }
                    if let section = decoder.section(
                        node, index: i, pointer: pointer, sectionIDs: &sectionIDs, fieldIDs: &fieldIDs, decoded: decoded)
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
        var decoded = DecodedSections()
        decoded.sections.reserveCapacity(items.count)
        for part in parts {
            decoded.sections += part.sections
            decoded.diagnostics += part.diagnostics
            decoded.pending += part.pending
            decoded.fieldCount += part.fields
        }
        return decoded
    }

    /// A large section's fields (`items`, at `pointer`) decoded a run at a time on several cores, each run by a
    /// decoder of its own, put together in order with their problems and pending conditions. Only for a document
    /// whose ids are known to be unique (`sectionsInParallel` checked them).
    func fieldsInParallel(_ items: [SourceNode], pointer: String, section index: Int) -> DecodedFields {
        let runs = min(Parallel.threads * 4, items.count / 512)
        let file = self.file
        let catalogs = WorkerCatalog.forWorkers(of: registry, runs, worthIt: true)
        let parts = Parallel.mapOnWorkers(runs, worthIt: true) { worker, r -> DecodedFields in
            var decoder = FormDecoder(registry: catalogs[worker], file: file)
            var unused = FieldIDs(checked: false)
            var part: [FormField] = []
            let rows = r * items.count / runs..<(r + 1) * items.count / runs
            part.reserveCapacity(rows.count)
            for row in rows {
                let location = FieldLocation(section: pointer, row: row)
                if let field = decoder.field(items[row], location: location, section: index, row: row, fieldIDs: &unused) {
                    part.append(field)
                }
            }
            return DecodedFields(fields: part, diagnostics: decoder.diagnostics, pending: decoder.pending)
        }
        var all = DecodedFields(fields: [])
        all.fields.reserveCapacity(items.count)
        for part in parts {
            all.fields += part.fields
            all.diagnostics += part.diagnostics
            all.pending += part.pending
        }
        return all
    }
}
