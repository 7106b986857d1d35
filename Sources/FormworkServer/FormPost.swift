import FormworkCore

/// A form posted by the page the HTML renderer wrote, turned into a values-file object with the document's types:
/// the names are the renderer's (`email`, `tasks/2/title`, `address.city`), a checkbox that is not sent is `false`, a name sent
/// several times is a list, numbers and dates are read from their text, and `""` is no value.
///
/// What the page's script does with JavaScript on is done here for a page posted with it off: a field the
/// submitted values hide or disable is not submitted (its value is dropped, as the browser drops it), and a
/// repeated group's spare item left empty is not an item.
package struct FormPost {
    package let form: Form
    /// The names the page itself adds, which are not values (the token, the button pressed).
    package static let reservedNames: Set<String> = ["action", FormService.tokenName, FormService.intentName, FormService.draftName]

    package init(form: Form) { self.form = form }

    /// The values of `pairs`. A posted page sends no name for an unticked checkbox, so one not sent is off; a
    /// page prefilled from a link's query (`prefill`) keeps the document's value for every name the link leaves out.
    package func values(_ pairs: [(name: String, value: String)], prefill: Bool = false) -> JSON {
        var given: [String: [String]] = [:]
        var order: [String] = []
        for (name, value) in pairs where !Self.reservedNames.contains(name) {
            if given[name] == nil { order.append(name) }
            given[name, default: []].append(value)
        }
        var members: [(String, JSON)] = []
        var used: Set<String> = []
        var bools: [String] = []
        for section in form.sections {
            if section.repeatGroup != nil {
                members.append((section.id, items(of: section, given, &used)))
                continue
            }
            for field in section.fields {
                used.insert(field.id)
                if isBool(field) && given[field.id] == nil && !prefill { bools.append(field.id) }
                if let value = value(of: field, given[field.id]) { members.append((field.id, value)) }
            }
        }
        // A name the page never writes: kept, so that the verdict names it ("no field 'x' in form …").
        for name in order where !used.contains(name) {
            let values = given[name] ?? []
            members.append((name, values.count == 1 ? .string(values[0]) : .array(values.map(JSON.string))))
        }
        // A checkbox that is not sent is off, unless the values hide or disable its field (then it is not submitted).
        // The probe sees an unsent checkbox as off (as it will be stored), not as the document's value: a default-on
        // toggle that was unticked must not hide what it shows.
        var probe = form
        _ = ValuesFile.collect(form.nested(members + bools.map { ($0, .bool(false)) }), into: &probe, file: nil, requireComplete: false)
        let states = probe.states()
        let fields = Dictionary(form.fields.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        members.removeAll { member in
            guard let field = fields[member.0], field.item == nil else { return false }
            return !(states[field.id]?.submitted ?? true)
        }
        for id in bools where states[id]?.submitted ?? true { members.append((id, .bool(false))) }
        // A field of an object is posted as `address.city` and stored as the values file nests it.
        return form.nested(members)
    }

    func isBool(_ field: FormField) -> Bool {
        field.valueField.flatMap { field.cell.field(named: $0)?.type } == .bool
    }

    /// One field's value from the texts sent under its name (nil: no value).
    func value(of field: FormField, _ texts: [String]?) -> JSON? {
        guard let name = field.valueField, let schema = field.cell.field(named: name) else {
            return texts.map { $0.count == 1 ? .string($0[0]) : .array($0.map(JSON.string)) }
        }
        let texts = texts ?? []
        if schema.type == .bool {
            guard let text = texts.last else { return nil }
            return text == "true" || text == "on" ? .bool(true) : text == "false" || text == "" ? .bool(false) : .string(text)
        }
        if schema.type.isList {
            let items = texts.filter { !$0.isEmpty }
            if items.isEmpty { return nil }
            return .array(items.map { choice($0, of: field) })
        }
        // A single value sent twice is given as the list it is, and refused by the verdict.
        if texts.count > 1 { return .array(texts.map(JSON.string)) }
        guard var text = texts.first, !text.isEmpty else { return nil }
        switch schema.type {
        case .integer:
            if let n = Int64(text) { return .integer(n) }
            return .string(text)
        case .number:
            if let n = Double(text), n.isFinite,
                !text.contains(where: \.isLetter) || text.contains(where: { $0 == "e" || $0 == "E" }) && !text.hasPrefix("0x")
            {
                return .number(n)
            }
            return .string(text)
        case .date: return .string(Self.isoDate(text))
        case .text:
            // Browsers send a textarea's line breaks as CRLF.
            text = text.replacingCRLF
            return .string(text)
        default: return choice(text, of: field)
        }
    }

    /// A choice written with a typed value (an integer, a boolean) is given as that value.
    func choice(_ text: String, of field: FormField) -> JSON {
        if let typed = field.conditionValue(.string(text)) as Value?, typed != .string(text) {
            switch typed {
            case .integer(let n): return .integer(n)
            case .bool(let b): return .bool(b)
            default: break
            }
        }
        return .string(text)
    }

    /// The text of a date, time or date-and-time input as the ISO 8601 a values file writes (local inputs are UTC,
    /// as the page writes them).
    static func isoDate(_ text: String) -> String {
        let u = Array(text.utf8)
        // "09:30" or "09:30:15": a time of 1970-01-01.
        if (u.count == 5 || u.count == 8) && u[2] == UInt8(ascii: ":") { return "1970-01-01T" + text + "Z" }
        // "2026-12-01T09:30": UTC.
        if u.count == 16 || u.count == 19, u[10] == UInt8(ascii: "T") { return text + "Z" }
        return text
    }

    /// A repeated group's items, in index order, from `group/index/name`; an item whose every field is empty is the
    /// spare item the page offers, not an item.
    func items(of section: FormSection, _ given: [String: [String]], _ used: inout Set<String>) -> JSON {
        var indices: Set<Int> = []
        let prefix = section.id + "/"
        for name in given.keys where name.hasPrefix(prefix) {
            let rest = name.dropFirst(prefix.count)
            guard let slash = rest.firstIndex(of: "/"), let index = Int(rest[..<slash]), index >= 0, index < 10_000 else { continue }
            let member = String(rest[rest.index(after: slash)...])
            guard section.template.contains(where: { ($0.item?.name ?? $0.id) == member }) else { continue }
            indices.insert(index)
            used.insert(name)
        }
        var items: [JSON] = []
        for index in indices.sorted() {
            var members: [(String, JSON)] = []
            var answered = false
            for field in section.template {
                let member = field.item?.name ?? field.id
                let texts = given[prefix + "\(index)/" + member]
                if texts?.contains(where: { !$0.isEmpty }) == true { answered = true }
                if let value = value(of: field, texts) {
                    members.append((member, value))
                } else if isBool(field) {
                    members.append((member, .bool(false)))
                }
            }
            if answered { items.append(.object(members)) }
        }
        return .array(items)
    }
}

extension String {
    var replacingCRLF: String {
        guard contains("\r\n") else { return self }
        var out = ""
        out.reserveCapacity(utf8.count)
        for c in self { if c == "\r\n" { out.append("\n") } else { out.append(c) } }
        return out
    }
}
