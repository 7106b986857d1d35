// A YAML document's sections, each decoded as soon as libyaml has read it: no tree of the whole document. A
// streaming path beside the reference decoder; it gives up on anything unusual, and is tested against the
// reference (SectionsAsReadTests, and every YAML example, fixture and fuzz document).

extension FormDecoder {
    /// takeField:)`): each section's nodes are decoded and freed as soon as they are complete, and no tree of the whole
    /// document is built. The fields that read flat (an `id`, a `cell`, a model of plain values: most fields of a large
    /// document) are decoded straight from libyaml's events, as JSON's are from their bytes (`flatField`), with no node
    /// made for them (docs/performance.md gives what it saves). nil as soon as anything is not as expected — a section with a problem, a repeated
    /// id, a list of pages, a section that is not a mapping, any problem in the rest of the document: the caller then
    /// takes the usual path, which reports exactly what it always reports. This one only ever returns a form that has
    /// no problem at all, the same form the usual path makes, section for section, decoded in the same order by the
    /// same code.
    ///
    /// `load` does not take it when the tree would be decoded on several cores (`decodesTreeInParallel`).
    package static func decodeSectionsAsRead(_ bytes: UnsafeBufferPointer<UInt8>, path: String, registry: any CellTypeCatalog) -> Form? {
        guard SourceFile.format(of: SourceFile.displayName(path), bytes: bytes) == .yaml else { return nil }
        return decodeSectionsAsRead(path: path, registry: registry) { takeSection, takeField throws(ParseError) in
            try YAMLReader.parse(bytes: bytes, takeSection: takeSection, takeField: takeField)
        }
    }

    /// `decodeSectionsAsRead` of a document whose bytes were let go, read again from its file as libyaml asks for
    /// them (`YAMLReader.parse(file:count:)`); `FormDecoder.loadDocument` keeps the form only if the file is unchanged.
    static func decodeSectionsAsRead(file source: ReopenableFile, count: Int, path: String, registry: any CellTypeCatalog) -> Form? {
        decodeSectionsAsRead(path: path, registry: registry) { takeSection, takeField throws(ParseError) in
            try YAMLReader.parse(file: source, count: count, takeSection: takeSection, takeField: takeField)
        }
    }

    /// The streaming decode, given how the document is parsed with its sections and fields offered as they are read.
    private static func decodeSectionsAsRead(
        path: String, registry: any CellTypeCatalog,
        parse: (
            _ takeSection: @escaping (SourceNode, Int) -> Bool, _ takeField: @escaping (inout FlatField, Int, Int) -> Bool
        ) throws(ParseError) -> SourceNode
    ) -> Form? {
        let file = SourceFile.displayName(path)
        var decoder = FormDecoder(registry: registry, file: file)
        // Three variables, not one `DecodedSections`: two `inout` accesses to one captured variable would overlap.
        var sections: [FormSection] = []
        var sectionIDs: [String: String] = [:]
        // Ids without their places: any repeat gives up, and the reference reports it where it was first used.
        var fieldIDs = FieldIDs(keepsPlaces: false)
        var failed = false
        // The fields that read flat are decoded as they are read (`FormDecoder.flatField`, as for JSON); their ids
        // are checked below, with the section's other fields, in row order.
        var flat = FlatFieldDecoder(decoder: FormDecoder(registry: registry, file: file), pointer: "")
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
                section = decoder.section(node, index: index, pointer: pointer, sectionIDs: &sectionIDs, fieldIDs: &fieldIDs)
            }
            guard let section, decoder.diagnostics.isEmpty, index == sections.count else {
                failed = true
                return false
            }
            sections.append(section)
            return true
        }
        guard let root = try? parse(taken, takeField), !failed, !sections.isEmpty,
            // Pages, and a section that was not taken (a scalar), are the reference's to report.
            root["pages"] == nil, case .array(let items)? = root["sections"]?.kind, items.count == sections.count
        else { return nil }
        let decoded = DecodedSections(
            sections: sections, sectionIDs: sectionIDs, fieldIDs: fieldIDs, pending: decoder.pending)
        var formDecoder = FormDecoder(registry: registry, file: file)
        let form = formDecoder.form(root, sections: .decoded(decoded))
        guard formDecoder.diagnostics.isEmpty, let form else { return nil }
        return form
    }
}
