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

    static let readOnlyForm = """
        formwork: 1
        id: ticket
        sections:
          - id: s
            fields:
              - { id: reference, cell: org.formwork.text-field, model: { title: Reference, value: T-1042 }, readOnly: true }
              - { id: plan, cell: org.formwork.picker, model: { title: Plan, choices: [Free, Team], value: Team }, readOnly: true }
              - { id: note, cell: org.formwork.text-field, model: { title: Note } }
        """

    @Test("a read-only field is shown but not edited, and submitted with the document's value (a disabled one is not submitted)")
    func readOnly() throws {
        let form = try Scratch.file("readonly/ticket.yaml", contents: Self.readOnlyForm)
        let text = try run(Build.formwork, ["render", form, "--width", "60"], environment: environment.merging(["NO_COLOR": "1"]) { $1 })
            .stdout
        #expect(text.contains("T-1042") && text.contains("Team"), "\(text)")
        let html = try run(Build.formwork, ["render", form, "--format", "html"], environment: environment).stdout
        // The control shows the value, disabled; a hidden input submits it.
        #expect(html.contains("data-read-only>"), "\(html)")
        #expect(html.contains("value=\"T-1042\" disabled") || html.contains("disabled") && html.contains("value=\"T-1042\""), "\(html)")
        #expect(html.contains("<input type=\"hidden\" name=\"reference\" value=\"T-1042\">"), "\(html)")
        #expect(html.contains("<input type=\"hidden\" name=\"plan\" value=\"Team\">"), "\(html)")
        let json = try run(Build.formwork, ["render", form, "--format", "json"], environment: environment).stdout
        #expect(json.contains("\"readOnly\": true"))
        let same = try Scratch.file("readonly/same.json", contents: #"{"reference": "T-1042", "plan": "Team", "note": "hi"}"#)
        #expect(try run(Build.formwork, ["validate", form, "--values", same], environment: environment).status == 0)
        let forged = try Scratch.file("readonly/forged.json", contents: #"{"reference": "T-9999", "plan": "Free"}"#)
        let refused = try run(Build.formwork, ["validate", form, "--values", forged], environment: environment)
        #expect(refused.status == 65)
        #expect(
            refused.stderr.contains(
                "/reference: 'reference' is read-only and its value is the document's, T-1042; the value given is not used: leave it out"),
            "\(refused.stderr)")
        #expect(refused.stderr.contains("/plan: 'plan' is read-only"), "\(refused.stderr)")
        // fill shows it and does not ask; the answers file holds only the note.
        let answers = try Scratch.file("readonly/answers.txt", contents: "a note\n")
        let filled = try run(Build.formwork, ["fill", form, "--line", "--answers", answers], environment: environment)
        #expect(filled.status == 0, "\(filled.stderr)")
        #expect(filled.stderr.contains("Reference: T-1042 (read-only)"), "\(filled.stderr)")
        #expect(filled.stdout.contains("\"reference\": \"T-1042\"") && filled.stdout.contains("\"note\": \"A note\""), "\(filled.stdout)")
        let schema = try run(Build.formwork, ["schema", "--values", form], environment: environment).stdout
        #expect(schema.filter { !$0.isWhitespace }.contains(#""readOnly":true,"const":"T-1042""#), "\(schema)")
    }
}
