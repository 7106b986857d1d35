import Glibc

/// A values file: one JSON object keyed by field id (the input of `--values`,
/// the output of `fill`).
public enum ValuesFile {
    /// Reads `path` and applies its values to `form`'s value fields, collecting every problem.
    ///
    /// With `requireComplete` (the default; `validate`), every field the document marks
    /// required must then have a value. Without it (`render` prefilling a form, `fill`
    /// starting from values), partial values are fine.
    public static func apply(path: String, to form: inout Form, requireComplete: Bool = true) throws(FormError) {
        let problems = try collect(path: path, into: &form, requireComplete: requireComplete)
        if !problems.isEmpty { throw .invalid(problems) }
    }

    /// Applies every acceptable value and returns the problems with the others (the
    /// form keeps its document values there), so a caller can report them together
    /// with what the cells say. Throws only when the file cannot be read or parsed.
    public static func collect(path: String, into form: inout Form, requireComplete: Bool = true) throws(FormError) -> [Diagnostic] {
        let root = try SourceFile.read(path)
        // A file field's value in a values file is a path, relative to the values file (or to the working
        // directory, for standard input).
        let directory = path == "-" ? "." : path.lastIndex(of: "/").map { String(path[..<$0]) }.map { $0.isEmpty ? "/" : $0 } ?? "."
        do {
            try apply(root, to: &form, file: SourceFile.displayName(path), requireComplete: requireComplete, filesIn: directory)
        } catch {
            if case .invalid(let diagnostics) = error { return diagnostics }
            throw error
        }
        return []
    }

