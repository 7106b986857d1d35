import Foundation
import Testing
import FormworkTestSupport

@Suite("Inputs real forms use: rows, suggestions, autofocus")
struct InputTraitsTests {
    let environment = ["PATH": "/usr/bin:/bin", "HOME": Scratch.directory]

    @Test("rows, suggestions and autofocus reach the page; fill lists the suggestions and still takes any text; bad values are refused")
    func traits() throws {
        let delivery = "\(Source.root)/Examples/Forms/delivery.yaml"
        let html = try run(Build.formwork, ["render", delivery, "--format", "html"], environment: environment).stdout
        #expect(html.contains("rows=\"3\"></textarea>"))
        #expect(html.contains("type=\"text\" list=\"city-suggestions\">\n<datalist id=\"city-suggestions\"><option value=\"Amsterdam\">"))
        let kitchen = try run(
            Build.formwork, ["render", "\(Source.root)/Examples/Forms/kitchen-sink.yaml", "--format", "html"], environment: environment)
        #expect(kitchen.stdout.components(separatedBy: " autofocus").count == 2, "one field has the focus")
        // fill: the suggestions are offered; a city that is not one of them is taken.
        let answers = try Scratch.file("inputs/answers.txt", contents: "delivery\nn\nMain street 1\n1234 AB\nHaarlem\n\n")
        let filled = try run(
            Build.formwork, ["fill", delivery, "--line", "--answers", answers], environment: environment)
        #expect(filled.status == 0, "\(filled.stderr)")
        #expect(filled.stderr.contains("suggestions: Amsterdam, Den Haag, Eindhoven, Rotterdam, Utrecht"), "\(filled.stderr)")
        #expect(filled.stdout.contains("\"city\": \"Haarlem\""), "\(filled.stdout)")
        let bad = try Scratch.file(
            "inputs/bad.yaml",
            contents: """
                formwork: 1
                id: bad
                sections:
                  - id: s
                    fields:
                      - { id: a, cell: org.formwork.text-view, model: { title: A }, textInput: { rows: 0 } }
                      - { id: b, cell: org.formwork.text-field, model: { title: B }, textInput: { suggestions: Paris } }
                      - { id: c, cell: org.formwork.text-view, model: { title: C }, textInput: { suggestions: [x] } }
                      - { id: d, cell: org.formwork.text-field, model: { title: D }, textInput: { suggestions: ["", 3] } }
                """)
        let refused = try run(Build.formwork, ["validate", bad], environment: environment)
        #expect(refused.status == 65)
        #expect(
            refused.stderr.contains("/sections/0/fields/0/textInput/rows: 'rows' must be a whole number from 1 to 50"), "\(refused.stderr)")
        #expect(refused.stderr.contains("/sections/0/fields/1/textInput/suggestions: 'suggestions' must be a list"), "\(refused.stderr)")
        #expect(
            refused.stderr.contains("/sections/0/fields/2/textInput/suggestions: 'suggestions' does not apply to a textView"),
            "\(refused.stderr)")
        #expect(refused.stderr.contains("/sections/0/fields/3/textInput/suggestions: \"\" is not a suggestion"), "\(refused.stderr)")
    }
}
