import Testing

@testable import FormworkCore

/// The text layout writes a render's lines straight out as bytes and keeps them as segments for the
/// interactive form: both must make the same lines, for every node kind and every way a row is laid out.
@Suite("Rendering: text layout")
struct TextLayoutTests {
    static let long = "A label long enough to need more than one line in its column"

    /// Fields covering each node kind, with labels that fit, wrap or are missing, values beside the label or
    /// stacked under it, required and disabled controls, messages, and text with controls in it.
    static func fields() -> [FieldView] {
        let short = Control(field: "value", id: "a", label: "Name", required: true)
        let wide = Control(field: "value", id: "b", label: long, disabled: true, required: true)
        let bare = Control(field: "value", id: "c", label: nil)
        let choices = (1...4).map { Choice(value: "v\($0)", label: "Choice \($0)") }
        let groups: [[ViewNode]] = [
            [.textInput(short, text: "Ada", placeholder: nil), .message(kind: .error, text: "must not be empty")],
            [.textInput(wide, text: nil, placeholder: "your name"), .message(kind: .hint, text: "Shown *as typed*")],
            [.textInput(Control(field: "value", id: "m", label: "Notes", multiline: true), text: "one\ntwo words\n", placeholder: nil)],
            [.toggle(short, isOn: true), .toggle(wide, isOn: false)],
            [
                .choice(short, choices: choices, selected: "v2", style: .menu),
                .choice(bare, choices: choices, selected: nil, style: .segments),
            ],
            [.choice(wide, choices: choices + choices + choices, selected: "v1", style: .segments)],
            [.multiChoice(short, choices: choices, selected: ["v1", "v3"], style: .list)],
            [.multiChoice(wide, choices: choices, selected: ["v4"], style: .checkboxes)],
            [.date(short, seconds: 86_400 * 365, mode: .date), .date(wide, seconds: nil, mode: .dateAndTime)],
            [
                .number(short, value: 2.5, minimum: 0, maximum: 10, step: 0.5, style: .field),
                .number(bare, value: nil, minimum: nil, maximum: nil, step: nil, style: .stepper),
                .number(wide, value: 7, minimum: 0, maximum: 10, step: nil, style: .slider),
            ],
            [
                .group(
                    role: "row", title: "Grouped",
                    children: [.value(label: "Total", text: "42.00 USD"), .label(text: "a\nb", style: .caption)]),
                .button(short, role: .primary), .button(wide, role: .destructive),
                .value(label: "", text: String(repeating: "word ", count: 40)),
                .message(kind: .warning, text: "x\u{1B}[2Jy"),
            ],
        ]
        return groups.enumerated().map { i, nodes in
            FieldView(
                id: "f\(i)", cell: "c", accessibilityId: "f\(i)", required: true,
                textInput: TextInputConfiguration(kind: .textField, field: "value"), nodes: nodes, minimum: 0, maximum: 86_400 * 400)
        }
    }

    @Test("the lines written as bytes are the lines kept as segments, in text and ANSI, at every width", arguments: [24, 40, 80, 132])
    func sinksAgree(width: Int) {
        let fields = Self.fields()
        for ansi in [false, true] {
            let renderer = TextRenderer(width: width, ansi: ansi)
            let kept = renderer.renderFields(fields).map { renderer.join($0) + "\n" }.joined()
            let written = renderer.body(of: SectionView(id: "s", header: nil, footer: nil, fields: fields))
            #expect(written.text.string == kept, "width \(width), ansi \(ansi)")
            #expect(written.lines == kept.split(separator: "\n", omittingEmptySubsequences: false).count - 1)
            #expect(!written.text.string.contains("\u{1B}[2J"))
        }
    }

    @Test("padding is that many spaces, from the shared table and past it")
    func spaces() {
        for n in [0, 1, 7, 8, 63, 127, 128, 129, 300] {
            let s = TextRenderer.spaces(n)
            #expect(s.utf8.count == n && s.utf8.allSatisfy { $0 == 0x20 } && s == String(repeating: " ", count: n), "\(n)")
        }
        #expect(TextRenderer.spaces(-3).isEmpty)
    }

