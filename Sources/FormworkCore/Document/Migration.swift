/// Answers stored under an older revision of a document, read as a later revision asks.
///
/// A document says what became of a field's answers when it changes: `renamedFrom: oldId` (or a list) on the field
/// that took them over, and at the top level `removed: [{id: oldId}]` (dropped) or `{id: oldId, keepAs: name}` (kept
/// beside the values under that name, outside the form's fields). Answers walk through every revision after the one
/// they were stored under, each revision's declarations applied in turn, so a field renamed twice arrives under its
/// last name. What no declaration explains is dropped and reported as such.
///
/// Declarations are read from a document's tree, not from the decoded form: an old revision's text is read without
/// the cell types it used (they may be gone).
public enum Migration {
    /// What one revision of a document declares, and its field ids.
    public struct Declarations: Sendable, Equatable {
        /// Every value key of the revision: its fields, and its repeated groups (whose items hold their own fields).
        public var ids: Set<String> = []
        /// Old id → the id that took its answers over.
        public var renames: [String: String] = [:]
        /// Old id → the name its answers are kept under (nil: dropped).
        public var removed: [String: String?] = [:]
        /// Field id → its cell type, to tell when a field's type changed.
        public var cells: [String: String] = [:]
        /// The objects whose members are fields (`object: address`: the values' `address` holds `address.city`).
        public var objects: Set<String> = []

        public init() {}
    }

    /// One thing that happened to a submission's answers on the way to the current revision.
    public enum Change: Sendable, Equatable {
        case renamed(from: String, to: String)
        case dropped(field: String, declared: Bool)
        case kept(field: String, as: String)

        package var json: JSON {
            switch self {
            case .renamed(let from, let to): .object([("change", .string("renamed")), ("from", .string(from)), ("to", .string(to))])
            case .dropped(let field, let declared):
                .object([
                    ("change", .string("dropped")), ("field", .string(field)),
                    (
                        "why",
                        .string(declared ? "removed by the document" : "no field of that id, and no declaration says what became of it")
                    ),
                ])
            case .kept(let field, let name): .object([("change", .string("kept")), ("field", .string(field)), ("as", .string(name))])
            }
        }

        public var summary: String {
            switch self {
            case .renamed(let from, let to): "renamed \(from) to \(to)"
            case .dropped(let field, let declared): declared ? "dropped \(field) (removed)" : "dropped \(field) (unexplained)"
            case .kept(let field, let name): "kept \(field) as \(name)"
            }
        }
    }

