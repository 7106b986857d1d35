import Testing

@testable import FormworkCore

/// A large section is laid out a run of fields at a time, on several cores: the output must be the section's
/// as if it were laid out whole.
@Suite("Rendering: large sections in pieces")
struct SectionPiecesTests {
    /// A small section, a section of 5,000 fields (every 7th hidden, its widest label near its end) and another
    /// small one, on two pages.
    static func tree() -> ViewTree {
        func field(_ id: String, _ label: String, visible: Bool = true) -> FieldView {
            var f = FieldView(
                id: id, cell: "c", accessibilityId: id, required: false,
                textInput: TextInputConfiguration(kind: .textField, field: "value"),
                nodes: [.textInput(Control(field: "value", id: id, label: label), text: "v", placeholder: nil)])
            f.visible = visible
            return f
        }
        let big = (0..<5000).map { i in
            field("f\(i)", i == 4900 ? "The widest label of all" : "Field \(i)", visible: i % 7 != 3)
        }
        var tree = ViewTree(
            formID: "f", title: "Pieces",
            sections: [
                SectionView(id: "a", header: "First", footer: nil, fields: (0..<5).map { field("a\($0)", "A \($0)") }),
                SectionView(id: "big", header: "Big", footer: "End of the big one", fields: big),
                SectionView(id: "c", header: nil, footer: "Last", fields: [field("c0", "C")]),
            ])
        tree.pages = [PageView(id: "p1", title: "One", sections: 0..<2), PageView(id: "p2", title: nil, sections: 2..<3)]
        return tree
    }

    @Test("a section of more than twice the piece size is split, a repeatable group never")
    func plan() {
        let pieces = SectionPieces.plan(Self.tree())
        #expect(pieces.map(\.section) == [0, 1, 1, 1, 1, 2])
        #expect(pieces[1].fields == 0..<1024 && pieces[4].fields == 3072..<5000)
        #expect(pieces.map(\.first) == [true, true, false, false, false, true])
        #expect(pieces.map(\.last) == [true, false, false, false, true, true])
    }

    @Test("text: the split section is the section laid out whole, in the label column of its widest visible label")
    func text() {
        let tree = Self.tree()
        let renderer = TextRenderer(width: 80, ansi: false)
        let whole = renderer.body(of: tree.sections[1]).text.string
        let text = Renderer.render(tree, as: .text, width: 80)
        #expect(text.contains(whole))
        #expect(whole.hasPrefix("Big\n---\n  Field 0                  [v"))
        #expect(!whole.contains("Field 3 ") && whole.contains("Field 4 "))
        #expect(whole.hasSuffix("  End of the big one\n"))
        #expect(text.components(separatedBy: "Page ").count == 3)
    }

    @Test("HTML: the split section opens once, holds its fields in order and closes once, after its footer")
    func html() {
        let html = Renderer.render(Self.tree(), as: .html)
        #expect(html.components(separatedBy: "<fieldset").count == 3)
        #expect(html.components(separatedBy: "</fieldset>").count == 3)
        #expect(html.components(separatedBy: "End of the big one").count == 2)
        // Each field's id after the one before it: every field, in order.
        var at = html.startIndex, found = 0
        for i in 0..<5000 {
            guard let r = html.range(of: "id=\"f\(i)\"", range: at..<html.endIndex) else { break }
            at = r.upperBound
            found += 1
        }
        #expect(found == 5000)
        let footer = html.range(of: "End of the big one")!.lowerBound
        #expect(at < footer && footer < html.range(of: "</fieldset>", range: footer..<html.endIndex)!.lowerBound)
        #expect(html.components(separatedBy: "class=\"fw-page-nav\"").count == 3)
    }

    @Test("JSON: the split section's pieces add up to the section written whole")
    func json() throws {
        let tree = Self.tree()
        var split: [UInt8] = []
        var whole: [UInt8] = []
        JSONTreeRenderer.write(tree) { split += $0 }
        JSONTreeRenderer.write(tree, splitting: false) { whole += $0 }
        #expect(split == whole)
        let parsed = try JSONParser.parse(String(decoding: split, as: UTF8.self))
        guard case .array(let sections)? = parsed["sections"]?.kind, sections.count == 3,
            case .array(let fields)? = sections[1]["fields"]?.kind
        else {
            Issue.record("not the tree's sections")
            return
        }
        #expect(fields.count == 5000 && fields.last?["id"]?.string == "f4999")
    }
}