    @Test("a row's label column, required marker, padding and stacked value")
    func rows() {
        let renderer = TextRenderer(width: 40, ansi: false)
        let lines = renderer.renderFields(Self.fields()).map { renderer.join($0) }
        // The label column is 13 wide (a third of 40): "Name *" is padded to it, then two spaces.
        #expect(lines.first == "  Name *         [Ada                  ]")
        // A label wider than its column wraps beside the value, the marker on its last line.
        #expect(lines.contains("  A label long   [‹your name›          ]"))
        #expect(lines.contains("  enough to      (read-only)"))
        #expect(lines.contains("  in its column *"))
        // A value too wide beside the label is stacked under it, each line cut with an ellipsis to fit.
        #expect(lines.contains("  Name *") && lines.contains("    [1971-01-01 ▾]"))
        #expect(lines.contains("     1970-01-01 00:00 UTC to 1971-02-05…"))
    }

    /// Hints with no mark and no line break skip the rich-text parse (`writeMessage`): their lines must be what
    /// `richLines` makes of them, beside a label column and without one, in text and ANSI, at every width.
    @Test("a plain hint is laid out as the rich-text path lays it out", arguments: [24, 40, 80, 132])
    func plainHints(width: Int) {
        let hints = [
            "", "Hint", "Hint for field 1234", "two  spaces   inside", " leading and trailing ",
            String(repeating: "word ", count: 60), String(repeating: "x", count: 300), "日本語のヒント " + String(repeating: "長い", count: 50),
            "tab\tinside", "x\u{1B}[2Jy", "100% sure", "a-b c+d 9 lives",
        ]
        let labelled = Control(field: "value", id: "a", label: "Name", required: false)
        let bare = Control(field: "value", id: "b", label: nil)
        for ansi in [false, true] {
            let renderer = TextRenderer(width: width, ansi: ansi)
            for hint in hints where !RichText.mayHaveMarkup(hint) {
                for control in [labelled, bare] {
                    let field = FieldView(
                        id: "f", cell: "c", accessibilityId: "f", required: false,
                        textInput: TextInputConfiguration(kind: .textField, field: "value"),
                        nodes: [.textInput(control, text: "v", placeholder: nil), .message(kind: .hint, text: hint)])
                    let labelWidth = min(max(12, width / 3), renderer.labelColumns(in: field.nodes).widest)
                    var written = TextRenderer.Collected()
                    withUnsafePointer(to: field) {
                        renderer.writeMessage(kind: .hint, text: hint, labelWidth: labelWidth, field: $0, to: &written)
                    }
                    let padWidth = control.label == nil ? TextRenderer.indentWidth : TextRenderer.indentWidth + labelWidth + 2
                    let reference = renderer.richLines(hint, width: max(10, width - padWidth), style: .hint).map {
                        [TextRenderer.Segment(text: TextRenderer.spaces(padWidth))] + $0
                    }
                    #expect(
                        written.lines.map { renderer.join($0) } == reference.map { renderer.join($0) },
                        "width \(width), ansi \(ansi), label \(control.label ?? "none"): \(hint.debugDescription)")
                }
            }
        }
    }

    @Test("whether a field has a label column is what measuring its labels says")
    func labelColumnPresence() {
        let renderer = TextRenderer(width: 80, ansi: false)
        let required = Control(field: "value", id: "r", label: nil, required: true)
        let empty = Control(field: "value", id: "e", label: "")
        let trees: [[ViewNode]] =
            Self.fields().map(\.nodes) + [
                [], [.message(kind: .hint, text: "only a hint")], [.textInput(empty, text: nil, placeholder: nil)],
                [.toggle(required, isOn: false)], [.value(label: "", text: "x")], [.value(label: "Total", text: "x")],
                [.group(role: "row", title: nil, children: [.group(role: "row", title: nil, children: [.value(label: "Deep", text: "")])])],
                [.group(role: "row", title: "T", children: [.label(text: "caption", style: .caption)])],
            ]
        for nodes in trees {
            #expect(renderer.hasLabelColumn(in: nodes) == renderer.labelColumns(in: nodes).any, "\(nodes)")
        }
    }
}
