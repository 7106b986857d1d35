/// The host's own words a person filling a form reads — validation messages, the terminal form's keys, the HTML's
/// buttons and headings, the server's pages — in one language: a message catalogue.
///
/// A message is written once, in English, where it is used: `loc("{0} needs at least {1} characters.", label, n)`.
/// The English text is the key; another language's catalogue maps each key to its translation, with the same
/// numbered placeholders (in any order). English needs no table. A test reads every `loc`/`locPlural` call in the
/// sources and checks that each catalogue has every key, with the same placeholders, and no key that is no longer
/// used (Tests/FormworkTests/MessageCatalogTests.swift): a catalogue is complete or the build's tests fail.
///
/// What stays English: diagnostics for the people who write documents, packs and clients (`formwork validate` on a
/// document, `formwork: error: …`, the JSON API's problem details), which quote ids, pointers and syntax.
public struct Messages: Sendable, Equatable {
    /// The catalogue's language: a BCP 47 primary tag (`en`, `fr`).
    public let language: String
    let table: [String: String]

    public static let english = Messages(language: "en", table: [:])
    public static let french = Messages(language: "fr", table: frenchTable)
    /// Every catalogue the host has, English first.
    public static let all: [Messages] = [.english, .french]

    /// The catalogue of `tag` (`fr-CA` finds `fr`); nil when the host has none for its language.
    public static func catalogue(for tag: String) -> Messages? {
        let primary = LanguageTag.primary(tag)
        return all.first { $0.language == primary }
    }

    /// The catalogue `loc` uses: the one bound on this task or thread (`bound`: a server binds each request's), else
    /// the process's (`processDefault`: a command sets the language it negotiated), else English.
    public static var current: Messages { bound ?? processDefault }

    /// The catalogue bound for a task (a request) and what it calls; `Parallel`'s workers and a server's cell lanes
    /// bind their caller's.
    @TaskLocal public static var bound: Messages?

    /// The process's catalogue: set once by a command, before it starts any thread, and only read after (as
    /// `Parallel.heapReserve` is). A library caller binds `bound` instead.
    nonisolated(unsafe) public static var processDefault: Messages = .english

    /// `template` in this catalogue's language, each `{n}` replaced by `arguments[n]`.
    public func text(_ template: String, _ arguments: [String]) -> String {
        Self.fill(table[template] ?? template, arguments)
    }

    /// The form of a counted message: `one` for the counts this language says in the singular, else `other`.
    /// English says one thing in the singular; French says zero and one.
    public func plural(_ count: Int, one: String, other: String, _ arguments: [String]) -> String {
        let singular = language == "fr" ? (count == 0 || count == 1) : count == 1
        return text(singular ? one : other, arguments)
    }

    /// Replaces `{0}`…`{9}` in one pass (a placeholder is one digit: no message has ten values).
    static func fill(_ template: String, _ arguments: [String]) -> String {
        guard !arguments.isEmpty, template.utf8.contains(0x7B) else { return template }
        var out = ""
        var scalars = template.unicodeScalars[...]
        while let brace = scalars.firstIndex(of: "{") {
            out.unicodeScalars.append(contentsOf: scalars[..<brace])
            let rest = scalars[brace...].dropFirst()
            if rest.count >= 2, let digit = rest.first, ("0"..."9").contains(digit), rest.dropFirst().first == "}" {
                let index = Int(digit.value - 0x30)
                out += index < arguments.count ? arguments[index] : ""
                scalars = rest.dropFirst(2)
            } else {
                out.unicodeScalars.append("{")
                scalars = rest
            }
        }
        out.unicodeScalars.append(contentsOf: scalars)
        return out
    }
}

/// `template` in the current catalogue's language (`Messages.current`), with `{0}`, `{1}`… filled in.
package func loc(_ template: String, _ arguments: any CustomStringConvertible...) -> String {
    Messages.current.text(template, arguments.map(\.description))
}

/// A counted message in the current catalogue's language: `one` or `other` by the language's plural rule.
package func locPlural(_ count: Int, one: String, other: String, _ arguments: any CustomStringConvertible...) -> String {
    Messages.current.plural(count, one: one, other: other, arguments.map(\.description))
}

