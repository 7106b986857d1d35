/// Plain text and ANSI: one layout (width-aware wrapping, aligned labels,
/// required markers, messages under their field); ANSI adds styles on top.
struct TextRenderer {
    let width: Int
    let ansi: Bool
    /// The words the layout writes beside values, in the render's language: looked up once, not per field.
    let words: Words

    struct Words {
        let on = " " + loc("on"), off = " " + loc("off"), readOnly = " " + loc("(read-only)"), noDate = loc("‹no date›")
        let disabled = " " + loc("(disabled)"), none = loc("‹none›"), noOptions = loc("‹no options›")
        let rangeText = loc("{0} to {1}"), stepText = loc("step {0}")
    }

    init(width: Int, ansi: Bool) {
        self.width = max(24, min(width, 1000))
        self.ansi = ansi
        self.words = Words()
    }

    enum Style {
        case plain, title, header, footer, label, required, placeholder, value, error, hint, warning, button, primary, destructive,
            selected, disabled, emphasis, caption,
            // Rich text's spans (descriptions, footers, hints).
            strong, italic, code, link
    }

    /// A run of text with one style; lines are built from segments so padding is computed on plain widths.
    struct Segment {
        var text: String
        var style: Style = .plain
    }
    typealias Line = [Segment]

    /// Where laid-out lines go, a segment at a time: `Bytes` writes them out as UTF-8 as they are made
    /// (a render), `Collected` keeps them as `Line`s (the interactive form draws and redraws them).
    /// Building every line as an array of segments, and each field's lines as an array of those, was
    /// two thirds of laying a form out in text.
    protocol Sink {
        mutating func segment(_ text: String, _ style: Style)
        mutating func endLine()
    }

    /// Lines as UTF-8 bytes, as `append(_:to:)` writes them, counted.
    struct Bytes: Sink {
        let renderer: TextRenderer
        let out: ByteBuffer
        var start: Int
        var lines = 0

        init(_ renderer: TextRenderer, _ out: ByteBuffer) {
            self.renderer = renderer
            self.out = out
            start = out.count
        }

        mutating func segment(_ text: String, _ style: Style) { renderer.put(text, style, to: out) }

        mutating func endLine() {
            out.trimTrailing(0x20, downTo: start)
            out.byte(0x0A)
            start = out.count
            lines += 1
        }
    }

    /// Lines kept as `Line`s.
    struct Collected: Sink {
        var lines: [Line] = []
        var line: Line = []

        mutating func segment(_ text: String, _ style: Style) { line.append(Segment(text: text, style: style)) }

        mutating func endLine() {
            lines.append(line)
            line = []
        }
    }

    /// A row's value column, line by line, reused from row to row: the segments of every line in one list, where
    /// each line ends in another, and each line's width in columns kept as it grows. Building each field's value
    /// as an array of lines, each an array of segments, would allocate and free them for every field.
    struct ValueLines {
        /// The segments, `segmentCount` of them in use: overwritten in place from row to row (emptying the list
        /// for each row went through the generic destroy of its elements).
        private var segments: [Segment] = []
        private var segmentCount = 0
        /// Where each line's segments end and its width in columns, `count` of them in use.
        private var lines: [(end: Int, width: Int)] = []
        private(set) var count = 0

        /// No lines (what the storage holds is overwritten by the next row).
        mutating func removeAll() {
            segmentCount = 0
            count = 0
        }

        /// Starts a line (empty until segments are added).
        mutating func newLine() {
            let line = (end: segmentCount, width: 0)
            if count < lines.count { lines[count] = line } else { lines.append(line) }
            count += 1
        }

        /// Adds a segment to the last line.
        mutating func add(_ text: String, _ style: Style = .plain) { add(text, style, columns: text.columns) }

        /// Adds a segment whose width is known (a literal's, or measured already) to the last line.
        mutating func add(_ text: String, _ style: Style = .plain, columns: Int) {
            assert(columns == text.columns, "'\(text)' is \(text.columns) columns wide, not \(columns)")
            let segment = Segment(text: text, style: style)
            if segmentCount < segments.count { segments[segmentCount] = segment } else { segments.append(segment) }
            segmentCount += 1
            lines[count - 1].end = segmentCount
            lines[count - 1].width += columns
        }

        /// `text` wrapped to `width` by `renderer`, each line a line of its own (one style).
        mutating func addWrapped(_ text: String, _ width: Int, _ style: Style, by renderer: TextRenderer) {
            renderer.eachLine(of: text, wrappedTo: width) { line, columns in
                newLine()
                if let columns { add(line, style, columns: columns) } else { add(line, style) }
            }
        }

        /// A line of its own with a box: `[`, `text` in `style` cut to `width` columns ("…" where it is cut) and
        /// padded to them, then `close` (a text field's `]`, a menu's ` ▾]`).
        mutating func addBox(_ text: String, _ style: Style, width: Int, close: String, closeColumns: Int) {
            var shown = text
            var columns = shown.columns
            if columns > width {
                shown = shown.prefix(columns: width - 1) + "…"
                columns = shown.columns
            }
            let padding = max(0, width - columns)
            newLine()
            add("[", columns: 1)
            add(shown, style, columns: columns)
            add(TextRenderer.spaces(padding), columns: padding)
            add(close, columns: closeColumns)
        }

