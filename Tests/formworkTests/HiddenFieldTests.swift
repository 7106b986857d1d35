import Foundation
import Testing
import FormworkTestSupport

@Suite("Hidden fields")
struct HiddenFieldTests {
    let environment = ["PATH": "/usr/bin:/bin", "HOME": Scratch.directory]

    @Test("a hidden field is never shown or asked, is submitted with the document's value, and a changed value is refused")
    func hidden() throws {
        let order = "\(Source.root)/Examples/Forms/order.yaml"
        let text = try run(Build.formwork, ["render", order], environment: environment).stdout
        #expect(!text.contains("Channel"))
        let html = try run(Build.formwork, ["render", order, "--format", "html"], environment: environment).stdout
        #expect(html.contains("data-value-id=\"channel\" hidden>\n<input type=\"hidden\" id=\"channel\" name=\"channel\" value=\"web\">"))
        let json = try run(Build.formwork, ["render", order, "--format", "json"], environment: environment).stdout
        #expect(json.contains("\"hidden\": true"))
        let same = try Scratch.file("hidden/channel-web.json", contents: #"{"quantity": 2, "channel": "web"}"#)
        #expect(try run(Build.formwork, ["validate", order, "--values", same], environment: environment).status == 0)
        let forged = try Scratch.file("hidden/channel-phone.json", contents: #"{"quantity": 2, "channel": "phone"}"#)
        let refused = try run(Build.formwork, ["validate", order, "--values", forged], environment: environment)
        #expect(refused.status == 65)
        #expect(
            refused.stderr.contains(
                "/channel: 'channel' is hidden and its value is the document's, web; the value given is not used: leave it out"),
            "\(refused.stderr)")
        // fill never asks for it and writes the document's value.
        let answers = try Scratch.file("hidden/order-answers.txt", contents: String(repeating: "\n", count: 12))
        let filled = try run(Build.formwork, ["fill", order, "--line", "--answers", answers], environment: environment)
        #expect(filled.status == 0, "\(filled.stderr)")
        #expect(!filled.stderr.contains("Channel"))
        #expect(filled.stdout.contains("\"channel\": \"web\""), "\(filled.stdout)")
        let bad = try Scratch.file(
            "hidden/bad.yaml",
            contents: """
                formwork: 1
                id: bad
                sections:
                  - id: s
                    fields:
                      - { id: a, cell: org.formwork.text, model: { text: Hi }, hidden: true }
                      - { id: b, cell: org.formwork.text-field, model: { title: B }, hidden: yes please }
                """)
        let badResult = try run(Build.formwork, ["validate", bad], environment: environment)
        #expect(badResult.stderr.contains("/sections/0/fields/0/hidden: 'a' (org.formwork.text) holds no value"), "\(badResult.stderr)")
        #expect(
            badResult.stderr.contains("/sections/0/fields/1/hidden: 'hidden' must be true or false, not a string"), "\(badResult.stderr)")
    }
}