    /// Applies values held in memory, keyed by field id, with the same checks as a file
    /// (errors name `file` when given). Dates are `.number` seconds since 1970.
    public static func apply(
        _ values: [String: Value], to form: inout Form, file: String? = nil,
        requireComplete: Bool = true
    ) throws(FormError) {
        // Keyed by field id: a field of an object (`address.city`) goes into its object, as a file nests it.
        var members: [(String, JSON)] = []
        let fields = Dictionary(form.fields.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for key in values.keys.sorted() {
            let value = values[key]!
            let type = fields[key].flatMap { f in f.valueField.flatMap { f.cell.field(named: $0)?.type } } ?? .string
            members.append((key, value.json(as: type)))
        }
        try apply(SourceNode(form.nested(members)), to: &form, file: file, requireComplete: requireComplete)
    }

    static func apply(
        _ root: SourceNode, to form: inout Form, file: String?, requireComplete: Bool = true, checkGivenRules: Bool = false,
        filesIn directory: String? = nil
    ) throws(FormError) {
        var application = Application(file: file, requireComplete: requireComplete, checkGivenRules: checkGivenRules)
        application.filesDirectory = directory
        guard let members = root.members else {
            application.report("", root, "a values file must be an object keyed by field id, not \(root.typeName)")
            throw .invalid(application.diagnostics)
        }
        application.applyMembers(members, to: &form)
        application.fillOmittedGroups(of: &form)
        // The later passes look values up by field id: an object's members by theirs (`address.city`).
        let byField = form.flattened(members)
        application.recompute(byField, in: &form)
        if requireComplete { application.checkRequiredAndUnsubmitted(byField, in: form) }
        if !application.diagnostics.isEmpty { throw .invalid(application.diagnostics) }
    }

    /// One application of a values file to a form: the problems found so far, each with its pointer and line.
    struct Application {
        let file: String?
        /// `validate` (complete values: required fields, minimum items and rules are checked) or `render` (partial).
        let requireComplete: Bool
        /// A draft: the rules of each value given are checked, though nothing is required yet.
        let checkGivenRules: Bool
        var diagnostics: [Diagnostic] = []
        /// The repeated groups the values give items for.
        var givenGroups: Set<String> = []
        /// Where each field outside repeated groups is (id → section, field), the repeated groups' sections and
        /// the objects, made once: looking each key up by walking the form made a large values file quadratic.
        var index: [String: (Int, Int)] = [:]
        var groups: [String: Int] = [:]
        var objects: Set<String> = []
        /// Where the paths a file field's value names are read from: a values file's directory; nil for values that
        /// are not a file on disk (a server's, whose files came with the request and were checked there).
        var filesDirectory: String?

        mutating func makeIndex(_ form: Form) {
            index.reserveCapacity(form.fields.count)
            for s in form.sections.indices {
                if form.sections[s].repeatGroup != nil {
                    groups[form.sections[s].id] = groups[form.sections[s].id] ?? s
                    continue
                }
                if let object = form.sections[s].object {
                    // The object and every object it is inside (`billing` for `billing.address`).
                    var path = Substring(object)
                    objects.insert(object)
                    while let dot = path.lastIndex(of: ".") {
                        path = path[..<dot]
                        objects.insert(String(path))
                    }
                }
                for f in form.sections[s].fields.indices where index[form.sections[s].fields[f].id] == nil {
                    index[form.sections[s].fields[f].id] = (s, f)
                }
            }
        }

        func field(_ id: String, in form: Form) -> FormField? { index[id].map { form.sections[$0.0].fields[$0.1] } }

        init(file: String?, requireComplete: Bool, checkGivenRules: Bool = false) {
            self.checkGivenRules = checkGivenRules
            self.file = file
            self.requireComplete = requireComplete
        }

        mutating func report(_ pointer: String, _ node: SourceNode?, _ message: String, code: String = "invalid") {
            diagnostics.append(Diagnostic(kind: .invalid, file: file, pointer: pointer, line: node?.line, message: message, code: code))
        }

        /// Each member of the values object: a field's value, or a repeated group's items.
        mutating func applyMembers(_ members: [(key: String, value: SourceNode)], to form: inout Form) {
            makeIndex(form)
            for (key, node) in members {
                let pointer = "/" + Pointer.escape(key)
                if let s = groups[key] {
                    givenGroups.insert(key)
                    applyItems(key, pointer, node, s, to: &form)
                    continue
                }
                if objects.contains(key) {
                    applyObject(key, pointer, node, to: &form)
                    continue
                }
                if let dot = key.lastIndex(of: "."), index[key] != nil {
                    let object = key[..<dot]
                    let parts = key.split(separator: ".")
                    let nested = parts.map { "{\"\($0)\": " }.joined() + "…" + String(repeating: "}", count: parts.count)
                    report(
                        pointer, node, "'\(key)' is a field of the object '\(object)': write it inside it, \(nested)", code: "unknown-field"
                    )
                    continue
                }
                guard let (s, f) = index[key] else {
                    var message = "no field '\(key)' in form '\(form.id)'"
                    if let suggestion = EditDistance.suggestion(for: key, in: form.fields.filter { $0.item == nil }.map(\.id)) {
                        message += "; did you mean '\(suggestion)'?"
                    }
                    report(pointer, node, message, code: "unknown-field")
                    continue
                }
                applyOne(key, pointer, node, s, f, to: &form)
            }
        }

        /// Applies one value to field `f` of section `s`; `key` names it in messages.
        mutating func applyOne(_ key: String, _ pointer: String, _ node: SourceNode, _ s: Int, _ f: Int, to form: inout Form) {
            let field = form.sections[s].fields[f]
            guard let name = field.valueField, let schema = field.cell.field(named: name) else {
                report(pointer, node, "field '\(key)' (cell '\(field.cell.id)') holds no value")
                return
            }
            if case .null = node.kind {
                form.sections[s].fields[f].model[name] = nil
                return
            }
            // A choice written with an integer or boolean value is given by that value.
            let original = node
            var node = node
            if !field.labelledChoices.isEmpty {
                if let text = field.labelledChoices.first(where: { $0.value.json == node.json })?.key {
                    node = SourceNode(kind: .string(text), line: node.line)
                } else if case .array(let items) = node.kind {
                    node = SourceNode(
                        kind: .array(
                            items.map { item in
                                field.labelledChoices.first(where: { $0.value.json == item.json }).map {
                                    SourceNode(kind: .string($0.key), line: item.line)
                                } ?? item
                            }), line: node.line)
                }
            }
            if case .string(let s) = original.kind, let choice = field.labelledChoices[s], choice.json != .string(s) {
                report(
                    pointer, node,
                    "\(key) must be \(choice.json.serialized(pretty: false)) (not the text \(JSON.string(s).serialized(pretty: false))), as the form's choices write it"
                )
                return
            }
            switch ValueCoercion.value(node, as: schema) {
            case .failure(let problem): report(pointer, node, "\(key) \(problem.text)", code: "type")
            case .success(let value):
                var updated = field.model
                updated[name] = value
                if let problem = SchemaValidator.problem(with: value, for: schema, model: field.model) {
                    report(pointer, node, "\(key) \(problem)")
                } else if let problem = DateBounds.problem(model: updated, traits: field.textInput.traits, field: field.textInput.field) {
                    report(pointer, node, "\(key): \(problem.message)")
                } else {
                    // The document's rules: `validate` (complete) reports every one broken; `render` keeps the
                    // value and shows the broken rules under the field, as a server re-rendering a submission.
                    if requireComplete || checkGivenRules {
                        let label = field.cell.roles.title.flatMap { if case .string(let t)? = field.model[$0] { t } else { nil } } ?? key
                        let problems = field.rules.problems(value, label: label)
                        if !problems.isEmpty {
                            for problem in problems { report(pointer, node, problem) }
                            return
                        }
                    }
                    if let upload = field.rules.upload, let directory = filesDirectory, case .string(let path) = value, !path.isEmpty,
                        let problem = Self.fileProblem(path, in: directory, upload, key: key)
                    {
                        report(pointer, node, problem, code: "file")
                        return
                    }
                    if !field.valuesFromFile.contains(name) { form.sections[s].fields[f].documentModel[name] = field.model[name] }
                    form.sections[s].fields[f].model[name] = value
                    form.sections[s].fields[f].valuesFromFile.insert(name)
                }
            }
        }

        /// Why the file a file field's value names cannot be its answer: unreadable, too large, or of a type the
        /// field does not take (sniffed from its first bytes).
        static func fileProblem(_ path: String, in directory: String, _ upload: FileUpload, key: String) -> String? {
            let full = path.hasPrefix("/") ? path : directory + "/" + path
            let shown = TerminalText.safe(path)
            let fd = open(full, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
            guard fd >= 0 else {
                return loc(
                    "{0}: cannot read the file '{1}': {2} (a path is relative to the values file)", key, shown,
                    String(cString: strerror(errno)))
            }
            defer { close(fd) }
            var info = stat()
            guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
                return loc("{0}: '{1}' is not a regular file; give the path of the file to upload", key, shown)
            }
            var head = [UInt8](repeating: 0, count: 4096)
            let count = head.withUnsafeMutableBytes { read(fd, $0.baseAddress, 4096) }
            guard count >= 0 else { return loc("{0}: cannot read the file '{1}': {2}", key, shown, String(cString: strerror(errno))) }
            let size = Int(info.st_size)
            // The sniffer is told the file's size, so a text cut at 4 KiB is judged as the start of a longer text.
            let type = FileUpload.sniff(head: Array(head.prefix(count)), size: size)
            return upload.problem(size: size, type: type, label: key).map { loc("{0} ('{1}')", $0, shown) }
        }

        /// `"address": { "city": …, "street": … }`: the values of the fields of the sections whose object is `key`.
        mutating func applyObject(_ key: String, _ pointer: String, _ node: SourceNode, to form: inout Form) {
            if case .null = node.kind { return }
            guard let members = node.members else {
                let first =
                    form.sections.first { $0.object == key }?.fields.first.map { $0.id.dropFirst(key.utf8.count + 1) }
                    ?? objects.first { $0.hasPrefix(key + ".") }.map { $0.dropFirst(key.utf8.count + 1).prefix { $0 != "." } } ?? "field"
                report(pointer, node, "'\(key)' holds the values of an object: an object such as {\"\(first)\": …}, not \(node.typeName)")
                return
            }
            for (name, valueNode) in members {
                let memberPointer = "\(pointer)/\(Pointer.escape(name))"
                // An object inside this one (`billing.address` in `billing`).
                if objects.contains("\(key).\(name)") {
                    applyObject("\(key).\(name)", memberPointer, valueNode, to: &form)
                    continue
                }
                guard let (s, f) = index["\(key).\(name)"] else {
                    var names = form.sections.filter { $0.object == key }.flatMap {
                        $0.fields.map { String($0.id.dropFirst(key.utf8.count + 1)) }
                    }
                    names += objects.filter { $0.hasPrefix(key + ".") && !$0.dropFirst(key.utf8.count + 1).contains(".") }.map {
                        String($0.dropFirst(key.utf8.count + 1))
                    }
                    var message = "no field '\(name)' in the object '\(key)'"
                    if let suggestion = EditDistance.suggestion(for: name, in: names) { message += "; did you mean '\(suggestion)'?" }
                    report(memberPointer, valueNode, message, code: "unknown-field")
                    continue
                }
                applyOne("\(key).\(name)", memberPointer, valueNode, s, f, to: &form)
            }
        }

        /// `"tasks": [{ "title": …, "done": true }, …]`: the items of a repeated group.
        mutating func applyItems(_ key: String, _ pointer: String, _ node: SourceNode, _ s: Int, to form: inout Form) {
            let group = form.sections[s].repeatGroup!
            let template = form.sections[s].template
            if case .null = node.kind {
                form.sections[s].fields = []
                return
            }
            guard case .array(let items) = node.kind else {
                report(
                    pointer, node,
                    "'\(key)' holds the items of a repeated group: a list of objects such as [{\"\(template.first?.id ?? "field")\": …}], not \(node.typeName)"
                )
                return
            }
            guard items.count <= group.maxItems else {
                report(pointer, node, "'\(key)' has \(items.count) items; at most \(group.maxItems) are allowed")
                return
            }
            if requireComplete && items.count < group.minItems {
                report(
                    pointer, node, "'\(key)' has \(items.count) item\(items.count == 1 ? "" : "s"); at least \(group.minItems) are needed",
                    code: "required")
            }
            form.sections[s].fields = (0..<items.count).flatMap { form.sections[s].item($0) }
            let names = template.map(\.id)
            for (i, item) in items.enumerated() {
                guard let itemMembers = item.members else {
                    report(
                        "\(pointer)/\(i)", item,
                        "an item of '\(key)' must be an object keyed by its field ids (\(names.joined(separator: ", "))), not \(item.typeName)"
                    )
                    continue
                }
                for (name, valueNode) in itemMembers {
                    let itemPointer = "\(pointer)/\(i)/\(Pointer.escape(name))"
                    guard let t = names.firstIndex(of: name) else {
                        var message = "no field '\(name)' in the items of '\(key)'"
                        if let suggestion = EditDistance.suggestion(for: name, in: names) { message += "; did you mean '\(suggestion)'?" }
                        report(itemPointer, valueNode, message, code: "unknown-field")
                        continue
                    }
                    applyOne("\(key)/\(i)/\(name)", itemPointer, valueNode, s, i * template.count + t, to: &form)
                }
            }
        }

        /// Computed values are computed again from the values applied; one given that differs is reported (it
        /// would not be used), one that agrees is accepted.
        mutating func recompute(_ members: [(key: String, value: SourceNode)], in form: inout Form) {
            keepHiddenValues(members, in: &form)
            guard form.hasComputedValues else { return }
            var given: [(id: String, value: Value?, node: SourceNode)] = []
            for (key, node) in members where !node.isNull {
                guard let field = field(key, in: form), field.conditions.value != nil, let name = field.valueField else { continue }
                given.append((key, field.model[name], node))
            }
            form.recompute()
            for (id, value, node) in given {
                guard let field = field(id, in: form), let source = field.conditions.value, let name = field.valueField else { continue }
                let made = field.model[name]
                if value != nil && made != nil && Condition.compare(value, .equal, made) { continue }
                let shown = made.map { "makes \(Condition.text($0))" } ?? "has no value for these answers"
                report(
                    field.valuePointer, node,
                    "'\(id)' is computed ('\(source.text)' \(shown)); the value given is not used: leave it out", code: "computed")
            }
        }

        /// A hidden field submits the document's value: one given that differs is reported, and the document's
        /// kept (a hidden input of a page can be edited by whoever posts it). A computed hidden field is checked
        /// as a computed one.
        mutating func keepHiddenValues(_ members: [(key: String, value: SourceNode)], in form: inout Form) {
            for (key, node) in members where !node.isNull {
                guard let (s, f) = index[key], case let field = form.sections[s].fields[f],
                    field.conditions.hidden || field.conditions.readOnly, field.conditions.value == nil,
                    let name = field.valueField, field.valuesFromFile.contains(name)
                else { continue }
                let document = field.documentModel[name] ?? nil
                let given = field.model[name]
                form.sections[s].fields[f].model[name] = document
                form.sections[s].fields[f].valuesFromFile.remove(name)
                if let given, let document, Condition.compare(given, .equal, document) { continue }
                // No value and false are the same answer for a toggle (an unticked box posts nothing).
                if (given == nil || given == .bool(false)) && (document == nil || document == .bool(false)) { continue }
                let kept = document.map { "its value is the document's, \(Condition.text($0))" } ?? "it has no value"
                let (what, code) = field.conditions.hidden ? ("hidden", "hidden") : ("read-only", "read-only")
                report(
                    field.valuePointer, node, "'\(key)' is \(what) and \(kept); the value given is not used: leave it out", code: code)
            }
        }

        /// A group the values leave out has its minimum number of (empty) items when values must be complete.
        mutating func fillOmittedGroups(of form: inout Form) {
            for s in form.sections.indices
            where requireComplete && form.sections[s].repeatGroup != nil && !givenGroups.contains(form.sections[s].id) {
                let group = form.sections[s].repeatGroup!
                form.sections[s].fields = (0..<group.minItems).flatMap { form.sections[s].item($0) }
                if group.minItems > 0 {
                    report(
                        "/" + Pointer.escape(form.sections[s].id), nil,
                        "'\(form.sections[s].id)' needs at least \(group.minItems) item\(group.minItems == 1 ? "" : "s")", code: "required")
                }
            }
        }

        /// Required fields without a value, values given for fields that are hidden or disabled, and cross-field
        /// rules, once every value is applied (complete values only).
        mutating func checkRequiredAndUnsubmitted(_ members: [(key: String, value: SourceNode)], in form: Form) {
            // A field the document marks required (or whose requiredIf holds) must have a value once values are
            // given (a field whose given value was refused above is not reported twice); a hidden or disabled field
            // is never required, and a value given for one is reported: it would never be submitted.
            let refused = Set(diagnostics.map(\.pointer))
            let states = form.states()
            let given = Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
            for section in form.sections {
                for field in section.fields {
                    let pointer = field.valuePointer
                    let state = states[field.id] ?? FieldState(required: field.required)
                    if !state.submitted, let node = given[field.id], !node.isNull, !refused.contains(pointer) {
                        let why =
                            !state.visible
                            ? "is hidden (\(ValuesFile.because(field.conditions.visibleIf ?? section.conditions.visibleIf, "visibleIf")))"
                            : "is disabled (\(ValuesFile.because(field.conditions.enabledIf ?? section.conditions.enabledIf, "enabledIf")))"
                        report(
                            pointer, node, "a value is given for '\(field.id)', which \(why); it would never be submitted: remove it",
                            code: "not-submitted")
                        continue
                    }
                    guard state.required, !refused.contains(pointer), let name = field.valueField else { continue }
                    let missing: Bool =
                        switch field.model[name] {
                        case nil: true
                        case .string(let s)?: s.isEmpty
                        case .stringList(let items)?: items.isEmpty && field.conditions.requiredIf != nil
                        default: false
                        }
                    if missing {
                        let message =
                            field.rules.required
                            ?? (field.required
                                ? loc("required field '{0}' has no value", field.id)
                                : loc("field '{0}' is required when {1}, and has no value", field.id, field.conditions.requiredIf!.text))
                        report(pointer, nil, message, code: "required")
                    }
                }
            }
            let failed = Set(diagnostics.map(\.pointer))
            for (id, message) in form.crossFieldProblems(states) {
                // `/acct/confirm` for a field of an object: the field's own pointer, not its id escaped.
                let pointer = field(id, in: form)?.valuePointer ?? "/" + Pointer.escape(id)
                guard !failed.contains(pointer) else { continue }
                report(pointer, given[id], message)
            }
        }
    }
}

extension SourceNode {
    var isNull: Bool { if case .null = kind { true } else { false } }
}

extension ValuesFile {
    static func because(_ condition: ConditionSource?, _ key: String) -> String {
        condition.map { "its \(key) \"\($0.text)\" does not hold" } ?? "by its section"
    }
}

extension Form {
    /// Section and field index of the field with `id`.
    func locate(_ id: String) -> (Int, Int)? {
        for (s, section) in sections.enumerated() {
            if let f = section.fields.firstIndex(where: { $0.id == id }) { return (s, f) }
        }
        return nil
    }