        /// A line of its own with each of `lines` (one style).
        mutating func addLines(_ lines: [String], _ style: Style) {
            for line in lines {
                newLine()
                add(line, style)
            }
        }

        /// Line `line`'s width in columns.
        func width(_ line: Int) -> Int { lines[line].width }

        /// Whether a line is wider than `columns`.
        func anyWider(than columns: Int) -> Bool {
            for i in 0..<count where lines[i].width > columns { return true }
            return false
        }

        /// The segments of line `line`, by index.
        func range(_ line: Int) -> Range<Int> { (line == 0 ? 0 : lines[line - 1].end)..<lines[line].end }

        /// Segment `index` (of `range(_:)`).
        subscript(_ index: Int) -> Segment { segments[index] }

        /// `suffix` at the end of the last line when the line stays within `column`, else on a line of its own
        /// (without its leading spaces).
        mutating func append(_ suffix: String, style: Style, column: Int) {
            if lines[count - 1].width + suffix.columns <= column {
                add(suffix, style)
            } else {
                newLine()
                add(String(suffix.trimmingPrefix(" ")), style)
            }
        }
    }

    func render(_ tree: ViewTree) -> String {
        var out = ""
        write(tree) { out += String(decoding: $0, as: UTF8.self) }
        return out
    }

    /// `render`, written to `sink` in chunks (a few sections at a time): the whole text is never held.
    func write(_ tree: ViewTree, to sink: (UnsafeRawBufferPointer) -> Void) {
        var lines: [Line] = []
        if let title = tree.title, !title.isEmpty {
            for line in wrap(title, width) { lines.append([Segment(text: line, style: .title)]) }
            lines.append([Segment(text: String(repeating: "=", count: min(width, tree.title!.columns)), style: .title)])
        }
        if let description = tree.description, !description.isEmpty {
            lines += richLines(description, width: width, style: .footer)
        }
        let out = ByteBuffer(capacity: 1 << 16)
        var count = 0
        func emit(_ lines: [Line]) {
            for line in lines { append(line, to: out) }
            count += lines.count
        }
        func flush() {
            guard !out.isEmpty else { return }
            out.withUnsafeBytes { sink($0) }
            out.removeAll()
        }
        emit(lines)
        // Sections, or runs of a large section's fields, are laid out independently (on several cores for a large
        // form) and written in order.
        let fieldCount = tree.sections.reduce(0) { $0 + $1.fields.count }
        let pieces = SectionPieces.plan(tree)
        let shown = tree.shownPages
        let labelWidths = splitLabelWidths(tree, pieces)
        let perThread = Parallel.perThread(pieces.count, weight: fieldCount, minimum: 4)
        Parallel.stream(pieces.count, worthIt: SectionPieces.parallel(pieces, fields: fieldCount), perThread: perThread) { index in
            let piece = pieces[index]
            let section = tree.sections[piece.section]
            guard section.visible else { return (text: ByteBuffer(capacity: 16), lines: 0) }
            return body(of: piece, section, labelWidth: labelWidths[piece.section])
        } consume: { index, body in
            let piece = pieces[index]
            let section = tree.sections[piece.section]
            if piece.first {
                // A page heading before the first section of each page.
                // A page whose sections are all hidden is left out, and pages are counted among those shown.
                if let p = tree.pages.firstIndex(where: { $0.sections.lowerBound == piece.section }), let number = shown.firstIndex(of: p) {
                    let page = tree.pages[p]
                    if count > 0 { emit([[]]) }
                    let number = loc("Page {0} of {1}", number + 1, shown.count)
                    let heading = page.title.map { loc("{0}: {1}", number, $0) } ?? number
                    var lines = wrap(heading, width).map { [Segment(text: $0, style: .title)] }
                    lines.append([Segment(text: String(repeating: "~", count: min(width, heading.columns)), style: .title)])
                    emit(lines)
                }
                // Text shows the form for the values rendered: hidden sections and fields are left out.
                guard section.visible else { return }
                if count > 0 { emit([[]]) }
            }
            guard section.visible else { return }
            flush()
            body.text.withUnsafeBytes { sink($0) }
            count += body.lines
        }
        if count == 0 { out.byte(0x0A) }
        flush()
    }

    /// A section's header, fields and footer, as finished UTF-8 text (each line ends in a newline) and its line count.
    func body(of section: SectionView) -> (text: ByteBuffer, lines: Int) {
        body(of: SectionPiece(section: 0, fields: section.fields.indices, first: true, last: true), section, labelWidth: nil)
    }
    /// The label column of each section split into pieces, as wide as one piece of it would make it if it were
    /// whole (its widest label among its visible fields); measured a piece at a time, on several cores.
    func splitLabelWidths(_ tree: ViewTree, _ pieces: [SectionPiece]) -> [Int: Int] {
        let split = pieces.indices.filter { !(pieces[$0].first && pieces[$0].last) }
        guard !split.isEmpty else { return [:] }
        let widest = Parallel.map(split.count, worthIt: split.count > 1) { k -> Int in
            let piece = pieces[split[k]]
            return tree.sections[piece.section].fields.withUnsafeBufferPointer { fields in
                var widest = 0
                for f in piece.fields where fields[f].isDrawn { widest = max(widest, labelColumns(in: fields[f].nodes).widest) }
                return widest
            }
        }
        var widths: [Int: Int] = [:]
        for k in split.indices { widths[pieces[split[k]].section] = max(widths[pieces[split[k]].section] ?? 0, widest[k]) }
        return widths.mapValues { min(max(12, width / 3), $0) }
    }

