/// Turns a parsed document into a `Form`, collecting every problem (not just the first), each with its JSON
/// pointer and line.
///
/// This is the reference decoder: one tree, decoded in order. The faster paths for large documents
/// (`Decoding/Streaming/`) sit beside it: they decode sections in their own way and hand `form` the result as a
/// `SectionSource`; they give up (return nil) on anything unusual, and the caller then takes this path, which
/// reports exactly what it always reports.
public struct FormDecoder {
    let registry: any CellTypeCatalog
    let file: String?
    var diagnostics: [Diagnostic] = []
    /// Labelled choices of the field being decoded (see `FormField.labelledChoices`).
    var labelledChoices: [String: LabelledChoice] = [:]
    /// Conditions and cross-field rules, parsed once every field id is known (`resolveConditions`).
    var pending: [PendingCondition] = []
    /// The cell types met last: a form's fields use a few, and comparing an id with theirs is cheaper than
    /// hashing it into the catalog for every field.
    var recentCells: [CellType] = []
    /// The scope of the fields being decoded, for the duplicate check: `address.` in a section whose values nest
    /// under `address`, `tasks/` in a repeated group's items; nil at the top level. An id is unique in its scope.
    var fieldScope: String?

    static let rootKeys = ["formwork", "id", "title", "description", "language", "translations", "sections", "pages", "removed"]
    static let sectionKeys = ["id", "header", "footer", "insets", "spacing", "fields", "visibleIf", "enabledIf", "repeat", "object"]
    static let fieldKeys =
        [
            "id", "cell", "model", "textInput", "accessibilityId", "required", "rules", "renamedFrom", "hidden", "readOnly", "choicesFrom",
            "file",
        ]
        + FieldConditions.keys

    init(registry: any CellTypeCatalog, file: String?) {
        self.registry = registry
        self.file = file
    }

    /// Reads, parses and validates the document at `path`: a large document through a streaming path when one
    /// takes it (`Decoding/Streaming/`), else the tree.
    public static func load(path: String, registry: any CellTypeCatalog) throws(FormError) -> Form {
        var form = try loadDocument(path: path, registry: registry)
        if !form.translationFiles.isEmpty { try readTranslationFiles(of: &form, documentPath: path) }
        return form
    }

    /// The translation files a document names (`translations: { fr: feedback.fr.yaml }`), read relative to it (to the
    /// working directory for standard input): each a table of texts and translations, in JSON or YAML. A problem in
    /// one names that file and the pointer in it.
    static func readTranslationFiles(of form: inout Form, documentPath: String) throws(FormError) {
        var diagnostics: [Diagnostic] = []
        for (tag, relative) in form.translationFiles.sorted(by: { $0.key < $1.key }) {
            let path = SourceFile.besides(documentPath, relative)
            let node: SourceNode
            do { node = try SourceFile.read(path) } catch {
                let why: String
                switch error {
                case .missingFile: why = "there is no file '\(relative)' (a translation file's path is relative to the document)"
                case .notAFile: why = "'\(relative)' is a folder, not a file of translations"
                default: why = "'\(relative)': \(error.description)"
                }
                diagnostics.append(
                    Diagnostic(
                        kind: .invalid, file: SourceFile.displayName(documentPath), pointer: "/translations/\(Pointer.escape(tag))",
                        line: nil,
                        message: why))
                continue
            }
            var decoder = FormDecoder(registry: NoCells(), file: path)
            if let table = decoder.translationTable(node, pointer: "") { form.translations[tag] = table }
            diagnostics += decoder.diagnostics
        }
        if !diagnostics.isEmpty { throw .invalid(diagnostics) }
    }

    /// The catalog of a decoder that reads no field (a translation file's).
    private struct NoCells: CellTypeCatalog {
        func cellType(_ id: String) throws(RegistryError) -> CellType { throw RegistryError(id: id, nearMatches: [], searched: []) }
        var cellTypes: [CellType] { [] }
        var supportsConcurrentLookups: Bool { true }
    }

    /// The size from which a document that the streaming path takes lets its bytes go once its outline is parsed, each
    /// part read again from the file as it is decoded (`DocumentBytes.file`): under it the bytes are a small part of
    /// the peak, and reading them again costs more than it saves (docs/performance.md, "The document's bytes").
    static let readAgainThreshold = 4 << 20

    /// A document a streaming path takes from its file once its bytes are let go (`loadDocument`).
    private enum StreamedDocument {
        case json((root: SourceNode, sections: [JSONParser.SkippedSection]))
        case yaml
    }

