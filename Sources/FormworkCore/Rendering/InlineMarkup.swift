/// The small, safe inline markup of descriptions, footers and hints:
/// `*emphasis*`, `` `code` `` and `[text](https://…)` links (http, https and mailto
/// only; any other link stays text). No HTML passes through: every span is escaped
/// by the renderer that writes it.
package enum InlineMarkup {
    package enum Span: Equatable {
        case text(String)
        case emphasis(String)
        case code(String)
        case link(text: String, url: String)
    }

    /// Whether `s` has a character that may start markup (`*`, `` ` `` or `[`): most text has none.
    static func mayHaveMarkup(_ s: String) -> Bool {
        UTF8Bytes.with(s) { UTF8Bytes.contains($0, 0x2A, 0x60, 0x5B) }
    }

    package static func parse(_ s: String) -> [Span] {
        guard mayHaveMarkup(s) else { return [.text(s)] }
        var spans: [Span] = []
        var text = ""
        var i = s.startIndex
        func flush() { if !text.isEmpty { spans.append(.text(text)); text = "" } }
        while i < s.endIndex {
            let c = s[i]
            if c == "*" || c == "`", let close = s[s.index(after: i)...].firstIndex(of: c), close > s.index(after: i) {
                let inner = String(s[s.index(after: i)..<close])
                if c == "*" && (inner.first == " " || inner.last == " ") { text.append(c); i = s.index(after: i); continue }
                flush()
                spans.append(c == "*" ? .emphasis(inner) : .code(inner))
                i = s.index(after: close)
                continue
            }
            if c == "[", let closeText = s[i...].firstIndex(of: "]"), s.index(after: closeText) < s.endIndex,
                s[s.index(after: closeText)] == "(", let closeURL = s[closeText...].firstIndex(of: ")")
            {
                let label = String(s[s.index(after: i)..<closeText])
                let url = String(s[s.index(closeText, offsetBy: 2)..<closeURL])
                let lower = url.lowercased()
                if !label.isEmpty, !url.contains(" "),
                    lower.hasPrefix("https://") || lower.hasPrefix("http://") || lower.hasPrefix("mailto:")
                {
                    flush()
                    spans.append(.link(text: label, url: url))
                    i = s.index(after: closeURL)
                    continue
                }
            }
            text.append(c)
            i = s.index(after: i)
        }
        flush()
        return spans
    }

    /// Plain text for terminals: markers dropped, a link's address after its text.
    package static func plain(_ s: String) -> String {
        guard mayHaveMarkup(s) else { return s }
        return parse(s).map { span in
            switch span {
            case .text(let t), .emphasis(let t), .code(let t): t
            case .link(let text, let url): url.hasSuffix(text) || url == "mailto:" + text ? text : "\(text) (\(url))"
            }
        }.joined()
    }

    /// HTML with every span escaped.
    package static func html(_ s: String) -> String {
        guard mayHaveMarkup(s) else { return HTML.escape(s) }
        return parse(s).map { span in
            switch span {
            case .text(let t): HTML.escape(t)
            case .emphasis(let t): "<em>\(HTML.escape(t))</em>"
            case .code(let t): "<code>\(HTML.escape(t))</code>"
            case .link(let text, let url): "<a href=\"\(HTML.escape(url))\" rel=\"noopener noreferrer\">\(HTML.escape(text))</a>"
            }
        }.joined()
    }
}
