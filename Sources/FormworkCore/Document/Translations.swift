/// A document's translations of its own text (`language:` and `translations:`, docs/forms.md "Translations").
///
/// Keyed by the text as the document writes it, as gettext is: `translations: { fr: { "Full name": "Nom complet" } }`.
/// Every text a person reads is looked up — the title and description, pages' titles, sections' headers and footers,
/// an item's label, each field's text model values (title, placeholder, footer, …), choices' labels and the rules'
/// messages — and a text with no entry stays as written. What a form stores (values, choice values, ids) never changes.
extension Form {
    /// The languages the form can be shown in: its own first, then those it has translations for, in order.
    public var languages: [String] { [language] + translations.keys.filter { $0 != language }.sorted() }

    /// The best of the form's languages for `preferences` (best first; `LanguageTag.negotiate`), else its own.
    public func language(for preferences: [String]) -> String {
        LanguageTag.negotiate(preferences, available: languages) ?? language
    }

    /// The form in `tag` (one of `languages`; another gives the form as it is): every text with a translation
    /// replaced, and `language` set to `tag`.
    public func translated(to tag: String) -> Form {
        guard tag != language, let table = translations[tag] else { return self }
        var form = self
        form.eachText { text, _ in
            if let translated = table[text] { text = translated }
        }
        form.language = tag
        return form
    }

    /// The texts of the form with no translation in `tag`, each with the JSON-pointer-like place it is read at (for
    /// `validate --strict`), in document order; each text once.
    public func untranslated(in tag: String) -> [(place: String, text: String)] {
        let table = translations[tag] ?? [:]
        var out: [(place: String, text: String)] = []
        var seen: Set<String> = []
        var copy = self
        copy.eachText { text, place in
            if table[text] == nil, !text.isEmpty, seen.insert(text).inserted { out.append((place.description, text)) }
        }
        return out
    }

    /// The entries of `tag`'s table that no text of the form uses (a text changed after it was translated).
    public func unusedTranslations(in tag: String) -> [String] {
        guard let table = translations[tag] else { return [] }
        var used: Set<String> = []
        var copy = self
        copy.eachText { text, _ in used.insert(text) }
        return table.keys.filter { !used.contains($0) }.sorted()
    }

    /// Where a text is read: what holds it (`field 'email'`) and which of its texts it is (`placeholder`); made into
    /// words only when reported.
    struct TextPlace: CustomStringConvertible {
        var owner: String
        var id: String
        var what: String
        var description: String { owner.isEmpty ? what : "\(owner) '\(id)' \(what)" }
    }

    /// Calls `body` with every text a person reads, in document order, to read or replace; the place says where it is.
    mutating func eachText(_ body: (inout String, TextPlace) -> Void) {
        func optional(_ text: inout String?, _ place: TextPlace) {
            guard var value = text else { return }
            body(&value, place)
            text = value
        }
        optional(&title, TextPlace(owner: "", id: "", what: "/title"))
        optional(&description, TextPlace(owner: "", id: "", what: "/description"))
        for p in pages.indices {
            let id = pages[p].id
            optional(&pages[p].title, TextPlace(owner: "page", id: id, what: "title"))
        }
        for s in sections.indices {
            let id = sections[s].id
            optional(&sections[s].header, TextPlace(owner: "section", id: id, what: "header"))
            optional(&sections[s].footer, TextPlace(owner: "section", id: id, what: "footer"))
            if var group = sections[s].repeatGroup {
                body(&group.itemLabel, TextPlace(owner: "section", id: id, what: "item label"))
                sections[s].repeatGroup = group
            }
            for f in sections[s].template.indices { Self.eachText(of: &sections[s].template[f], body) }
            for f in sections[s].fields.indices { Self.eachText(of: &sections[s].fields[f], body) }
        }
    }

    /// A field's texts: its text model values (not its value, nor a list of allowed values), its choices' labels, its
    /// rules' messages.
    private static func eachText(of field: inout FormField, _ body: (inout String, TextPlace) -> Void) {
        let id = field.id
        let cell = field.cell
        let optionsFields = Set(cell.fields.compactMap(\.optionsField))
        // Text model values only (a `choice` field is a setting such as a style, not words).
        for (index, schema) in cell.fields.enumerated()
        where (schema.type == .string || schema.type == .text) && schema.name != field.valueField && !optionsFields.contains(schema.name) {
            guard case .string(var text)? = field.model[index] else { continue }
            let before = text
            body(&text, TextPlace(owner: "field", id: id, what: "\(schema.name)"))
            if text != before { field.model[index] = .string(text) }
        }
        // Choices: a labelled choice's label; a plain option is its own label, so a translated one gets a label.
        for name in optionsFields {
            guard case .stringList(let options)? = field.model[name] else { continue }
            for option in options {
                var label = field.labelledChoices[option]?.label ?? option
                let before = label
                body(&label, TextPlace(owner: "field", id: id, what: "choice '\(option)'"))
                if label != before {
                    field.labelledChoices[option] = LabelledChoice(
                        json: field.labelledChoices[option]?.json ?? .string(option), label: label)
                }
            }
        }
        if !field.rules.isEmpty {
            var rules = field.rules
            var changed = false
            func message<T>(_ rule: inout FieldRules.Rule<T>?, _ key: String) {
                guard let r = rule, var text = r.message else { return }
                let before = text
                body(&text, TextPlace(owner: "field", id: id, what: "rules.\(key) message"))
                if text != before {
                    rule = FieldRules.Rule(r.value, message: text)
                    changed = true
                }
            }
            if var text = rules.required {
                let before = text
                body(&text, TextPlace(owner: "field", id: id, what: "required message"))
                if text != before {
                    rules.required = text
                    changed = true
                }
            }
            message(&rules.minLength, "minLength")
            message(&rules.maxLength, "maxLength")
            message(&rules.pattern, "pattern")
            message(&rules.format, "format")
            message(&rules.minimum, "minimum")
            message(&rules.maximum, "maximum")
            message(&rules.step, "step")
            message(&rules.minItems, "minItems")
            message(&rules.maxItems, "maxItems")
            if changed { field.rules = rules }
        }
        if !field.crossRules.isEmpty {
            var rules = field.crossRules
            for r in rules.indices {
                switch rules[r] {
                case .equals(let other, var text?):
                    body(&text, TextPlace(owner: "field", id: id, what: "equals message"))
                    rules[r] = .equals(field: other, message: text)
                case .expression(let source, var text?):
                    body(&text, TextPlace(owner: "field", id: id, what: "expression message"))
                    rules[r] = .expression(source, message: text)
                default: break
                }
            }
            if rules != field.crossRules { field.crossRules = rules }
        }
    }
}