    /// The field with `id`, if any.
    public func field(_ id: String) -> FormField? {
        locate(id).map { sections[$0.0].fields[$0.1] }
    }

    /// The form's values keyed by field id: each field's value-role model field.
    public var values: [String: Value] {
        var out: [String: Value] = [:]
        for field in fields {
            if let name = field.valueField, let value = field.model[name] { out[field.id] = value }
        }
        return out
    }

    /// The values as a values file writes them (the `fill` output format), in form order;
    /// hidden and disabled fields are not submitted.
    package var valuesJSON: JSON {
        let states = self.states()
        func json(_ field: FormField) -> JSON? {
            guard states[field.id]?.submitted ?? true, let name = field.valueField, let schema = field.cell.field(named: name),
                let value = field.model[name]
            else {
                return nil
            }
            // Labelled choices go back to the type the document gave them.
            if !field.labelledChoices.isEmpty {
                switch value {
                case .string(let s): if let choice = field.labelledChoices[s] { return choice.json }
                case .stringList(let items): return .array(items.map { field.labelledChoices[$0]?.json ?? .string($0) })
                default: break
                }
            }
            return value.json(as: schema.type)
        }
        var members: [(String, JSON)] = []
        for section in sections {
            if section.repeatGroup != nil {
                // A repeated group's values nest: {"tasks": [{"title": …, "done": true}, …]}.
                let count = section.itemCount
                let items: [JSON] = (0..<count).map { i in
                    let fields = section.fields[(i * section.template.count)..<((i + 1) * section.template.count)]
                    return .object(fields.compactMap { f in json(f).map { (f.item?.name ?? f.id, $0) } })
                }
                members.append((section.id, .array(items)))
                continue
            }
            for field in section.fields { if let value = json(field) { members.append((field.id, value)) } }
        }
        return nested(members)
    }