    /// A piece of a section: its header when it is the first, its visible fields laid out in the section's
    /// label column (`labelWidth`, or measured on the fields when nil: a whole section), its footer when it is
    /// the last. A repeatable group is always whole: one heading per item ("Task 2"); an empty group says so.
    func body(of piece: SectionPiece, _ section: SectionView, labelWidth: Int?) -> (text: ByteBuffer, lines: Int) {
        // Each line is written as soon as it is laid out: a section's lines are never all held as segments.
        let text = ByteBuffer(capacity: piece.fields.count * 64 + 256)
        var sink = Bytes(self, text)
        var value = ValueLines()
        func emit(_ line: Line) {
            for segment in line { sink.segment(segment.text, segment.style) }
            sink.endLine()
        }
        if piece.first, let header = section.header, !header.isEmpty {
            for line in wrap(header, width) { emit([Segment(text: line, style: .header)]) }
            emit([Segment(text: String(repeating: "-", count: min(width, header.columns)), style: .header)])
        }
        if let group = section.repeatGroup {
            let items = Dictionary(grouping: section.fields.filter(\.isDrawn)) { $0.item?.index ?? 0 }
            if items.isEmpty { emit([Segment(text: "  " + loc("(no {0}s)", group.itemLabel.lowercased()), style: .footer)]) }
            for index in items.keys.sorted() {
                emit([Segment(text: "  " + loc("{0} {1}", group.itemLabel, index + 1), style: .header)])
                layOut(items[index]!, to: &sink)
            }
        } else if let labelWidth {
            section.fields.withUnsafeBufferPointer { fields in
                for f in piece.fields where fields[f].isDrawn {
                    layOut(fields.baseAddress! + f, labelWidth: labelWidth, value: &value, to: &sink)
                }
            }
        } else {
            // Usually every field is visible: no filtered copy then.
            layOut(section.fields.allSatisfy({ $0.isDrawn }) ? section.fields : section.fields.filter { $0.isDrawn }, to: &sink)
        }
        if piece.last, let footer = section.footer, !footer.isEmpty {
            for line in richLines(footer, width: width - 2, style: .footer) { emit([Segment(text: "  ")] + line) }
        }
        return (text, sink.lines)
    }

    // MARK: fields

    /// The fields' lines, laid out with one label column for all of them.
    func renderFields(_ fields: [FieldView]) -> [Line] {
        var sink = Collected()
        layOut(fields, to: &sink)
        return sink.lines
    }

    /// The lines of each node of each field in turn, laid out with one label column for all the fields.
    func layOut<S: Sink>(_ fields: [FieldView], to sink: inout S) {
        var widest = 0
        for f in fields.indices { widest = max(widest, labelColumns(in: fields[f].nodes).widest) }
        let labelWidth = min(max(12, width / 3), widest)
        // Fields and nodes are read in place through their buffers: `for field in fields` (or a field passed on
        // by value) copies every field, a dozen retains each, and each node too.
        var value = ValueLines()
        fields.withUnsafeBufferPointer { fields in
            guard let base = fields.baseAddress else { return }
            for f in fields.indices { layOut(base + f, labelWidth: labelWidth, value: &value, to: &sink) }
        }
    }

    /// The lines of each node of `field`, read in place; `value` is the rows' reused value column.
    func layOut<S: Sink>(_ field: UnsafePointer<FieldView>, labelWidth: Int, value: inout ValueLines, to sink: inout S) {
        field.pointee.nodes.withUnsafeBufferPointer { nodes in
            for n in nodes.indices { render(nodes.baseAddress! + n, labelWidth: labelWidth, field: field, value: &value, to: &sink) }
        }
    }

    /// The widest label in the label column (with its required marker " *"), in columns, and whether any
    /// label there is not empty; measured without making the labels (this runs for every field).
    func labelColumns(in nodes: [ViewNode]) -> (widest: Int, any: Bool) {
        var widest = 0, any = false
        for node in nodes {
            switch node {
            case .group(_, _, let children):
                let inner = labelColumns(in: children)
                widest = max(widest, inner.widest)
                any = any || inner.any
            case .value(let label, _):
                widest = max(widest, label.columns)
                any = any || !label.isEmpty
            case .textInput(let c, _, _), .toggle(let c, _), .choice(let c, _, _, _), .date(let c, _, _),
                .number(let c, _, _, _, _, _), .multiChoice(let c, _, _, _):
                let label = c.label ?? ""
                widest = max(widest, label.columns + (c.required ? 2 : 0))
                any = any || !label.isEmpty || c.required
            default: break
            }
        }
        return (widest, any)
    }

    /// Whether any label in the label column is not empty (or marks a required control): `labelColumns(in:).any`
    /// without measuring the labels, stopping at the first (a field's messages ask it).
    func hasLabelColumn(in nodes: [ViewNode]) -> Bool {
        for node in nodes {
            switch node {
            case .group(_, _, let children):
                if hasLabelColumn(in: children) { return true }
            case .value(let label, _):
                if !label.isEmpty { return true }
            case .textInput(let c, _, _), .toggle(let c, _), .choice(let c, _, _, _), .date(let c, _, _),
                .number(let c, _, _, _, _, _), .multiChoice(let c, _, _, _):
                if !(c.label ?? "").isEmpty || c.required { return true }
            default: break
            }
        }
        return false
    }