    /// The form of the document at `path` (`-`: standard input). `readAgainFrom`: `readAgainThreshold`, lowered by tests.
    static func loadDocument(
        path: String, registry: any CellTypeCatalog, readAgainFrom threshold: Int = readAgainThreshold
    ) throws(FormError) -> Form {
        var bytes: [UInt8]
        let source: ReopenableFile?
        (bytes, source) = try SourceFile.document(at: path, keepOpen: true)
        var streamingTried = false
        if let source, bytes.count >= threshold {
            let count = bytes.count
            // What a streaming path needs of the bytes, taken before they are let go: JSON's outline, YAML's checks.
            let streaming = bytes.withUnsafeBufferPointer { buffer -> StreamedDocument? in
                guard UTF8Validation.isValid(buffer) else { return nil }
                if let outline = sectionsToParse(buffer, path: path, registry: registry, minimumBytes: 0) { return .json(outline) }
                guard !decodesTreeInParallel(registry), SourceFile.format(of: SourceFile.displayName(path), bytes: buffer) == .yaml,
                    YAMLReader.excessiveFlowNesting(buffer) == nil
                else { return nil }
                return .yaml
            }
            streamingTried = true
            if let streaming {
                bytes = []
                let form =
                    switch streaming {
                    case .json(let outline): decodeSections(outline, from: .file(source, count: count), path: path, registry: registry)
                    case .yaml: decodeSectionsAsRead(file: source, count: count, path: path, registry: registry)
                    }
                // Only a form of the file as it was read: one written meanwhile is read again, for the usual path.
                if let form, source.isUnchanged { return form }
                bytes = try SourceFile.bytes(of: path)
            }
        }
        let file = SourceFile.displayName(path)
        return try bytes.withUnsafeBufferPointer { (buffer) throws(FormError) -> Form in
            try SourceFile.checkEncoding(buffer, of: path)
            if !streamingTried, let form = decodeSectionsAsParsed(buffer, path: path, registry: registry) { return form }
            if !streamingTried, !decodesTreeInParallel(registry), let form = decodeSectionsAsRead(buffer, path: path, registry: registry) {
                return form
            }
            let root = try SourceFile.parse(validated: buffer, of: path)
            return try decode(consume root, registry: registry, file: file)
        }
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
        if decodesTreeInParallel(registry), let form = try decodeTreeInParallel(root, registry: registry, file: file) { return form }
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

    /// How deep objects nest (`object: a.b.c` is three).
    static let maxObjectDepth = 8

    /// `object: billing` or `object: billing.address` (an object inside an object): identifiers joined by dots.
    mutating func objectPath(_ node: SourceNode, _ pointer: @autoclosure () -> String, parent: SourceNode) -> String? {
        guard let text = node.string, text.utf8.contains(0x2E) else { return identifier(node, pointer(), parent: parent, what: "object") }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= Self.maxObjectDepth, parts.allSatisfy({ Self.isIdentifier(String($0)) }) else {
            report(
                pointer(), node,
                "object '\(SchemaValidator.truncated(text))' must be a key (address), or keys joined by dots for an object inside an object (billing.address), at most \(Self.maxObjectDepth) deep"
            )
            return nil
        }
        return text
    }

    /// A field's id as the rest of the document names it: `email`, or `address.city` for a field of an object.
    mutating func fieldPath(_ node: SourceNode?, _ pointer: @autoclosure () -> String, parent: SourceNode, what: String) -> String? {
        guard let text = node?.string, text.utf8.contains(0x2E) else { return identifier(node, pointer(), parent: parent, what: what) }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= Self.maxObjectDepth + 1, parts.allSatisfy({ Self.isIdentifier(String($0)) }) else {
            report(
                pointer(), node,
                "\(what) '\(SchemaValidator.truncated(text))' must be a field id, or an object's keys and a field id (address.city, billing.address.city)"
            )
            return nil
        }
        return text
    }

    /// `removed:` (docs/format.md, Revisions): a list of field ids, or of `{id, keepAs}`.
    mutating func checkRemoved(_ node: SourceNode) {
        guard case .array(let entries) = node.kind else {
            report(
                "/removed", node, "'removed' must be a list of the field ids a revision removed (or of {id, keepAs}), not \(node.typeName)")
            return
        }
        for (i, entry) in entries.enumerated() {
            let pointer = "/removed/\(i)"
            if entry.string != nil {
                _ = fieldPath(entry, pointer, parent: node, what: "removed field")
            } else if entry.members != nil {
                checkKeys(entry, allowed: ["id", "keepAs"], at: pointer, what: "a removed field")
                _ = fieldPath(entry["id"], pointer + "/id", parent: entry, what: "removed field")
                if let keep = entry["keepAs"] { _ = identifier(keep, pointer + "/keepAs", parent: entry, what: "'keepAs' name") }
            } else {
                report(pointer, entry, "a removed field is its id, or {id, keepAs}, not \(entry.typeName)")
            }
        }
    }

    /// An ASCII letter, then ASCII letters, digits, '_' and '-'; at most 128 bytes. Checked on the bytes
    /// (every field id of a document goes through here; Unicode property lookups are not needed for ASCII).
    static func isIdentifier(_ s: String) -> Bool {
        // Over the contiguous bytes (walking `s.utf8` goes through its index type for every byte).
        UTF8Bytes.with(s) { bytes in
            guard let first = bytes.first, bytes.count <= 128, (0x61...0x7A).contains(first | 0x20) else { return false }
            for b in bytes {
                let letter = (0x61...0x7A).contains(b | 0x20)
                if !(letter || (0x30...0x39).contains(b) || b == 0x5F || b == 0x2D) { return false }
            }
            return true
        }
    }

    /// The form of `root`, whose sections come from `source`: the root's own `sections` nodes (the reference), or
    /// sections a streaming path decoded already (`SectionSource`). Everything else — the root's keys, pages,
    /// accessibility ids, conditions, repeated groups — is decoded here, the same way for both.
    mutating func form(_ root: consuming SourceNode, sections source: SectionSource = .nodes) -> Form? {
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
        if let removed = root["removed"] { checkRemoved(removed) }
        let title = string(root["title"], "/title", what: "the title")
        let description = string(root["description"], "/description", what: "the description")
        let language = root["language"].flatMap { languageTag($0, "/language") } ?? "en"
        var translationFiles: [String: String] = [:]
        let translations = root["translations"].map { self.translations($0, language: language, files: &translationFiles) } ?? [:]

        var sections: [FormSection] = []
        var pages: [FormPage] = []
        var sectionIDs: [String: String] = [:]
        var fieldIDs = FieldIDs()
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
        if root["pages"] != nil && root["sections"] != nil {
            report(
                "/pages", root["pages"], "a form has 'sections' or 'pages' (each with its sections), not both; move the sections into pages"
            )
        }
        if let pagesNode = root["pages"] {
            pages = self.pages(pagesNode, sections: &sections, sectionIDs: &sectionIDs, fieldIDs: &fieldIDs)
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
            switch source {
            case .decoded(let decoded):
                // In document order, where the nodes' sections would have been decoded (their problems and
                // pending conditions after the root's).
                sections = decoded.sections
                sectionIDs = decoded.sectionIDs
                fieldIDs = decoded.fieldIDs
                fieldCount = decoded.fieldCount
                diagnostics += decoded.diagnostics
                pending += decoded.pending
            case .nodes:
                for i in items.indices {
                    let node = items[i]
                    items[i] = SourceNode(kind: .null, line: nil)
                    if let section = section(node, index: i, pointer: "/sections/\(i)", sectionIDs: &sectionIDs, fieldIDs: &fieldIDs) {
                        sections.append(section)
                    }
                }
            }
        }
        checkAccessibilityIDs(sections, expected: max(fieldIDs.count, fieldCount))
        checkObjectKeys(sections)
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
        form.language = language
        form.translations = translations
        form.translationFiles = translationFiles
        return form
    }

    /// A table of translations: each text of the document and its translation. Nil (reported) when it is not one.
    mutating func translationTable(_ node: SourceNode, pointer: String) -> [String: String]? {
        guard let entries = node.members else {
            report(
                pointer, node,
                "a translation table maps each text of the document to its translation (or names a file that does), not \(node.typeName)")
            return nil
        }
        var table: [String: String] = [:]
        table.reserveCapacity(entries.count)
        for (text, translated) in entries {
            guard let value = translated.string else {
                report("\(pointer)/\(Pointer.escape(text))", translated, "a translation is a string, not \(translated.typeName)")
                continue
            }
            table[text] = value
        }
        return table
    }

    /// The scope a repeated section's fields are decoded in (`tasks/`); nil for another section.
    static func repeatScope(of node: SourceNode) -> String? { node["repeat"] != nil ? (node["id"]?.string ?? "") + "/" : nil }

    /// The scope `section` decodes the fields of `node` in when the section has no problem: its object's (`address.`),
    /// else its repeated group's (`tasks/`). A streaming path that decodes a section's fields itself decodes them in it.
    static func fieldScope(ofSection node: SourceNode) -> String? {
        if node["repeat"] == nil, let object = node["object"]?.string { return object + "." }
        return repeatScope(of: node)
    }

    /// A language tag (`fr`, `pt-BR`), as BCP 47 writes it.
    mutating func languageTag(_ node: SourceNode, _ pointer: @autoclosure () -> String) -> String? {
        guard let text = string(node, pointer(), what: "a language tag") else { return nil }
        guard let tag = LanguageTag.normalized(text), tag == text || tag.lowercased() == text.lowercased() else {
            report(pointer(), node, "'\(text)' is not a language tag; write one such as en, fr or pt-BR (BCP 47)")
            return nil
        }
        return tag
    }

    /// `translations:`: for each language, the document's texts and their translations
    /// (`{ fr: { "Full name": "Nom complet" } }`), or the path of a file that holds that table (`fr: feedback.fr.yaml`,
    /// relative to the document; into `files`, read by `load`).
    mutating func translations(_ node: SourceNode, language: String, files: inout [String: String]) -> [String: [String: String]] {
        guard let languages = node.members else {
            report("/translations", node, "'translations' must map a language tag to its table of texts, not \(node.typeName)")
            return [:]
        }
        var out: [String: [String: String]] = [:]
        for (key, tableNode) in languages {
            let pointer = "/translations/\(Pointer.escape(key))"
            guard let tag = LanguageTag.normalized(key), tag.lowercased() == key.lowercased() else {
                report(pointer, tableNode, "'\(key)' is not a language tag; write one such as fr or pt-BR (BCP 47)")
                continue
            }
            if tag == language {
                report(
                    pointer, tableNode, "the document is written in '\(language)' ('language'); its translations are into other languages")
                continue
            }
            if let path = tableNode.string {
                guard !path.isEmpty, !path.utf8.contains(0) else {
                    report(pointer, tableNode, "a translation file is named by its path (relative to the document), not an empty string")
                    continue
                }
                // A document names files beside it or below it, of translations only: never an absolute path or one that
                // climbs out (a document from elsewhere must not make Formwork read, and quote, any file it can).
                let parts = path.split(separator: "/", omittingEmptySubsequences: false)
                guard !path.hasPrefix("/"), !parts.contains(".."),
                    [".json", ".yaml", ".yml"].contains(where: { path.hasSuffix($0) })
                else {
                    report(
                        pointer, tableNode,
                        "'\(path)' is not a translation file beside the document: name a .yaml, .yml or .json file in its folder or below it (no absolute path, no '..')"
                    )
                    continue
                }
                files[tag] = path
                continue
            }
            if let table = translationTable(tableNode, pointer: pointer) { out[tag] = table }
        }
        return out
    }

    /// Whether a parsed tree's sections (a YAML document's, or a JSON document's that is not decoded as it is

    /// The `pages` list: each page's sections appended to `sections`, in order.
    mutating func pages(
        _ pagesNode: SourceNode, sections: inout [FormSection], sectionIDs: inout [String: String], fieldIDs: inout FieldIDs
    ) -> [FormPage] {
        var pages: [FormPage] = []
        var pageIDs: [String: String] = [:]
        switch pagesNode.kind {
        case .array(let items):
            if items.isEmpty { report("/pages", pagesNode, "'pages' needs at least one page") }
            for (p, pageNode) in items.enumerated() {
                let pointer = "/pages/\(p)"
                guard pageNode.members != nil else {
                    report(pointer, pageNode, "a page must be an object with 'id' and 'sections', not \(pageNode.typeName)")
                    continue
                }
                checkKeys(pageNode, allowed: ["id", "title", "sections", "visibleIf"], at: pointer, what: "a page")
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
                            fieldIDs: &fieldIDs)
                        {
                            sections.append(section)
                        }
                    }
                case nil: report(pointer, pageNode, "missing 'sections': a page needs a list of sections")
                default:
                    report(
                        "\(pointer)/sections", pageNode["sections"], "'sections' must be a list, not \(pageNode["sections"]!.typeName)")
                }
                // A page's condition applies to each of its sections (resolved after theirs, and joined to them).
                if let n = pageNode["visibleIf"], sections.count > first {
                    pending.append(
                        PendingCondition(
                            target: .sections(first..<sections.count), key: "visibleIf", node: n, pointer: "\(pointer)/visibleIf"))
                }
                if let pageID {
                    pages.append(FormPage(id: pageID, title: pageTitle, firstSection: first, sectionCount: sections.count - first))
                }
            }
        default: report("/pages", pagesNode, "'pages' must be a list of pages, not \(pagesNode.typeName)")
        }
        return pages
    }

    /// A values file's top-level keys are the top-level fields' ids, the repeated groups' ids and the objects' keys:
    /// an object named like one of the others would make `{"address": …}` mean two things. (Several sections may
    /// share an object: their fields are one object's.)
    mutating func checkObjectKeys(_ sections: [FormSection]) {
        // From the sections, whichever path decoded them (a streaming path's decoders are its own).
        guard sections.contains(where: { $0.object != nil }) else { return }
        var taken: [String: String] = [:]
        for section in sections {
            if section.repeatGroup != nil {
                taken[section.id] = "the repeated group at the section '\(section.id)'"
                continue
            }
            for field in section.fields where section.object == nil { taken[field.id] = "the field at \(field.pointer)" }
        }
        // A field of an object is a member too: an object inside it may not have its name (`billing.address` the
        // field and `billing.address` the object).
        for section in sections where section.object != nil && section.repeatGroup == nil {
            for field in section.fields where taken[field.id] == nil { taken[field.id] = "the field at \(field.pointer)" }
        }
        var reported: Set<String> = []
        for section in sections {
            guard let key = section.object, let first = section.fields.first else { continue }
            // The object and every object it is inside (`billing` for `billing.address`).
            var prefixes = [key]
            var rest = Substring(key)
            while let dot = rest.lastIndex(of: ".") {
                rest = rest[..<dot]
                prefixes.append(String(rest))
            }
            for prefix in prefixes {
                guard let other = taken[prefix], reported.insert(prefix).inserted else { continue }
                report(
                    "\(first.pointer.dropLast("/fields/0".utf8.count))/object", nil,
                    "object '\(prefix)' has the name of \(other); a values file's '\(prefix)' can hold only one of them: rename one")
            }
        }
    }

    /// Accessibility ids are unique across the form. `expected`: about how many fields there are.
    mutating func checkAccessibilityIDs(_ sections: [FormSection], expected: Int) {
        // Index loops (a `for field in` loop copies every field) and positions, not pointers, until a duplicate is found.
        // Only a field with an accessibility id of its own (not its field id, which is unique) can be reported: without
        // one, the whole table (a hash per field, a twentieth of decoding a large form) is not built.
        var accessibilityIDs: [String: (section: Int, field: Int)] = [:]
        let anyOwnAccessibilityID = sections.contains { $0.fields.contains { $0.accessibilityId != $0.id } }
        if anyOwnAccessibilityID { accessibilityIDs.reserveCapacity(expected) }
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
    }

    /// The section of `node`, the `index`th of the form, at `pointer`. `decoded`: its fields, when a streaming path
    /// decoded them from its `fields` list already (the section's own keys are still decoded from `node`).
    mutating func section(
        _ node: SourceNode, index: Int, pointer: String, sectionIDs: inout [String: String],
        fieldIDs: inout FieldIDs, decoded: DecodedFields? = nil
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
        // `object: address`: the section's values nest, `{"address": {"city": …}}`; its fields' ids are
        // `address.city` from here on (pointers `/address/city`), unique within the object.
        var object: String?
        if let objectNode = node["object"] {
            object = objectPath(objectNode, "\(pointer)/object", parent: node)
            if object != nil && node["repeat"] != nil {
                report(
                    "\(pointer)/object", objectNode,
                    "a repeated section's values are a list of objects already; remove 'object' (or put the group in a section of its own)")
                object = nil
            }
        }
        fieldScope = object.map { "\($0)." } ?? Self.repeatScope(of: node)
        defer { fieldScope = nil }
        var fields: [FormField] = []
        switch node["fields"]?.kind {
        case .array? where decoded != nil:
            // Where the nodes' fields would be decoded: their problems and conditions after the section's own.
            fields = decoded!.fields
            diagnostics += decoded!.diagnostics
            pending += decoded!.pending
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
        if let object {
            for f in fields.indices {
                let own = fields[f].accessibilityId != fields[f].id
                fields[f].id = "\(object).\(fields[f].id)"
                if !own { fields[f].accessibilityId = fields[f].id }
            }
        }
        var section = FormSection(id: id, header: header, footer: footer, insets: edgeInsets, spacing: spacing, fields: fields)
        section.object = object
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
}
