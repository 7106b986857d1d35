import Foundation
import Testing
import FormworkTestSupport

/// Repeatable groups and nested values, through the real command.
@Suite("Repeatable groups: nested values in validate, render, fill and the browser")
struct RepeatCommandTests {
    let environment = ["PATH": "/usr/bin:/bin", "HOME": Scratch.directory]
    let tasks = "\(Source.root)/Examples/Forms/tasks.yaml"

    func values(_ name: String, _ json: String) throws -> String { try Scratch.file("repeat/\(name).json", contents: json) }

    @Test("validate: each problem inside an item is reported at its pointer; too many items at the group's")
    func planted() throws {
        let bad = try values(
            "bad",
            #"{"owner": "Ada", "tasks": [{"title": "Write", "done": true}, {"titel": "x"}, {"title": 3}, {"title": "Ship", "due": "soon"}]}"#
        )
        let result = try run(Build.formwork, ["validate", tasks, "--values", bad], environment: environment)
        #expect(result.status == 65)
        for expected in [
            "/tasks/1/titel: no field 'titel' in the items of 'tasks'; did you mean 'title'?",
            "/tasks/1/title: required field 'tasks/1/title' has no value",
            "/tasks/2/title: tasks/2/title must be a string",
            "/tasks/3/due:",
        ] {
            #expect(result.stderr.contains(expected), "\(expected)\n\(result.stderr)")
        }
        let many = try values(
            "many",
            #"{"owner": "Ada", "tasks": [{"title": "a"}, {"title": "b"}, {"title": "c"}, {"title": "d"}, {"title": "e"}, {"title": "f"}]}"#)
        let over = try run(Build.formwork, ["validate", tasks, "--values", many], environment: environment)
        #expect(over.stderr.contains("/tasks: 'tasks' has 6 items; at most 5 are allowed"), "\(over.stderr)")
        let good = try values(
            "good", #"{"owner": "Ada", "tasks": [{"title": "Write", "done": true}, {"title": "Ship", "due": "2026-12-01"}]}"#)
        let ok = try run(Build.formwork, ["validate", tasks, "--values", good], environment: environment)
        #expect(ok.status == 0, "\(ok.stderr)")
        // Flat values files keep working beside the nested ones.
        #expect(ok.stdout.contains("valid"))
    }

    @Test("render: every item in text with its heading; the JSON tree marks items and the group")
    func render() throws {
        let good = try values("render", #"{"owner": "Ada", "tasks": [{"title": "Write"}, {"title": "Ship"}, {"title": "Rest"}]}"#)
        let text = try run(Build.formwork, ["render", tasks, "--values", good, "--format", "text"], environment: environment).stdout
        for line in ["Task 1", "Task 2", "Task 3", "[Write", "[Ship", "[Rest"] { #expect(text.contains(line), "\(line)\n\(text)") }
        let json = try run(Build.formwork, ["render", tasks, "--values", good, "--format", "json"], environment: environment).stdout
        #expect(json.contains(#""repeat": {"#) && json.contains(#""item": 2"#), "\(json.prefix(400))")
    }

    @Test("fill: asks item by item and 'add another?', and writes nested values")
    func fill() throws {
        let answers = try Scratch.file("repeat/answers.txt", contents: "Ada\nWrite\n\ny\ny\nShip\n2026-12-01\n\nn\n")
        let output = "\(Scratch.directory)/repeat/filled.json"
        let result = try run(Build.formwork, ["fill", tasks, "--answers", answers, "-o", output], environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("Add another task? (y/n) [n]"))
        let data = try Data(contentsOf: URL(fileURLWithPath: output))
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        let items = object?["tasks"] as? [[String: Any]]
        #expect(items?.count == 2)
        #expect(items?.first?["title"] as? String == "Write" && items?.first?["done"] as? Bool == true)
        #expect(items?.last?["due"] as? String == "2026-12-01")
        // What fill wrote validates.
        #expect(try run(Build.formwork, ["validate", tasks, "--values", output], environment: environment).status == 0)
    }

    @Test("HTML: Add clones the spare item with fresh ids up to the maximum, Remove stops at the minimum (headless Chromium)")
    func browser() throws {
        let good = try values("browser", #"{"owner": "Ada", "tasks": [{"title": "Write"}, {"title": "Ship"}]}"#)
        let html = try run(Build.formwork, ["render", tasks, "--values", good, "--format", "html"], environment: environment).stdout
        #expect(
            html.contains("data-spare") && html.contains("<legend>Task 3<span data-spare-mark> (optional)</span></legend>"),
            "without script the spare item is the way to add one")
        guard Chromium.path != nil else {
            print("skipped: chromium is not installed (apt-get install chromium)")
            return
        }
        let probe = """
            <pre id="probe"></pre><script>
            (function () {
              var list = document.querySelector(".fw-items"), out = [];
              function n() { return list.querySelectorAll(".fw-item").length; }
              var add = list.querySelector("[data-add]");
              out.push(n(), add.hidden ? "hidden" : "shown");
              add.click();
              var last = list.querySelectorAll(".fw-item")[n() - 1];
              out.push(n(), last.querySelector("legend").textContent, last.querySelector("input").id, document.activeElement.id);
              add.click(); add.click();
              out.push(n(), add.disabled ? "full" : "room");
              for (var i = 0; i < 6; i++) { var r = list.querySelector("[data-remove]"); if (!r.disabled) r.click(); }
              out.push(n(), list.querySelector("[data-remove]").disabled ? "at-minimum" : "removable");
              document.getElementById("probe").textContent = out.join("|");
            })();
            </script>
            """
        let page = try Scratch.file("repeat/tasks.html", contents: html.replacingOccurrences(of: "</body>", with: probe + "</body>"))
        let dom = try Chromium.dumpDOM(of: page, profile: "repeat").stdout
        #expect(
            dom.contains("2|shown|3|Task 3|tasks-2-title|tasks-2-title|5|full|1|at-minimum"),
            "\(dom.components(separatedBy: "<pre id=\"probe\">").last?.prefix(200) ?? "")")
    }

    @Test("documents: a bad repeat and conditions that read repeated fields are refused")
    func refusals() throws {
        let document = try Scratch.file(
            "repeat/bad.yaml",
            contents: """
                formwork: 1
                id: bad
                sections:
                  - id: list
                    repeat: { minItems: 3, maxItems: 2 }
                    fields: [{ id: item, cell: org.formwork.text-field, model: { title: Item } }]
                  - id: more
                    repeat: { maxItems: 4, itemLable: Thing }
                    fields: [{ id: thing, cell: org.formwork.text-field, model: { title: Thing } }]
                  - id: after
                    fields: [{ id: note, cell: org.formwork.text-field, model: { title: Note }, visibleIf: "thing == 'x'" }]
                """)
        let result = try run(Build.formwork, ["validate", document], environment: environment)
        #expect(result.status == 65)
        #expect(result.stderr.contains("/sections/0/repeat/minItems: minItems 3 is greater than maxItems 2"), "\(result.stderr)")
        #expect(result.stderr.contains("unknown key 'itemLable'"), "\(result.stderr)")
        #expect(
            result.stderr.contains("'thing' is a field of the repeated group 'more'; a condition cannot read a repeated field"),
            "\(result.stderr)")
    }
}