/// BCP 47 language tags as people and programs write them (`fr`, `fr-CA`, `fr_CA.UTF-8`, `*`).
public enum LanguageTag {
    /// `fr_CA.UTF-8@euro` → `fr-CA`; nil for `C`, `POSIX`, an empty or malformed tag. At most 35 characters (RFC 5646's
    /// longest useful tag) of subtags of 1 to 8 letters or digits; the primary subtag lower-cased.
    public static func normalized(_ raw: some StringProtocol) -> String? {
        var text = Substring(raw)
        if let cut = text.firstIndex(where: { $0 == "." || $0 == "@" }) { text = text[..<cut] }
        guard !text.isEmpty, text.utf8.count <= 35, text != "C", text != "POSIX" else { return nil }
        let parts = text.split(separator: "-", omittingEmptySubsequences: false).flatMap {
            $0.split(separator: "_", omittingEmptySubsequences: false)
        }
        // Subtags of 1 to 8 ASCII letters or digits (RFC 5646); the first of letters only.
        func isSubtag(_ part: Substring, lettersOnly: Bool) -> Bool {
            (1...8).contains(part.utf8.count)
                && part.utf8.allSatisfy { (0x61...0x7A).contains($0 | 0x20) || (!lettersOnly && (0x30...0x39).contains($0)) }
        }
        guard let first = parts.first, isSubtag(first, lettersOnly: true),
            parts.dropFirst().allSatisfy({ isSubtag($0, lettersOnly: false) })
        else { return nil }
        return ([first.lowercased()] + parts.dropFirst().map(String.init)).joined(separator: "-")
    }

    /// The primary subtag, lower-cased: `fr-CA` → `fr`.
    public static func primary(_ tag: String) -> String {
        String(tag.prefix { $0 != "-" && $0 != "_" }).lowercased()
    }

    /// Whether text in `tag`'s language is written right to left (HTML's `dir="rtl"`): Arabic, Hebrew, Persian, Urdu,
    /// Pashto, Sindhi, Yiddish, Divehi, Uyghur, Central Kurdish; or a tag with a right-to-left script subtag.
    public static func isRightToLeft(_ tag: String) -> Bool {
        let parts = tag.split(separator: "-").map { $0.lowercased() }
        if parts.dropFirst().contains(where: { ["arab", "hebr", "thaa", "syrc", "nkoo", "adlm", "rohg"].contains($0) }) { return true }
        if parts.dropFirst().contains(where: { ["latn", "cyrl"].contains($0) }) { return false }
        return ["ar", "he", "iw", "fa", "ur", "ps", "sd", "yi", "dv", "ug", "ckb"].contains(parts.first ?? "")
    }

    /// The languages the environment asks for, best first, as gettext reads it: `LANGUAGE` (a colon-separated list)
    /// unless the locale is `C`; then the first of `LC_ALL`, `LC_MESSAGES`, `LANG` that is set.
    public static func fromEnvironment(_ environment: [String: String]) -> [String] {
        let locale = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
        guard let locale, let tag = normalized(locale) else { return [] }
        var out: [String] = []
        for entry in (environment["LANGUAGE"] ?? "").split(separator: ":").prefix(16) {
            if let tag = normalized(entry), !out.contains(tag) { out.append(tag) }
        }
        if !out.contains(tag) { out.append(tag) }
        return out
    }

    /// An `Accept-Language` header's languages, best first (RFC 9110: `fr-CH, fr;q=0.9, en;q=0.8, *;q=0.5`); those with
    /// `q=0` and malformed entries are left out. At most 32 entries are read, in one pass over the header.
    public static func fromAcceptLanguage(_ header: String) -> [String] {
        var weighted: [(tag: String, q: Double, order: Int)] = []
        for (order, entry) in header.split(separator: ",", maxSplits: 32).prefix(32).enumerated() {
            let parts = entry.split(separator: ";")
            guard let first = parts.first else { continue }
            let name = first.trimmingBlanks()
            var q = 1.0
            for parameter in parts.dropFirst() {
                let p = parameter.trimmingBlanks()
                if p.hasPrefix("q=") || p.hasPrefix("Q=") { q = Double(p.dropFirst(2)).map { min(max($0, 0), 1) } ?? 0 }
            }
            guard q > 0 else { continue }
            if name == "*" {
                weighted.append(("*", q, order))
            } else if let tag = normalized(name) {
                weighted.append((tag, q, order))
            }
        }
        return weighted.sorted { $0.q != $1.q ? $0.q > $1.q : $0.order < $1.order }.map(\.tag)
    }

    /// The best of `available` for `preferences` (best first): an exact match, else the same primary language
    /// (`fr-CA` takes `fr`, `fr` takes `fr-CA`); `*` takes the first available. Nil when none matches.
    public static func negotiate(_ preferences: [String], available: [String]) -> String? {
        for wanted in preferences {
            if wanted == "*" { return available.first }
            if let exact = available.first(where: { $0.lowercased() == wanted.lowercased() }) { return exact }
            let primary = primary(wanted)
            if let near = available.first(where: { Self.primary($0) == primary }) { return near }
        }
        return nil
    }
}