    /// The declarations of a document's text (JSON or YAML); nil when it does not parse.
    public static func declarations(text: String) -> Declarations? {
        let trimmed = text.drop { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" }
        let format: SourceFile.Format = trimmed.first == "{" ? .json : .yaml
        guard let root = try? SourceFile.parse(text, format: format) else { return nil }
        return declarations(of: root)
    }

    /// The declarations of the document at `path` (`-`: standard input), read as `validate` reads documents.
    public static func declarations(path: String) throws(FormError) -> Declarations {
        declarations(of: try SourceFile.read(path))
    }

    /// The declarations of a document's tree.
    static func declarations(of root: SourceNode) -> Declarations {
        var out = Declarations()
        var sections: [SourceNode] = []
        if case .array(let list)? = root["sections"]?.kind { sections = list }
        if case .array(let pages)? = root["pages"]?.kind {
            for page in pages { if case .array(let list)? = page["sections"]?.kind { sections += list } }
        }
        for section in sections {
            let repeated = section["repeat"].map { if case .bool(false) = $0.kind { false } else { true } } ?? false
            if repeated, let id = section["id"]?.string { out.ids.insert(id) }
            guard case .array(let fields)? = section["fields"]?.kind else { continue }
            // A field of an object is `address.city`, as everywhere else; `renamedFrom` names ids in the same terms.
            let object = repeated ? nil : section["object"]?.string
            if let object { out.objects.insert(object) }
            // A repeated group's field ids are its items' keys; ids are unique across a form, so one set holds both.
            for field in fields {
                guard let bare = field["id"]?.string else { continue }
                let id = object.map { "\($0).\(bare)" } ?? bare
                out.ids.insert(id)
                if let cell = field["cell"]?.string { out.cells[id] = cell }
                for old in names(field["renamedFrom"]) { out.renames[old] = id }
            }
        }
        if case .array(let removed)? = root["removed"]?.kind {
            for entry in removed {
                if let id = entry.string {
                    out.removed[id] = .some(nil)
                } else if let id = entry["id"]?.string {
                    out.removed[id] = .some(entry["keepAs"]?.string)
                }
            }
        }
        return out
    }

    static func names(_ node: SourceNode?) -> [String] {
        switch node?.kind {
        case .string(let s)?: [s]
        case .array(let items)?: items.compactMap(\.string)
        default: []
        }
    }

    /// `values` (a values-file object) through `steps`, the declarations of each later revision in order, the
    /// current one last. Returns the values in the last revision's terms, the answers kept beside them, and what
    /// changed.
    package static func migrate(_ values: JSON, through steps: [Declarations]) -> (values: JSON, kept: [(String, JSON)], changes: [Change])
    {
        guard case .object(var members) = values else { return (values, [], []) }
        // An object's members are fields: walked as `address.city`, nested again at the end.
        var objects = steps.reduce(into: Set<String>()) { $0.formUnion($1.objects) }
        // An earlier revision's objects, as its ids are named in `renamedFrom` and `removed` (`address.city` was a
        // field of the object `address`).
        for step in steps {
            for old in Array(step.renames.keys) + Array(step.removed.keys) {
                if let dot = old.lastIndex(of: ".") { objects.insert(String(old[..<dot])) }
            }
        }
        // An object inside an object (`billing.address`) is walked through its parent.
        for object in objects {
            var path = Substring(object)
            while let dot = path.lastIndex(of: ".") {
                path = path[..<dot]
                objects.insert(String(path))
            }
        }
        if !objects.isEmpty {
            func flat(_ member: (String, JSON)) -> [(String, JSON)] {
                guard objects.contains(member.0), case .object(let inner) = member.1 else { return [member] }
                return inner.flatMap { flat(("\(member.0).\($0.0)", $0.1)) }
            }
            members = members.flatMap(flat)
        }
        var kept: [(String, JSON)] = []
        var changes: [Change] = []
        for step in steps {
            var next: [(String, JSON)] = []
            for (key, value) in members {
                let migrated = items(value, step, &changes)
                if step.ids.contains(key) {
                    next.append((key, migrated))
                } else if let to = step.renames[key], !members.contains(where: { $0.0 == to }) {
                    next.append((to, migrated))
                    changes.append(.renamed(from: key, to: to))
                } else if let removal = step.removed[key] {
                    if let name = removal {
                        kept.append((name, migrated))
                        changes.append(.kept(field: key, as: name))
                    } else {
                        changes.append(.dropped(field: key, declared: true))
                    }
                } else {
                    changes.append(.dropped(field: key, declared: false))
                }
            }
            members = next
        }
        // Field ids hold no dot of their own: everything before the last dot is the object's path.
        if members.contains(where: { $0.0.utf8.contains(0x2E) }) {
            return (JSON.nestedByDots(members), kept, changes)
        }
        return (.object(members), kept, changes)
    }

    /// A repeated group's items, their keys renamed and dropped as the form's are (field ids are unique in a form).
    static func items(_ value: JSON, _ step: Declarations, _ changes: inout [Change]) -> JSON {
        guard case .array(let list) = value, list.contains(where: { if case .object = $0 { true } else { false } }) else { return value }
        return .array(
            list.map { item in
                guard case .object = item else { return item }
                let (migrated, _, itemChanges) = migrate(item, through: [step])
                for change in itemChanges where !changes.contains(change) { changes.append(change) }
                return migrated
            })
    }

    /// What `formwork validate --previous` warns of: a field of the previous revision that is gone with no
    /// declaration saying what becomes of its answers, a field whose cell type changed (its answers may no longer
    /// read), a rename from a field the previous revision did not have.
    public static func unexplained(previous: Declarations, current: Declarations) -> [(id: String, message: String)] {
        var out: [(String, String)] = []
        for id in previous.ids.sorted() where !current.ids.contains(id) {
            if current.renames[id] == nil && current.removed[id] == nil {
                out.append(
                    (
                        id,
                        "field '\(id)' of the previous revision is gone and nothing says what becomes of its stored answers: "
                            + "add 'renamedFrom: \(id)' to the field that takes them, or list it under 'removed'"
                    ))
            }
        }
        for id in current.ids.sorted() {
            if let before = previous.cells[id], let now = current.cells[id], before != now {
                out.append(
                    (
                        id,
                        "field '\(id)' changed from \(before) to \(now): stored answers may not read as the new type; "
                            + "give the new field a new id with 'renamedFrom' only if they do"
                    ))
            }
        }
        for (old, new) in current.renames.sorted(by: { $0.key < $1.key }) where !previous.ids.contains(old) {
            out.append((new, "field '\(new)' is renamed from '\(old)', which the previous revision does not have"))
        }
        for id in current.removed.keys.sorted() where current.ids.contains(id) {
            out.append((id, "'\(id)' is listed under 'removed' but is still a field of the form"))
        }
        return out
    }
}