    var indent: String { "  " }
    /// `indent`'s width, in columns and bytes (`String.count` walks its graphemes: it was called for every node).
    static let indentWidth = 2

    /// A label and its value's lines: the value beside the label column, or under the label when one of its
    /// lines is too wide for that.
    func row<S: Sink>(label: String?, required: Bool, labelWidth: Int, value: ValueLines, to sink: inout S) {
        let text = label ?? ""
        let column = columnWidth(labelWidth)
        // Too wide beside the label: stack the value under it.
        if value.anyWider(than: column) {
            let labelLines = wrap(text, width - Self.indentWidth)
            for (i, line) in labelLines.enumerated() {
                sink.segment(indent, .plain)
                sink.segment(line, .label)
                if required && i == labelLines.count - 1 { sink.segment(" *", .required) }
                sink.endLine()
            }
            let pad = indent + "  "
            for i in 0..<value.count {
                sink.segment(pad, .plain)
                write(value, line: i, cutTo: width - (Self.indentWidth + 2), to: &sink)
                sink.endLine()
            }
            return
        }
        // Usually the label fits its column: no wrapped copy of it then.
        let textColumns = text.columns
        let fits = textColumns + (required ? 2 : 0) <= labelWidth
        let wrapped = fits ? [] : wrap(text, labelWidth)
        let labelCount = fits ? 1 : wrapped.count
        for i in 0..<max(labelCount, value.count) {
            sink.segment(indent, .plain)
            var used = 0
            if i < labelCount {
                let line = fits ? text : wrapped[i]
                sink.segment(line, .label)
                used = fits ? textColumns : line.columns
                if required && i == labelCount - 1 {
                    sink.segment(" *", .required)
                    used += 2
                }
            }
            if i < value.count {
                sink.segment(Self.spaces(max(0, labelWidth - used) + 2), .plain)
                for s in value.range(i) { sink.segment(value[s].text, value[s].style) }
            }
            sink.endLine()
        }
    }

    /// Line `line` of `value` written to `sink`, cut to `width` columns as `fit` cuts a line.
    func write<S: Sink>(_ value: ValueLines, line: Int, cutTo width: Int, to sink: inout S) {
        let range = value.range(line)
        guard value.width(line) > width else {
            for s in range { sink.segment(value[s].text, value[s].style) }
            return
        }
        var left = max(1, width) - 1
        for s in range {
            if left <= 0 { break }
            let text = value[s].text.prefix(columns: left)
            sink.segment(text, value[s].style)
            left -= text.columns
        }
        sink.segment("…", .plain)
    }

    /// Each of `lines`, written to `sink`.
    func emit<S: Sink>(_ lines: [Line], to sink: inout S) {
        for line in lines {
            for segment in line { sink.segment(segment.text, segment.style) }
            sink.endLine()
        }
    }

    func lineWidth(_ line: Line) -> Int { line.reduce(0) { $0 + $1.text.columns } }

    /// Cuts a line to `width` columns, ending with "…" when it had to cut.
    func fit(_ line: Line, _ width: Int) -> Line {
        guard lineWidth(line) > width else { return line }
        var out: Line = []
        var left = max(1, width) - 1
        for segment in line {
            if left <= 0 { break }
            let text = segment.text.prefix(columns: left)
            out.append(Segment(text: text, style: segment.style))
            left -= text.columns
        }
        out.append(Segment(text: "…"))
        return out
    }

    var valueWidth: Int { max(10, width - 4) }

    func columnWidth(_ labelWidth: Int) -> Int { max(10, width - Self.indentWidth - labelWidth - 2) }

