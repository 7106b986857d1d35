import Foundation
import Testing

@testable import FormworkCore
@testable import FormworkHost
import FormworkTestSupport

@Suite("Rendering golden files")
struct GoldenRenderTests {
    static let standardCells = FirstParty.standardCells
    /// Every form in Examples/Forms: a new example gets golden files (and a failing test until it has them).
    static let examples = ((try? FileManager.default.contentsOfDirectory(atPath: "\(Source.root)/Examples/Forms")) ?? []).sorted()

    static func ext(_ format: OutputFormat) -> String {
        switch format {
        case .text: "txt"
        case .ansi: "ansi"
        case .html: "html"
        case .json: "json"
        }
    }

    /// The page goldens leave the stylesheet out (the stylesheet test covers it).
    static func golden(_ text: String, _ format: OutputFormat) -> String {
        guard format == .html, let start = text.range(of: "<style>"), let end = text.range(of: "</style>") else { return text }
        return text.replacingCharacters(in: start.upperBound..<end.lowerBound, with: "/* HTMLRenderer.stylesheet */")
    }

    @Test("the stylesheet styles every class the HTML renderer emits, and every page embeds it")
    func stylesheet() throws {
        let registry = firstPartyRegistry()
        var pages = [Renderer.render(try FormRuntime(registry: registry).render(Samples.galleryForm(registry)), as: .html)]
        for name in Self.examples {
            let form = try FormDecoder.load(path: "\(Source.root)/Examples/Forms/\(name)", registry: registry)
            pages.append(Renderer.render(try FormRuntime(registry: registry).render(form), as: .html))
        }
        var classes: Set<String> = []
        for page in pages {
            #expect(page.contains("<style>\(HTMLRenderer.stylesheet)</style>"))
            for match in page.split(separator: "class=\"").dropFirst() {
                for name in match.prefix(while: { $0 != "\"" }).split(separator: " ") { classes.insert(String(name)) }
            }
        }
        // Classes that exist only as hooks for authors' own CSS.
        let hooks: Set<String> = ["fw-form", "fw-body", "fw-default", "fw-stack", "fw-group-title"]
        // Class selectors of the stylesheet: "." followed by a whole class name.
        var selectors: Set<String> = []
        var current: String? = nil
        for c in HTMLRenderer.stylesheet + " " {
            if current != nil, c.isLetter || c.isNumber || c == "-" || c == "_" { current!.append(c); continue }
            if let name = current, !name.isEmpty, name.first!.isLetter { selectors.insert(name) }
            current = c == "." ? "" : nil
        }
        for name in classes.subtracting(hooks).sorted() {
            #expect(selectors.contains(name), "no CSS rule for .\(name)")
        }
        #expect(classes.count >= 15, "\(classes.sorted())")
    }

    @Test("every standard cell, previewed with its defaults, in every format", arguments: standardCells)
    func cellPreview(id: String) throws {
        let registry = firstPartyRegistry()
        let tree = try FormRuntime(registry: registry).render(Samples.previewForm(for: try registry.cellType(id)))
        for format in OutputFormat.allCases {
            try Golden.check(Self.golden(Renderer.render(tree, as: format, width: 60), format), against: "cells/\(id).\(Self.ext(format))")
        }
    }

    @Test("every example form, in every format", arguments: examples)
    func example(name: String) throws {
        let registry = firstPartyRegistry()
        let form = try FormDecoder.load(path: "\(Source.root)/Examples/Forms/\(name)", registry: registry)
        let tree = try FormRuntime(registry: registry).render(form)
        let base = (name as NSString).deletingPathExtension
        for format in OutputFormat.allCases {
            try Golden.check(
                Self.golden(Renderer.render(tree, as: format, width: 72), format), against: "forms/\(base).\(Self.ext(format))")
        }
    }

    @Test("every example's translations, in every format: the document's texts and the host's words in that language")
    func translations() throws {
        let registry = firstPartyRegistry()
        var checked = 0
        for name in Self.examples {
            let form = try FormDecoder.load(path: "\(Source.root)/Examples/Forms/\(name)", registry: registry)
            let base = (name as NSString).deletingPathExtension
            for language in form.languages.dropFirst() {
                let tree = try FormRuntime(registry: registry).render(form.translated(to: language))
                #expect(tree.language == language)
                for format in OutputFormat.allCases {
                    try Golden.check(
                        Self.golden(Renderer.render(tree, as: format, width: 72), format),
                        against: "forms/\(base).\(language).\(Self.ext(format))")
                }
                checked += 1
            }
        }
        #expect(checked >= 2)
    }

    @Test("text layout counts terminal columns: CJK and emoji forms", arguments: ["cjk", "emoji"])
    func wideCharacters(name: String) throws {
        let registry = firstPartyRegistry()
        let form = try FormDecoder.load(path: Source.fixture("forms/\(name).yaml"), registry: registry)
        let tree = try FormRuntime(registry: registry).render(form)
        for width in [40, 72] {
            let text = Renderer.render(tree, as: .text, width: width)
            try Golden.check(text, against: "forms/\(name)-\(width).txt")
            try Golden.check(Renderer.render(tree, as: .ansi, width: width), against: "forms/\(name)-\(width).ansi")
            for line in text.split(separator: "\n") { #expect(line.columns <= width, "\(line) is \(line.columns) columns") }
        }
        // The title's underline is as wide as the title, in columns.
        let lines = Renderer.render(tree, as: .text, width: 72).split(separator: "\n")
        #expect(lines[1].count == lines[0].columns)
    }

    @Test("text wraps to the width and never exceeds it")
    func wrapping() throws {
        let registry = firstPartyRegistry()
        let form = try FormDecoder.load(path: "\(Source.root)/Examples/Forms/kitchen-sink.yaml", registry: registry)
        let tree = try FormRuntime(registry: registry).render(form)
        for width in [30, 50, 100] {
            let text = Renderer.render(tree, as: .text, width: width)
            for line in text.split(separator: "\n") { #expect(line.count <= width, "width \(width): \(line)") }
        }
    }

    @Test("HTML escapes every string and binds every label")
    func htmlEscaping() throws {
        let tree = ViewTree(
            formID: "x\"<", title: "<script>alert('t')</script>",
            sections: [
                SectionView(
                    id: "s", header: "a & b", footer: nil,
                    fields: [
                        FieldView(
                            id: "f", cell: "c", accessibilityId: "f", required: true,
                            textInput: TextInputConfiguration(kind: .textField, field: "value", traits: TextInputTraits()),
                            nodes: [
                                .textInput(Control(field: "value", id: "f", label: "<b>", required: true), text: "\"'", placeholder: nil)
                            ])
                    ])
            ])
        let html = Renderer.render(tree, as: .html)
        #expect(!html.contains("<script>"))
        #expect(html.contains("&lt;script&gt;alert(&#39;t&#39;)&lt;/script&gt;"))
        #expect(html.contains("<label for=\"f\">&lt;b&gt;"))
        #expect(html.contains("value=\"&quot;&#39;\""))
        #expect(html.contains("<form id=\"x&quot;&lt;\""))
    }
}
