import Foundation
import Testing

@testable import Formwork

@Suite("Rendering golden files")
struct GoldenRenderTests {
    static let standardCells = ["org.formwork.text", "org.formwork.text-field", "org.formwork.text-view", "org.formwork.toggle",
                                "org.formwork.button", "org.formwork.date-picker", "org.formwork.picker", "org.formwork.segments",
                                "org.formwork.c.rating", "org.formwork.c.money"]
    static let examples = ["login.yaml", "register.yaml", "forgot-password.json", "kitchen-sink.yaml"]

    static func ext(_ format: OutputFormat) -> String {
        switch format {
        case .text: "txt"
        case .ansi: "ansi"
        case .html: "html"
        case .json: "json"
        }
    }

    /// The page goldens leave the stylesheet out; it has a golden of its own.
    static func golden(_ text: String, _ format: OutputFormat) -> String {
        guard format == .html, let start = text.range(of: "<style>"), let end = text.range(of: "</style>") else { return text }
        return text.replacingCharacters(in: start.upperBound..<end.lowerBound, with: "/* Golden/stylesheet.css */")
    }

    @Test("the HTML stylesheet")
    func stylesheet() throws {
        try Golden.check(HTMLRenderer.stylesheet, against: "stylesheet.css")
        let page = Renderer.render(ViewTree(formID: "f", title: nil, sections: []), as: .html)
        #expect(page.contains("<style>\(HTMLRenderer.stylesheet)</style>"))
    }

    @Test("every standard cell, previewed with its defaults, in every format", arguments: standardCells)
    func cellPreview(id: String) throws {
        let registry = firstPartyRegistry()
        let tree = try FormRuntime().render(Samples.previewForm(for: try registry.cellType(id)))
        for format in OutputFormat.allCases {
            try Golden.check(Self.golden(Renderer.render(tree, as: format, width: 60), format), against: "cells/\(id).\(Self.ext(format))")
        }
    }

    @Test("every example form, in every format", arguments: examples)
    func example(name: String) throws {
        let registry = firstPartyRegistry()
        let form = try FormDecoder.load(path: "\(Source.root)/Examples/Forms/\(name)", registry: registry)
        let tree = try FormRuntime().render(form)
        let base = (name as NSString).deletingPathExtension
        for format in OutputFormat.allCases {
            try Golden.check(Self.golden(Renderer.render(tree, as: format, width: 72), format), against: "forms/\(base).\(Self.ext(format))")
        }
    }

    @Test("text wraps to the width and never exceeds it")
    func wrapping() throws {
        let registry = firstPartyRegistry()
        let form = try FormDecoder.load(path: "\(Source.root)/Examples/Forms/kitchen-sink.yaml", registry: registry)
        let tree = try FormRuntime().render(form)
        for width in [30, 50, 100] {
            let text = Renderer.render(tree, as: .text, width: width)
            for line in text.split(separator: "\n") { #expect(line.count <= width, "width \(width): \(line)") }
        }
    }

    @Test("HTML escapes every string and binds every label")
    func htmlEscaping() throws {
        let tree = ViewTree(formID: "x\"<", title: "<script>alert('t')</script>", sections: [
            SectionView(id: "s", header: "a & b", footer: nil, fields: [
                FieldView(id: "f", cell: "c", accessibilityId: "f", required: true,
                          textInput: TextInputConfiguration(kind: .textField, field: "value", traits: TextInputTraits()),
                          nodes: [.textInput(Control(field: "value", id: "f", label: "<b>", required: true), text: "\"'", placeholder: nil)]),
            ]),
        ])
        let html = Renderer.render(tree, as: .html)
        #expect(!html.contains("<script>"))
        #expect(html.contains("&lt;script&gt;alert(&#39;t&#39;)&lt;/script&gt;"))
        #expect(html.contains("<label for=\"f\">&lt;b&gt;"))
        #expect(html.contains("value=\"&quot;&#39;\""))
        #expect(html.contains("<form id=\"x&quot;&lt;\""))
    }
}
