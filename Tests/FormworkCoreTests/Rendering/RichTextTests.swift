import Testing
@testable import FormworkCore

@Suite("Rich text of descriptions, footers and hints")
struct RichTextTests {
    @Test("strong, emphasis, code and http/https/mailto links; everything escaped; other links stay text")
    func inline() {
        #expect(
            RichText.html("Read *carefully*: run `formwork validate` or [mail us](mailto:help@example.com).").html
                == "Read <em>carefully</em>: run <code>formwork validate</code> or <a href=\"mailto:help@example.com\" rel=\"noopener noreferrer\">mail us</a>."
        )
        #expect(RichText.html("**bold** and *italic*").html == "<strong>bold</strong> and <em>italic</em>")
        #expect(RichText.html("[click](javascript:alert(1)) <b>x</b>").html == "[click](javascript:alert(1)) &lt;b&gt;x&lt;/b&gt;")
        #expect(RichText.html("[x](HTTPS://Example.com)").html == "<a href=\"HTTPS://Example.com\" rel=\"noopener noreferrer\">x</a>")
        #expect(RichText.html("[x](mailto:) [y](https://)").html == "[x](mailto:) [y](https://)")
        #expect(RichText.html("*<script>*").html == "<em>&lt;script&gt;</em>")
        #expect(RichText.html("[a\\\"](https://x.example/\\\"onmouseover=1)").html.contains("&quot;"))
        #expect(RichText.html("\\*not emphasis\\* and \\`not code\\`").html == "*not emphasis* and `not code`")
        #expect(
            RichText.plain("See [the docs](https://example.com/docs) and `code` **now**.")
                == "See the docs (https://example.com/docs) and code now.")
        #expect(RichText.plain("2 * 3 * 4 is not emphasis") == "2 * 3 * 4 is not emphasis")
        #expect(RichText.plain("-5 degrees") == "-5 degrees")
        #expect(RichText.blocks("no markup") == [.paragraph([[.text("no markup")]])])
    }

    @Test("paragraphs, line breaks and lists, in HTML and as plain text")
    func blocks() {
        let text = "Before you start:\n\n- your **passport**\n- a recent\n  photo\n\n3. sign\n4) date\n\nThanks."
        #expect(
            RichText.blocks(text) == [
                .paragraph([[.text("Before you start:")]]),
                .list(start: nil, items: [[.text("your "), .strong("passport")], [.text("a recent photo")]]),
                .list(start: 3, items: [[.text("sign")], [.text("date")]]),
                .paragraph([[.text("Thanks.")]]),
            ])
        let (html, isBlock) = RichText.html(text)
        #expect(isBlock)
        #expect(
            html == "<p>Before you start:</p><ul><li>your <strong>passport</strong></li><li>a recent photo</li></ul>"
                + "<ol start=\"3\"><li>sign</li><li>date</li></ol><p>Thanks.</p>")
        #expect(RichText.plain(text) == "Before you start:\n\n• your passport\n• a recent photo\n\n3. sign\n4. date\n\nThanks.")
        #expect(RichText.html("one\ntwo") == ("one<br>two", false))
    }

    @Test("every renderer: HTML blocks in a div, text without marks, ANSI in styles, list items hang")
    func renderers() {
        let tree = ViewTree(
            formID: "f", title: "T",
            description: "Run `x` — see [docs](https://example.com).\n\n- **one** item that is long enough to wrap around\n- two",
            sections: [])
        let html = Renderer.render(tree, as: .html)
        #expect(
            html.contains(
                "<div class=\"fw-description\"><p>Run <code>x</code> — see <a href=\"https://example.com\" rel=\"noopener noreferrer\">docs</a>.</p><ul><li><strong>one</strong> item"
            ))
        let text = Renderer.render(tree, as: .text, width: 30)
        #expect(text.contains("Run x — see docs\n(https://example.com).\n\n• one item that is long enough\n  to wrap around\n• two"))
        #expect(!text.contains("*"))
        let ansi = Renderer.render(tree, as: .ansi, width: 30)
        #expect(ansi.contains("\u{1B}[1mone\u{1B}[0m"))
        #expect(ansi.contains("\u{1B}[36mx\u{1B}[0m"))
        #expect(!ansi.contains("**"))
    }

    @Test("no text makes parsing slower than linear: unclosed marks, brackets, refused links", .timeLimit(.minutes(1)))
    func linear() {
        // Each of these was quadratic in a parser that searched from every mark to the end of the text.
        let n = 200_000
        for text in [
            String(repeating: "[", count: n), String(repeating: "*a", count: n),
            String(repeating: "`", count: 1) + String(repeating: "x", count: n),
            String(repeating: "[a", count: n) + "](javascript:" + String(repeating: "x", count: n) + ")",
            String(repeating: "**a", count: n), String(repeating: "- \n", count: n), String(repeating: "1", count: n) + ". x",
        ] {
            let spans = RichText.blocks(text)
            #expect(!spans.isEmpty)
            #expect(RichText.plain(text).utf8.count >= n / 2)
        }
    }
}
