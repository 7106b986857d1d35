/// The small, safe rich text of a form's description, a section's footer and a field's hint (docs/forms.md,
/// "Rich text"): paragraphs (a blank line between them; a single line feed is a line break), lists (lines
/// starting `- `, `* ` or `+ `, or `1. ` / `1) `), `**strong**`, `*emphasis*`, `` `code` `` and
/// `[text](https://…)` links (http, https and mailto only; any other link stays text). `\*`, `` \` `` and `\[`
/// write the character itself. Spans do not nest. No HTML passes through: every span is escaped by the renderer
/// that writes it.
///
/// Parsing is linear in the text's length whatever it holds (a description is document input): each search for a
/// closing mark resumes where the last search for that mark ended, and a mark that was not found is not looked
/// for again.
package enum RichText {
    package enum Span: Equatable, Sendable {
        case text(String)
        case strong(String)
        case emphasis(String)
        case code(String)
        case link(text: String, url: String)
    }

    /// A line of a paragraph or a list item: its spans.
    package typealias Line = [Span]

    package enum Block: Equatable, Sendable {
        /// Lines shown one under the other.
        case paragraph([Line])
        /// Items, each one line of spans (continuation lines are joined to their item with a space); `start` is
        /// the first number of an ordered list, nil for bullets.
        case list(start: Int?, items: [Line])
    }

    /// Whether `s` has a character that may start markup or a block (`*`, `` ` ``, `[`, `\`, a line feed, or a
    /// list's first character): most text has none and is one paragraph of one text span.
    static func mayHaveMarkup(_ s: String) -> Bool {
        UTF8Bytes.with(s) { bytes in
            if UTF8Bytes.contains(bytes, 0x2A, 0x60, 0x5B) || UTF8Bytes.contains(bytes, 0x0A, 0x5C, 0x5C) { return true }
            // A list needs its mark at the start of a line: with no line feed, only at the start of the text.
            guard let first = bytes.first else { return false }
            return first == 0x2D || first == 0x2B || (first >= 0x30 && first <= 0x39)
        }
    }

    /// The blocks of `s`.
    package static func blocks(_ s: String) -> [Block] {
        guard mayHaveMarkup(s) else { return s.isEmpty ? [] : [.paragraph([[.text(s)]])] }
        let bytes = Array(s.utf8)
        var blocks: [Block] = []
        var paragraph: [Line] = []
        var items: [Line] = []
        var itemText: [UInt8] = []
        var start: Int?
        var inList = false
        func endItem() {
            if inList { items.append(spans(itemText)) }
            itemText = []
        }
        func endBlock() {
            if !paragraph.isEmpty { blocks.append(.paragraph(paragraph)) }
            if inList {
                endItem()
                blocks.append(.list(start: start, items: items))
            }
            paragraph = []
            items = []
            inList = false
            start = nil
        }
        var lineStart = 0
        while lineStart <= bytes.count {
            var lineEnd = lineStart
            while lineEnd < bytes.count && bytes[lineEnd] != 0x0A { lineEnd += 1 }
            var line = bytes[lineStart..<lineEnd]
            if line.last == 0x0D { line = line.dropLast() }
            let trimmed = line.drop(while: { $0 == 0x20 || $0 == 0x09 })
            if trimmed.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
                endBlock()
            } else if let (number, rest) = listItem(trimmed) {
                let ordered = number != nil
                if inList && (start != nil) != ordered { endBlock() }
                if !paragraph.isEmpty { endBlock() }
                if inList { endItem() } else { inList = true; start = number }
                itemText = Array(rest)
            } else if inList {
                // A line under an item without a mark of its own continues the item.
                itemText.append(0x20)
                itemText.append(contentsOf: trimmed)
            } else {
                paragraph.append(spans(Array(line)))
            }
            lineStart = lineEnd + 1
        }
        endBlock()
        return blocks
    }

    /// The mark of a list item at the start of `line` (already without leading spaces): nil when it is no item;
    /// else the item's number (nil for a bullet) and its text.
    static func listItem(_ line: ArraySlice<UInt8>) -> (Int?, ArraySlice<UInt8>)? {
        guard let first = line.first else { return nil }
        let i = line.startIndex
        if first == 0x2D || first == 0x2A || first == 0x2B {
            guard line.count > 2, line[i + 1] == 0x20 else { return nil }
            let rest = line.dropFirst(2).drop(while: { $0 == 0x20 })
            return rest.isEmpty ? nil : (nil, rest)
        }
        var j = i
        var number = 0
        while j < line.endIndex, j - i < 9, line[j] >= 0x30 && line[j] <= 0x39 {
            number = number * 10 + Int(line[j] - 0x30)
            j += 1
        }
        guard j > i, j + 1 < line.endIndex, line[j] == 0x2E || line[j] == 0x29, line[j + 1] == 0x20 else { return nil }
        let rest = line[(j + 2)...].drop(while: { $0 == 0x20 })
        return rest.isEmpty ? nil : (number, rest)
    }

    /// The spans of one line.
    package static func spans(_ bytes: [UInt8]) -> Line {
        var scan = Scan(bytes)
        return scan.spans()
    }

    /// The inline parser. `next` remembers, per mark, where the last search found it (or that it is not there),
    /// so no byte is searched twice for the same mark.
    struct Scan {
        let b: [UInt8]
        /// Per mark (`*`, `**`, `` ` ``, `]`, `)`): the first position at or after the last search's start where
        /// it is, `b.count` when there is none.
        var found: [Int] = [-1, -1, -1, -1, -1]
        var from: [Int] = [Int.max, Int.max, Int.max, Int.max, Int.max]
        /// The `]` of the last link refused for its address: every `[` before it that reaches it is refused too
        /// (the address is the same), without reading the address again.
        var refusedLink = -1

        init(_ bytes: [UInt8]) { b = bytes }

        enum Mark: Int { case star = 0, double, tick, bracket, paren }

        func matches(_ mark: Mark, at i: Int) -> Bool {
            switch mark {
            case .star: b[i] == 0x2A
            case .double: b[i] == 0x2A && i + 1 < b.count && b[i + 1] == 0x2A
            case .tick: b[i] == 0x60
            case .bracket: b[i] == 0x5D
            case .paren: b[i] == 0x29
            }
        }

        /// The first position at or after `i` where `mark` is, or nil.
        mutating func find(_ mark: Mark, from i: Int) -> Int? {
            let m = mark.rawValue
            // A search that started at or before `i` and found its mark at or after `i` found the first one.
            if from[m] <= i && found[m] >= i { return found[m] < b.count ? found[m] : nil }
            var j = i
            while j < b.count && !matches(mark, at: j) { j += 1 }
            from[m] = i
            found[m] = j
            return j < b.count ? j : nil
        }

        func text(_ r: Range<Int>) -> String { String(decoding: b[r], as: UTF8.self) }

        /// Inner text of a span may not start or end with a space (`2 * 3 * 4` is no emphasis).
        func spaced(_ r: Range<Int>) -> Bool { b[r.lowerBound] == 0x20 || b[r.upperBound - 1] == 0x20 }

        /// Whether the address in `r` may be a link's: http, https or mailto, with no space.
        func linkable(_ r: Range<Int>) -> Bool {
            guard !b[r].contains(0x20) else { return false }
            // An address beyond the scheme: `mailto:` alone links nowhere.
            for scheme in ["https://", "http://", "mailto:"] where r.count > scheme.utf8.count {
                if zip(b[r], scheme.utf8).allSatisfy({ ($0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0) == $1 }) { return true }
            }
            return false
        }

        mutating func spans() -> Line {
            var out: Line = []
            var text: [UInt8] = []
            func flush() {
                if !text.isEmpty { out.append(.text(String(decoding: text, as: UTF8.self))) }
                text = []
            }
            var i = 0
            while i < b.count {
                let c = b[i]
                if c == 0x5C, i + 1 < b.count, b[i + 1] == 0x2A || b[i + 1] == 0x60 || b[i + 1] == 0x5B {
                    text.append(b[i + 1])
                    i += 2
                    continue
                }
                if c == 0x2A, i + 1 < b.count, b[i + 1] == 0x2A, let close = find(.double, from: i + 2), close > i + 2,
                    !spaced(i + 2..<close)
                {
                    flush()
                    out.append(.strong(self.text(i + 2..<close)))
                    i = close + 2
                    continue
                }
                if c == 0x2A || c == 0x60, let close = find(c == 0x2A ? .star : .tick, from: i + 1), close > i + 1,
                    c == 0x60 || !spaced(i + 1..<close)
                {
                    flush()
                    out.append(c == 0x2A ? .emphasis(self.text(i + 1..<close)) : .code(self.text(i + 1..<close)))
                    i = close + 1
                    continue
                }
                if c == 0x5B, let closeText = find(.bracket, from: i + 1), closeText + 1 < b.count, b[closeText + 1] == 0x28,
                    closeText != refusedLink, let closeURL = find(.paren, from: closeText + 2)
                {
                    let label = i + 1..<closeText
                    let url = closeText + 2..<closeURL
                    if !label.isEmpty, linkable(url) {
                        flush()
                        out.append(.link(text: self.text(label), url: self.text(url)))
                        i = closeURL + 1
                        continue
                    }
                    if !label.isEmpty { refusedLink = closeText }
                }
                text.append(c)
                i += 1
            }
            flush()
            return out
        }
    }

    /// A line's spans as plain text: marks dropped, a link's address after its text.
    package static func plain(_ line: Line) -> String {
        var out = ""
        for span in line {
            switch span {
            case .text(let t), .strong(let t), .emphasis(let t), .code(let t): out += t
            case .link(let text, let url): out += url.hasSuffix(text) || url == "mailto:" + text ? text : "\(text) (\(url))"
            }
        }
        return out
    }

    /// Plain text for terminals and prompts: marks dropped, a link's address after its text, a list's items on
    /// lines of their own (`• ` or `1. `), a blank line between blocks.
    package static func plain(_ s: String) -> String {
        guard mayHaveMarkup(s) else { return s }
        return plainLines(s).map { $0.prefix + $0.text }.joined(separator: "\n")
    }

    /// What a terminal shows, a line at a time: a list item's mark is kept apart so the renderer can hang the
    /// item's wrapped lines under its text. A blank line separates blocks.
    package static func plainLines(_ s: String) -> [(prefix: String, text: String)] {
        lines(s).map { ($0.prefix, plain($0.spans)) }
    }

    /// Each line to show, with its list mark (`""` for a paragraph's line) and its spans.
    package static func lines(_ s: String) -> [(prefix: String, spans: Line)] {
        var out: [(prefix: String, spans: Line)] = []
        for (n, block) in blocks(s).enumerated() {
            if n > 0 { out.append(("", [])) }
            switch block {
            case .paragraph(let lines):
                for line in lines { out.append(("", line)) }
            case .list(let start, let items):
                for (k, item) in items.enumerated() { out.append((start.map { "\($0 + k). " } ?? "• ", item)) }
            }
        }
        return out
    }

    /// HTML with every span escaped, and whether it is block content (paragraphs or lists, to be put in a
    /// `div`) rather than one paragraph's inline content (lines joined by `<br>`).
    package static func html(_ s: String) -> (html: String, isBlock: Bool) {
        guard mayHaveMarkup(s) else { return (HTML.escape(s), false) }
        let blocks = blocks(s)
        if blocks.count == 1, case .paragraph(let lines) = blocks[0] {
            return (lines.map(html).joined(separator: "<br>"), false)
        }
        if blocks.isEmpty { return ("", false) }
        var out = ""
        for block in blocks {
            switch block {
            case .paragraph(let lines):
                out += "<p>" + lines.map(html).joined(separator: "<br>") + "</p>"
            case .list(let start, let items):
                if let start {
                    out += start == 1 ? "<ol>" : "<ol start=\"\(start)\">"
                } else {
                    out += "<ul>"
                }
                for item in items { out += "<li>" + html(item) + "</li>" }
                out += start == nil ? "</ul>" : "</ol>"
            }
        }
        return (out, true)
    }

    /// One line's spans as HTML.
    package static func html(_ line: Line) -> String {
        var out = ""
        for span in line {
            switch span {
            case .text(let t): out += HTML.escape(t)
            case .strong(let t): out += "<strong>\(HTML.escape(t))</strong>"
            case .emphasis(let t): out += "<em>\(HTML.escape(t))</em>"
            case .code(let t): out += "<code>\(HTML.escape(t))</code>"
            case .link(let text, let url): out += "<a href=\"\(HTML.escape(url))\" rel=\"noopener noreferrer\">\(HTML.escape(text))</a>"
            }
        }
        return out
    }
}
