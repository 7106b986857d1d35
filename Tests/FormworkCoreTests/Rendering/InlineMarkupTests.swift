import Testing
@testable import FormworkCore

@Suite("Inline markup of descriptions, footers and hints")
struct InlineMarkupTests {
    @Test("emphasis, code and http/https/mailto links; everything escaped; other links stay text")
    func markup() {
        #expect(
            InlineMarkup.html("Read *carefully*: run `formwork validate` or [mail us](mailto:help@example.com).")
                == "Read <em>carefully</em>: run <code>formwork validate</code> or <a href=\"mailto:help@example.com\" rel=\"noopener noreferrer\">mail us</a>."
        )
        #expect(InlineMarkup.html("[click](javascript:alert(1)) <b>x</b>") == "[click](javascript:alert(1)) &lt;b&gt;x&lt;/b&gt;")
        #expect(InlineMarkup.html("*<script>*") == "<em>&lt;script&gt;</em>")
        #expect(InlineMarkup.html("[a\\\"](https://x.example/\\\"onmouseover=1)").contains("&quot;"))
        #expect(
            InlineMarkup.plain("See [the docs](https://example.com/docs) and `code` *now*.")
                == "See the docs (https://example.com/docs) and code now.")
        #expect(InlineMarkup.plain("2 * 3 * 4 is not emphasis") == "2 * 3 * 4 is not emphasis")
        #expect(InlineMarkup.parse("no markup") == [.text("no markup")])
    }

    @Test("the description is shown with its markup in HTML and as plain text in a terminal")
    func renderers() {
        let tree = ViewTree(formID: "f", title: "T", description: "Run `x` — see [docs](https://example.com).", sections: [])
        #expect(
            Renderer.render(tree, as: .html).contains(
                "<p class=\"fw-description\">Run <code>x</code> — see <a href=\"https://example.com\" rel=\"noopener noreferrer\">docs</a>.</p>"
            ))
        #expect(Renderer.render(tree, as: .text).contains("Run x — see docs (https://example.com)."))
    }
}