    /// The lines of `node`, read in place (a node passed by value is a copy of all its strings).
    /// A row's value is built in `value` (emptied here first), the column reused from row to row.
    func render<S: Sink>(
        _ node: UnsafePointer<ViewNode>, labelWidth: Int, field: UnsafePointer<FieldView>, value: inout ValueLines, to sink: inout S
    ) {
        let column = columnWidth(labelWidth)
        value.removeAll()
        switch node.pointee {
        case .group(_, let title, let children):
            if let title, !title.isEmpty {
                eachLine(of: title, wrappedTo: width - 2) { line, _ in
                    sink.segment(indent, .plain)
                    sink.segment(line, .emphasis)
                    sink.endLine()
                }
            }
            children.withUnsafeBufferPointer { children in
                for c in children.indices {
                    render(children.baseAddress! + c, labelWidth: labelWidth, field: field, value: &value, to: &sink)
                }
            }
        case .label(let text, let style):
            let s: Style =
                switch style {
                case .title: .emphasis
                case .caption: .caption
                case .emphasis: .emphasis
                case .body: .plain
                }
            for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
                for line in wrap(String(paragraph), width - 2) {
                    sink.segment(indent, .plain)
                    sink.segment(line, s)
                    sink.endLine()
                }
            }
        case .value(let label, let text):
            value.addWrapped(text, column, .value, by: self)
            row(label: label, required: false, labelWidth: labelWidth, value: value, to: &sink)
        case .textInput(let control, let text, let placeholder):
            textInputValue(control, text: text, placeholder: placeholder, column: column, field: field, into: &value)
            if control.disabled { value.append(words.readOnly, style: .disabled, column: column) }
            row(label: control.label, required: control.required, labelWidth: labelWidth, value: value, to: &sink)
        case .toggle(let control, let isOn):
            value.newLine()
            value.add(isOn ? "[x]" : "[ ]", .value, columns: 3)
            value.add(isOn ? words.on : words.off, .hint)
            if control.disabled { value.append(words.readOnly, style: .disabled, column: column) }
            row(label: control.label, required: control.required, labelWidth: labelWidth, value: value, to: &sink)
        case .button(let control, let role):
            let title = control.label ?? ""
            let (text, style): (String, Style) =
                switch role {
                case .primary: ("[[ \(title) ]]", .primary)
                case .cancel: ("( \(title) )", .button)
                case .destructive: ("[! \(title) !]", .destructive)
                case .default: ("[ \(title) ]", .button)
                }
            var line: Line = [Segment(text: indent), Segment(text: text, style: control.disabled ? .disabled : style)]
            if control.disabled { line.append(Segment(text: words.disabled, style: .disabled)) }
            emit([fit(line, width)], to: &sink)
        case .choice(let control, let choices, let selected, let style):
            choiceValue(choices: choices, selected: selected, style: style, column: column, into: &value)
            if control.disabled { value.append(words.readOnly, style: .disabled, column: column) }
            row(label: control.label, required: control.required, labelWidth: labelWidth, value: value, to: &sink)
        case .date(let control, let seconds, let mode):
            dateValue(seconds: seconds, mode: mode, column: column, field: field, into: &value)
            if control.disabled { value.append(words.readOnly, style: .disabled, column: column) }
            row(label: control.label, required: control.required, labelWidth: labelWidth, value: value, to: &sink)
        case .number(let control, let number, let minimum, let maximum, let step, let style):
            numberValue(number, minimum: minimum, maximum: maximum, step: step, style: style, column: column, into: &value)
            if control.disabled { value.append(words.readOnly, style: .disabled, column: column) }
            row(label: control.label, required: control.required, labelWidth: labelWidth, value: value, to: &sink)
        case .multiChoice(let control, let choices, let selected, let style):
            multiChoiceValue(choices: choices, selected: selected, style: style, column: column, into: &value)
            if control.disabled { value.append(words.readOnly, style: .disabled, column: column) }
            row(label: control.label, required: control.required, labelWidth: labelWidth, value: value, to: &sink)
        case .message(let kind, let text):
            writeMessage(kind: kind, text: text, labelWidth: labelWidth, field: field, to: &sink)
        }
    }

    func writeMessage<S: Sink>(kind: MessageKind, text: String, labelWidth: Int, field: UnsafePointer<FieldView>, to sink: inout S) {
        let hasColumn = hasLabelColumn(in: field.pointee.nodes)
        let padWidth = hasColumn ? Self.indentWidth + labelWidth + 2 : Self.indentWidth
        let pad = hasColumn ? Self.spaces(padWidth) : indent
        let prefix =
            switch kind {
            case .error: "! "
            case .warning: "⚠ "
            case .hint: ""
            }
        let style: Style =
            switch kind {
            case .error: .error
            case .warning: .warning
            case .hint: .hint
            }
        // A hint is rich text; one with no mark and no line break is one paragraph of one span, which
        // `richLines` lays out as `eachLine` does, here without its arrays of lines and segments.
        if kind == .hint && RichText.mayHaveMarkup(text) {
            for line in richLines(text, width: max(10, width - padWidth), style: style) {
                sink.segment(pad, .plain)
                for segment in line { sink.segment(segment.text, segment.style) }
                sink.endLine()
            }
            return
        }
        if kind == .hint && text.isEmpty { return }  // no paragraph: no line
        eachLine(of: prefix.isEmpty ? text : prefix + text, wrappedTo: max(10, width - padWidth)) { line, _ in
            sink.segment(pad, .plain)
            sink.segment(line, style)
            sink.endLine()
        }
    }

    func multiChoiceValue(choices: [Choice], selected: [String], style: MultiChoiceStyle, column: Int, into value: inout ValueLines) {
        if style == .list {
            let labels = choices.filter { selected.contains($0.value) }.map(\.label)
            for line in wrap(labels.isEmpty ? words.none : labels.joined(separator: ", "), column - 4) {
                value.newLine()
                value.add("{ ")
                value.add(line, labels.isEmpty ? .placeholder : .value)
                value.add(" }")
            }
            if choices.count <= 12 { value.addWrapped(Self.choiceList(choices), column, .hint, by: self) }
        } else {
            for choice in choices {
                let on = selected.contains(choice.value)
                value.newLine()
                for segment in fit(
                    [Segment(text: on ? "[x] " : "[ ] ", style: .value), Segment(text: choice.label, style: on ? .selected : .plain)],
                    column)
                {
                    value.add(segment.text, segment.style)
                }
            }
            if value.count == 0 {
                value.newLine()
                value.add(words.noOptions, .placeholder)
            }
        }
    }

    func numberValue(
        _ number: Double?, minimum: Double?, maximum: Double?, step: Double?, style: NumberStyle, column: Int, into value: inout ValueLines
    ) {
        let shown = number.map(NumberText.format)
        value.newLine()
        switch style {
        case .field:
            let box = max(6, min(column - 2, 16))
            var text = shown ?? ""
            if text.columns > box { text = text.prefix(columns: box - 1) + "…" }
            value.add("[")
            value.add(Self.spaces(max(0, box - text.columns)) + text, .value)
            value.add("]")
        case .stepper:
            value.add("[-] ", .button)
            value.add(shown ?? "–", shown == nil ? .placeholder : .value)
            value.add(" [+]", .button)
        case .slider:
            // A track of 11 positions with the value's knob, when both bounds are known.
            var track = String(repeating: "─", count: 11)
            if let minimum, let maximum, maximum > minimum, let number {
                let position = Int(exactly: ((min(max(number, minimum), maximum) - minimum) / (maximum - minimum) * 10).rounded()) ?? 0
                var chars = Array(track)
                chars[max(0, min(10, position))] = "●"
                track = String(chars)
            }
            value.add(minimum.map(NumberText.format) ?? "", .hint)
            value.add(" ├" + track + "┤ ")
            value.add(maximum.map(NumberText.format) ?? "", .hint)
            value.add("  " + (shown ?? "–"), shown == nil ? .placeholder : .value)
        }
        var range: [String] = []
        if style != .slider, minimum != nil || maximum != nil {
            range.append(Messages.fill(words.rangeText, [minimum.map(NumberText.format) ?? "…", maximum.map(NumberText.format) ?? "…"]))
        }
        if let step, step != 1 { range.append(Messages.fill(words.stepText, [NumberText.format(step)])) }
        if !range.isEmpty { value.append("  " + range.joined(separator: ", "), style: .hint, column: column) }
    }

    func dateValue(seconds: Double?, mode: DatePickerMode, column: Int, field: UnsafePointer<FieldView>, into value: inout ValueLines) {
        let shown = seconds.map { DateText.format($0, mode: mode) }
        value.newLine()
        value.add("[", columns: 1)
        value.add(shown ?? words.noDate, shown == nil ? .placeholder : .value)
        value.add(" ▾]", columns: 3)
        if field.pointee.minimum != nil || field.pointee.maximum != nil {
            let range = Messages.fill(
                words.rangeText,
                [
                    field.pointee.minimum.map { DateText.format($0, mode: mode) } ?? "…",
                    field.pointee.maximum.map { DateText.format($0, mode: mode) } ?? "…",
                ])
            value.append("  " + range, style: .hint, column: column)
        }
    }

    func choiceValue(choices: [Choice], selected: String?, style: ChoiceStyle, column: Int, into value: inout ValueLines) {
        if style == .segments {
            var used = 0
            value.newLine()
            for choice in choices {
                let isSelected = choice.value == selected
                let text = isSelected ? "[\(choice.label)]" : " \(choice.label) "
                if used > 0 && used + text.columns + 1 > column {
                    value.newLine()
                    used = 0
                }
                if used > 0 {
                    value.add(" ", columns: 1)
                    used += 1
                }
                let textColumns = text.columns
                value.add(text, isSelected ? .selected : .value, columns: textColumns)
                used += textColumns
            }
        } else {
            let label = choices.first { $0.value == selected }?.label ?? selected
            let box = max(6, min(column - 2, 40) - 2)
            value.addBox(label ?? "‹choose›", label == nil ? .placeholder : .value, width: box, close: " ▾]", closeColumns: 3)
            if choices.count > 1 && choices.count <= 12 { value.addWrapped(Self.choiceList(choices), column, .hint, by: self) }
        }
    }

    func textInputValue(
        _ control: Control, text: String?, placeholder: String?, column: Int, field: UnsafePointer<FieldView>, into value: inout ValueLines
    ) {
        let box = max(8, min(column - 2, 40))
        if control.multiline {
            let content = text.flatMap { $0.isEmpty ? nil : $0 }
            let body =
                content.map { t in t.split(separator: "\n", omittingEmptySubsequences: false).flatMap { wrap(String($0), column - 2) } }
                ?? [placeholder.map { "‹\($0)›" } ?? ""]
            for line in body {
                value.newLine()
                value.add("│ ", .disabled)
                value.add(line, content == nil ? .placeholder : .value)
            }
            while value.count < 2 {
                value.newLine()
                value.add("│", .disabled)
            }
        } else {
            let secure = field.pointee.textInput.secureEntry == true
            let shown: String
            var style: Style = .value
            if let text, !text.isEmpty {
                shown = secure ? String(repeating: "•", count: min(text.count, box)) : text
            } else {
                shown = placeholder.map { "‹\($0)›" } ?? ""
                style = .placeholder
            }
            value.addBox(shown, style, width: box, close: "]", closeColumns: 1)
        }
    }

    // MARK: output

    /// One output line. Every segment's text is made terminal-safe here, in text and ANSI
    /// alike: the only escape sequences in the output are the styles added below.
    func join(_ line: Line) -> String {
        var out = ""
        for segment in line {
            let text = TerminalText.safe(segment.text)
            if ansi, let code = code(segment.style) { out += "\u{1B}[\(code)m\(text)\u{1B}[0m" } else { out += text }
        }
        while out.utf8.last == 0x20 { out.removeLast() }
        return out
    }

    /// `join(line)` and a line feed, appended to `out` as UTF-8 (the same bytes, without a `String` per line).
    func append(_ line: Line, to out: ByteBuffer) {
        let start = out.count
        for segment in line { put(segment.text, segment.style, to: out) }
        out.trimTrailing(0x20, downTo: start)
        out.byte(0x0A)
    }

    /// One segment of a line as `join` writes it: terminal-safe, in its style's escape sequence with ANSI.
    @inline(__always)
    func put(_ text: String, _ style: Style, to out: ByteBuffer) {
        let code = ansi ? code(style) : nil
        if let code {
            out.append("\u{1B}[" as StaticString)
            out.append(code)
            out.byte(0x6D)
        }
        // Text with no control in it (the common case) is copied as it is, with no checked copy of it made.
        UTF8Bytes.with(text) { bytes in
            if UTF8Bytes.mayHaveTerminalHazards(bytes) && TerminalText.needsReplacing(bytes) {
                out.append(TerminalText.safe(text))
            } else {
                out.append(bytes)
            }
        }
        if code != nil { out.append("\u{1B}[0m" as StaticString) }
    }

    func code(_ style: Style) -> String? {
        switch style {
        case .plain, .value, .label: nil
        case .title: "1"
        case .header: "1;34"
        case .footer, .hint, .placeholder, .caption, .disabled: "2"
        case .required, .error: "31"
        case .warning: "33"
        case .button: "1"
        case .primary: "1;7"
        case .destructive: "1;31"
        case .selected: "7"
        case .emphasis, .strong: "1"
        case .italic: "3"
        case .code: "36"
        case .link: "4"
        }
    }

    /// "of: " and the choices' labels, separated by commas: one string, its bytes written into it (appending
    /// each label to a `String` goes through the generic append; this runs for every picker).
    static func choiceList(_ choices: [Choice]) -> String {
        var capacity = 4
        for choice in choices { capacity += choice.label.utf8.count + 2 }
        return String(unsafeUninitializedCapacity: capacity) { out in
            var n = 0
            func put(_ bytes: UnsafeBufferPointer<UInt8>) {
                for b in bytes {
                    out[n] = b
                    n += 1
                }
            }
            put(UnsafeBufferPointer(start: Self.of.utf8Start, count: Self.of.utf8CodeUnitCount))
            for i in choices.indices {
                if i > 0 { put(UnsafeBufferPointer(start: Self.comma.utf8Start, count: Self.comma.utf8CodeUnitCount)) }
                UTF8Bytes.with(choices[i].label) { put($0) }
            }
            return n
        }
    }
    private static let of: StaticString = "of: "
    private static let comma: StaticString = ", "

    /// `count` spaces (shared strings up to 128: padding is on every row).
    static func spaces(_ count: Int) -> String {
        count < paddings.count ? paddings[max(0, count)] : makeSpaces(count)
    }
    private static let paddings: [String] = (0..<128).map(makeSpaces)

    /// `count` spaces, written as bytes (`String(repeating:count:)` appends a character at a time).
    static func makeSpaces(_ count: Int) -> String {
        String(unsafeUninitializedCapacity: count) { bytes in
            bytes.initialize(repeating: 0x20)
            return count
        }
    }

    /// The words of `text` joined by single spaces (space being ASCII, runs of it are collapsed on the bytes).
    static func singleSpaced(_ text: String) -> String {
        UTF8Bytes.with(text) { bytes in
            String(unsafeUninitializedCapacity: bytes.count) { out in
                var n = 0
                var pendingSpace = false
                for b in bytes {
                    if b == 0x20 {
                        pendingSpace = n > 0
                        continue
                    }
                    if pendingSpace {
                        out[n] = 0x20
                        n += 1
                        pendingSpace = false
                    }
                    out[n] = b
                    n += 1
                }
                return n
            }
        }
    }

    /// Whether `text` is words separated by single spaces, with none before or after them.
    static func isSingleSpaced(_ text: String) -> Bool {
        UTF8Bytes.with(text) { bytes -> Bool in
            if bytes.first == 0x20 || bytes.last == 0x20 { return false }
            var previous: UInt8 = 0
            for b in bytes {
                if b == 0x20 && previous == 0x20 { return false }
                previous = b
            }
            return true
        }
    }

    /// Each line of `wrap(text, width)` in turn, and its width in columns when it is the text itself: the usual
    /// text that already fits on one line is passed on as it is, with no array made for it (this runs for
    /// most nodes of every field).
    @inline(__always)
    func eachLine(of text: String, wrappedTo width: Int, _ body: (String, Int?) -> Void) {
        let columns = text.columns
        if columns <= max(1, width) {
            // What `wrap` makes of a line that fits, without the array: the words single-spaced (a rating's
            // "★★☆☆☆  2/5" has two spaces).
            if Self.isSingleSpaced(text) { body(text, columns) } else { body(Self.singleSpaced(text), nil) }
            return
        }
        for line in wrap(text, width) { body(line, nil) }
    }

    /// Rich text (`RichText`) laid out in `width` columns: plain text keeps no marks, ANSI shows strong, italic,
    /// code and links in their styles over `base`; a list item's wrapped lines hang under its text.
    func richLines(_ text: String, width: Int, style base: Style) -> [Line] {
        var out: [Line] = []
        for (prefix, spans) in RichText.lines(text) {
            let hang = prefix.columns
            let inner = max(1, width - hang)
            var lines: [Line]
            if ansi && spans.contains(where: { if case .text = $0 { false } else { true } }) {
                lines = styledWrap(spans, width: inner, base: base)
            } else {
                let plain = RichText.plain(spans)
                lines = plain.isEmpty ? [[]] : wrap(plain, inner).map { [Segment(text: $0, style: base)] }
            }
            for (n, line) in lines.enumerated() where hang > 0 {
                lines[n] = [Segment(text: n == 0 ? prefix : Self.spaces(hang), style: base)] + line
            }
            out += lines
        }
        return out
    }

    /// Word-wraps spans keeping each word's style: words are split at spaces, a word may be made of several
    /// spans (`**bold**,`), and a word longer than a line is cut as `wrap` cuts it.
    func styledWrap(_ spans: RichText.Line, width: Int, base: Style) -> [Line] {
        // Each word with the style of the space before it: a space inside a span (`` `formwork validate` ``, a
        // link's text) is in the span's style.
        var words: [(segments: [Segment], space: Style)] = []
        var word: [Segment] = []
        var space = base
        func add(_ text: Substring, _ style: Style) {
            var first = true
            for piece in text.split(separator: " ", omittingEmptySubsequences: false) {
                if !first {
                    if !word.isEmpty { words.append((word, space)); word = [] }
                    space = style
                }
                first = false
                if !piece.isEmpty { word.append(Segment(text: String(piece), style: style)) }
            }
        }
        for span in spans {
            switch span {
            case .text(let t): add(t[...], base)
            case .strong(let t): add(t[...], .strong)
            case .emphasis(let t): add(t[...], .italic)
            case .code(let t): add(t[...], .code)
            case .link(let text, let url):
                add(text[...], .link)
                if !(url.hasSuffix(text) || url == "mailto:" + text) { add(" (\(url))"[...], base) }
            }
        }
        if !word.isEmpty { words.append((word, space)) }
        var lines: [Line] = []
        var line: Line = []
        var used = 0
        for (word, spaceStyle) in words {
            let columns = word.reduce(0) { $0 + $1.text.columns }
            if used > 0 && used + 1 + columns > width {
                lines.append(line)
                line = []
                used = 0
            }
            if columns > width {
                // Too long for any line: cut as plain text, in the style of its first piece.
                let pieces = wrap(word.map(\.text).joined(), width)
                for piece in pieces.dropLast() { lines.append([Segment(text: piece, style: word[0].style)]) }
                line = [Segment(text: pieces.last ?? "", style: word[0].style)]
                used = line[0].text.columns
                continue
            }
            if used > 0 {
                put(Segment(text: " ", style: spaceStyle), in: &line)
                used += 1
            }
            for segment in word { put(segment, in: &line) }
            used += columns
        }
        lines.append(line)
        return lines
    }

    /// Appends `segment` to `line`, joined to the last segment when it has the same style (one escape sequence per
    /// run of a style, not per word).
    private func put(_ segment: Segment, in line: inout Line) {
        if let last = line.indices.last, line[last].style == segment.style {
            line[last].text += segment.text
        } else {
            line.append(segment)
        }
    }

    /// Word-wraps to `width` columns, breaking words longer than a line.
    func wrap(_ text: String, _ width: Int) -> [String] {
        let width = max(1, width)
        // Already one line of single-spaced words (the common case): nothing to split.
        let single = Self.isSingleSpaced(text)
        if text.columns <= width {
            if single { return [text] }
            // It fits: the words, single-spaced, on one line (what the loop below makes of it, without
            // measuring each word; a rating's "★★☆☆☆  2/5" has two spaces).
            return [Self.singleSpaced(text)]
        }
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            var word = Substring(word)
            // A word longer than a line is cut into lines of `width` columns, the rest kept for the line after.
            // Each piece is measured once (measuring what is left for every piece made a long line quadratic).
            if word.columns > width {
                if !line.isEmpty { lines.append(line); line = "" }
                while true {
                    var head = word.prefix(columns: width)
                    if head.isEmpty { head = String(word.prefix(1)) }  // a wide character in a one-column width
                    let rest = word.dropFirst(head.count)
                    if rest.isEmpty { break }  // what is left fits
                    lines.append(head)
                    word = rest
                }
            }
            if line.isEmpty {
                line = String(word)
            } else if line.columns + 1 + word.columns <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = String(word)
            }
        }
        if !line.isEmpty || lines.isEmpty { lines.append(line) }
        return lines
    }
}

/// Dates for people: a day, a time, or both, in UTC.
enum DateText {
    static func format(_ seconds: Double, mode: DatePickerMode) -> String {
        let iso = DateFormat.iso8601(seconds)
        let day = String(iso.prefix(10))
        let full = iso.count > 10 ? iso : iso + "T00:00:00Z"
        let time = String(full.dropFirst(11).prefix(5))
        switch mode {
        case .date: return day
        case .time: return time
        case .countdown:
            // A countdown is a duration; any finite value is shown, none traps (Int(exactly:) after clamping).
            let minutes = Int(exactly: (max(-1e15, min(1e15, seconds)) / 60).rounded(.towardZero)) ?? 0
            return "\(minutes / 60)h \(minutes % 60)m"
        case .dateAndTime, .default: return "\(day) \(time) UTC"
        }
    }
}