    /// Values keyed by field id put into a values file's shape: a field of an object (`address.city`) as a member
    /// of its object (`{"address": {"city": …}}`), the object where its first field is; every other member as given.
    package func nested(_ members: [(String, JSON)]) -> JSON {
        let objectKeys = Set(sections.compactMap(\.object))
        guard !objectKeys.isEmpty else { return .object(members) }
        let root = JSONLevel()
        for (key, value) in members {
            // The object the key belongs to: the longest object key before one of its dots.
            var path: Substring? = nil
            var rest = Substring(key)
            while let dot = rest.lastIndex(of: ".") {
                rest = rest[..<dot]
                if objectKeys.contains(String(rest)) {
                    path = rest
                    break
                }
            }
            guard let path else {
                root.members.append((key, value))
                continue
            }
            var level = root
            for part in path.split(separator: ".") { level = level.object(String(part)) }
            level.members.append((String(key[key.index(after: path.endIndex)...]), value))
        }
        return root.json
    }

    /// A values file's members keyed by field id: an object's members as `address.city`, the rest as given.
    func flattened(_ members: [(key: String, value: SourceNode)]) -> [(key: String, value: SourceNode)] {
        var objectKeys: Set<String> = []
        for case let object? in sections.map(\.object) {
            var path = Substring(object)
            objectKeys.insert(object)
            while let dot = path.lastIndex(of: ".") {
                path = path[..<dot]
                objectKeys.insert(String(path))
            }
        }
        guard !objectKeys.isEmpty else { return members }
        var out: [(key: String, value: SourceNode)] = []
        func add(_ key: String, _ node: SourceNode) {
            if objectKeys.contains(key), let inner = node.members {
                for (name, value) in inner { add("\(key).\(name)", value) }
            } else {
                out.append((key, node))
            }
        }
        for (key, node) in members { add(key, node) }
        return out
    }
}

extension ValuesFile {
    /// Applies `values` (a values-file object held in memory) and returns the problems with those it could not
    /// apply, as `collect(path:into:)` does for a file.
    package static func collect(
        _ values: JSON, into form: inout Form, file: String?, requireComplete: Bool = true, checkGivenRules: Bool = false
    ) -> [Diagnostic] {
        do {
            try apply(SourceNode(values), to: &form, file: file, requireComplete: requireComplete, checkGivenRules: checkGivenRules)
        } catch {
            if case .invalid(let diagnostics) = error { return diagnostics }
            return [Diagnostic(kind: .invalid, file: file, pointer: "", line: nil, message: error.description)]
        }
        return []
    }
}

/// One level of a values object being nested: its members in order, and where each object among them is (filled
/// when the JSON is made). Each member is placed once, however large the object (no copy per member).
final class JSONLevel {
    var members: [(String, JSON)] = []
    var objects: [String: (index: Int, level: JSONLevel)] = [:]

    func object(_ key: String) -> JSONLevel {
        if let found = objects[key] { return found.level }
        let level = JSONLevel()
        objects[key] = (members.count, level)
        members.append((key, .null))  // its place, filled below
        return level
    }

    var json: JSON {
        var out = members
        for (_, object) in objects { out[object.index].1 = object.level.json }
        return .object(out)
    }
}

extension JSON {
    /// `members` keyed `billing.address.city` nested as `{"billing": {"address": {"city": …}}}`: every part but the
    /// last is an object, placed where its first member is.
    static func nestedByDots(_ members: [(String, JSON)]) -> JSON {
        let root = JSONLevel()
        for (key, value) in members {
            guard let dot = key.lastIndex(of: ".") else {
                root.members.append((key, value))
                continue
            }
            var level = root
            for part in key[..<dot].split(separator: ".") { level = level.object(String(part)) }
            level.members.append((String(key[key.index(after: dot)...]), value))
        }
        return root.json
    }
}
