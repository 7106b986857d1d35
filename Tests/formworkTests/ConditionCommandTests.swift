import Foundation
import Testing
import FormworkTestSupport

/// Conditions and rules across fields, through the real command.
@Suite("Conditions and cross-field rules in validate, render and the browser")
struct ConditionCommandTests {
    let environment = ["PATH": "/usr/bin:/bin", "HOME": Scratch.directory]
    let register = "\(Source.root)/Examples/Forms/register.yaml"

    func values(_ name: String, _ json: String) throws -> String { try Scratch.file("conditions/\(name).json", contents: json) }

    @Test("validate: a mismatched confirmation, an answer in a hidden field and a missing requiredIf value, each at its pointer")
    func planted() throws {
        let base = #""name": "Ada", "email": "ada@example.com", "password": "secret123""#
        let mismatch = try run(
            Build.formwork,
            ["validate", register, "--values", try values("mismatch", "{\(base), \"plan\": \"Team\", \"confirm\": \"secret124\"}")],
            environment: environment)
        #expect(mismatch.status == 65)
        #expect(mismatch.stderr.contains("/confirm: The two passwords do not match."), "\(mismatch.stderr)")
        let hidden = try run(
            Build.formwork,
            [
                "validate", register, "--values",
                try values("hidden", "{\(base), \"plan\": \"Free\", \"confirm\": \"secret123\", \"company\": \"Acme\"}"),
            ],
            environment: environment)
        #expect(hidden.status == 65)
        #expect(
            hidden.stderr.contains(
                "/company: a value is given for 'company', which is hidden (its visibleIf \"plan in ['Team', 'Enterprise']\" does not hold)"
            ),
            "\(hidden.stderr)")
        let requiredIf = try run(
            Build.formwork,
            [
                "validate", register, "--values",
                try values("required-if", "{\(base), \"plan\": \"Enterprise\", \"confirm\": \"secret123\"}"),
            ],
            environment: environment)
        #expect(requiredIf.stderr.contains("/company: field 'company' is required when plan == 'Enterprise', and has no value"))
        let good = try run(
            Build.formwork,
            [
                "validate", register, "--values",
                try values("good", "{\(base), \"plan\": \"Team\", \"confirm\": \"secret123\", \"company\": \"Acme\"}"),
            ],
            environment: environment)
        #expect(good.status == 0, "\(good.stderr)")
    }

    @Test("render: text leaves out what is hidden for the values given; JSON carries conditions and state")
    func render() throws {
        let free = try run(Build.formwork, ["render", register, "--format", "text"], environment: environment)
        #expect(!free.stdout.contains("Company"))
        let team = try run(
            Build.formwork, ["render", register, "--format", "text", "--values", try values("team", #"{"plan": "Enterprise"}"#)],
            environment: environment)
        #expect(team.stdout.contains("Company *"), "\(team.stdout)")
        let json = try run(Build.formwork, ["render", register, "--format", "json"], environment: environment)
        #expect(json.stdout.contains(#""visibleIf": "plan in ['Team', 'Enterprise']""#))
        #expect(json.stdout.contains(#""visible": false"#))
    }

    @Test("documents: unknown fields, mismatched kinds and cycles are refused with the pointer and column")
    func refusals() throws {
        let document = try Scratch.file(
            "conditions/bad.yaml",
            contents: """
                formwork: 1
                id: bad
                sections:
                  - id: s
                    fields:
                      - { id: a, cell: org.formwork.text-field, model: { title: A }, visibleIf: "b == 'y'" }
                      - { id: b, cell: org.formwork.text-field, model: { title: B }, visibleIf: "a is not empty" }
                      - { id: c, cell: org.formwork.integer, model: { title: C }, enabledIf: "d > 3" }
                      - { id: d, cell: org.formwork.toggle, model: { title: D }, requiredIf: "c == 'x'", rules: { equals: c } }
                """)
        let result = try run(Build.formwork, ["validate", document], environment: environment)
        #expect(result.status == 65)
        #expect(
            result.stderr.contains("/sections/0/fields/0: the conditions of 'a' depend on themselves: 'a' → 'b' → 'a'"), "\(result.stderr)")
        #expect(result.stderr.contains("/sections/0/fields/2/enabledIf: column 5: '>' orders two numbers or two texts"), "\(result.stderr)")
        #expect(
            result.stderr.contains("/sections/0/fields/3/requiredIf: column 6: 'c' (a number) is compared with text"), "\(result.stderr)")
        #expect(result.stderr.contains("/sections/0/fields/3/rules/equals: 'd' holds bool and 'c' holds number"), "\(result.stderr)")
    }

    @Test("HTML: the inline script hides, shows and requires the conditional field as the plan changes (headless Chromium)")
    func browser() throws {
        guard Chromium.path != nil else {
            print("skipped: chromium is not installed (apt-get install chromium)")
            return
        }
        let html = try run(Build.formwork, ["render", register, "--format", "html"], environment: environment).stdout
        let script = """
            (function () {
              var plan = document.getElementById("plan"), company = document.querySelector('[data-field="company"]');
              var input = document.getElementById("company"), out = [];
              function note() { out.push(plan.value + ":" + (company.hidden ? "hidden" : "shown") + ":" + (input.required ? "required" : "optional")); }
              note();
              ["Team", "Enterprise", "Free"].forEach(function (p) { plan.value = p; plan.dispatchEvent(new Event("change", { bubbles: true })); note(); });
              document.getElementById("probe").textContent = out.join(" ");
            })();
            """
        let seen = try Chromium.probe(html, script: script, name: "conditions")
        #expect(seen == "Free:hidden:optional Team:shown:optional Enterprise:shown:required Free:hidden:optional", "\(seen)")
    }

    @Test(
        "HTML pages: one page at a time; Next checks the page first; a page whose sections are all hidden is skipped and not counted (headless Chromium)"
    )
    func pages() throws {
        let feedback = "\(Source.root)/Examples/Forms/feedback.yaml"
        let html = try run(Build.formwork, ["render", feedback, "--format", "html"], environment: environment).stdout
        #expect(html.components(separatedBy: "<section class=\"fw-page\"").count - 1 == 4)
        #expect(html.contains("<nav class=\"fw-page-nav\" aria-label=\"Page 1 of 3\" hidden>"), "the navigation is hidden without script")
        // Without script the welcome page (first visits only) stays hidden: its section is.
        #expect(html.contains("id=\"page-welcome\" aria-labelledby=\"page-welcome-title\" hidden>"))
        guard Chromium.path != nil else {
            print("skipped: chromium is not installed (apt-get install chromium)")
            return
        }
        // Pages: you, welcome (visibleIf firstVisit), visit (a required score), contact.
        let script = """
            (function () {
              var pages = document.querySelectorAll(".fw-page"), out = [];
              function state() { return Array.prototype.map.call(pages, function (p) { return p.hidden ? "-" : "P"; }).join(""); }
              function heading(i) { return pages[i].querySelector("h2").textContent; }
              function next(i) { pages[i].querySelector(".fw-page-nav .fw-primary").click(); }
              function back(i) { pages[i].querySelector(".fw-page-nav [data-page-go]:not(.fw-primary)").click(); }
              out.push(state());
              next(0); out.push(state(), heading(2));
              next(2); out.push(state(), document.activeElement && document.activeElement.id);
              var nps = document.getElementById("nps"); nps.value = "9"; nps.dispatchEvent(new Event("input", { bubbles: true }));
              next(2); out.push(state(), heading(3));
              back(3); back(2); out.push(state());
              var first = document.getElementById("firstVisit"); first.click();
              out.push(heading(0));
              next(0); out.push(state(), heading(1));
              next(1); out.push(state(), heading(2));
              document.getElementById("probe").textContent = out.join(" | ");
            })();
            """
        let seen = try Chromium.probe(html, script: script, name: "pages")
        #expect(
            seen
                == "P--- | --P- | Page 2 of 3: Your visit | --P- | nps | ---P | Page 3 of 3: Staying in touch | P--- | Page 1 of 4: About you | -P-- | Page 2 of 4: Welcome | --P- | Page 3 of 4: Your visit",
            "\(seen)")
    }

    @Test("documents: pages and sections together, an empty page and a duplicate page id are refused")
    func pageRefusals() throws {
        let document = try Scratch.file(
            "conditions/pages.yaml",
            contents: """
                formwork: 1
                id: paged
                sections: [{ id: s0, fields: [] }]
                pages:
                  - { id: p, sections: [] }
                  - { id: p, title: Again, sections: [{ id: s1, fields: [{ id: a, cell: org.formwork.text-field, model: { title: A } }] }] }
                """)
        let result = try run(Build.formwork, ["validate", document], environment: environment)
        #expect(result.status == 65)
        #expect(result.stderr.contains("/pages: a form has 'sections' or 'pages' (each with its sections), not both"), "\(result.stderr)")
        #expect(result.stderr.contains("/pages/0/sections: a page needs at least one section"), "\(result.stderr)")
        #expect(result.stderr.contains("/pages/1/id: duplicate page id 'p'"), "\(result.stderr)")
        // A page's condition is checked as a section's: known fields, kinds, and no field of the page itself.
        let conditional = try Scratch.file(
            "conditions/page-conditions.yaml",
            contents: """
                formwork: 1
                id: paged
                pages:
                  - { id: one, sections: [{ id: s0, fields: [{ id: n, cell: org.formwork.integer, model: { title: N } }] }] }
                  - { id: two, visibleIf: "nope == 1", sections: [{ id: s1, fields: [] }] }
                  - { id: three, visibleIf: "n == 'x'", sections: [{ id: s2, fields: [] }] }
                  - { id: four, visibleIf: "m > 1", sections: [{ id: s3, fields: [{ id: m, cell: org.formwork.integer, model: { title: M } }] }] }
                """)
        let refused = try run(Build.formwork, ["validate", conditional], environment: environment)
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("/pages/1/visibleIf: column 1: unknown field 'nope'"), "\(refused.stderr)")
        #expect(refused.stderr.contains("/pages/2/visibleIf: column 6: 'n' (a number) is compared with text"), "\(refused.stderr)")
        #expect(refused.stderr.contains("the conditions of 'm' depend on themselves"), "\(refused.stderr)")
    }

    @Test(
        "computed values: shown read-only, recomputed by validate and render, never taken from the values; the page recomputes live (headless Chromium)"
    )
    func computed() throws {
        let order = "\(Source.root)/Examples/Forms/order.yaml"
        let given = try Scratch.file("conditions/order-values.json", contents: #"{"quantity": 3, "tip": 1}"#)
        let text = try run(Build.formwork, ["render", order, "--values", given], environment: environment)
        #expect(text.stdout.contains("Total (EUR)  [            29.5] (read-only)"), "\(text.stdout)")
        let agreeing = try Scratch.file("conditions/order-agreeing.json", contents: #"{"quantity": 3, "tip": 1, "total": 29.5}"#)
        #expect(try run(Build.formwork, ["validate", order, "--values", agreeing], environment: environment).status == 0)
        let forged = try Scratch.file("conditions/order-forged.json", contents: #"{"quantity": 3, "tip": 1, "total": 1}"#)
        let refused = try run(Build.formwork, ["validate", order, "--values", forged], environment: environment)
        #expect(refused.status == 65)
        #expect(
            refused.stderr.contains(
                "/total: 'total' is computed ('quantity * 9.5 + tip' makes 29.5); the value given is not used: leave it out"),
            "\(refused.stderr)")
        let json = try run(Build.formwork, ["render", order, "--format", "json"], environment: environment).stdout
        #expect(json.contains(#""computed": "quantity * 9.5 + tip""#))
        // Refusals: arithmetic on text, a result of the wrong kind, a field without a value.
        let bad = try Scratch.file(
            "conditions/computed-bad.yaml",
            contents: """
                formwork: 1
                id: bad
                sections:
                  - id: s
                    fields:
                      - { id: name, cell: org.formwork.text-field, model: { title: Name } }
                      - { id: n, cell: org.formwork.integer, model: { title: N } }
                      - { id: twice, cell: org.formwork.integer, model: { title: Twice }, value: "name * 2" }
                      - { id: flag, cell: org.formwork.toggle, model: { title: Flag }, value: "n + 1" }
                      - { id: note, cell: org.formwork.text, model: { text: Hi }, value: "n" }
                """)
        let badResult = try run(Build.formwork, ["validate", bad], environment: environment)
        #expect(badResult.status == 65)
        #expect(
            badResult.stderr.contains("/sections/0/fields/2/value: column 1: '*' works on numbers, not 'name' (text)"),
            "\(badResult.stderr)")
        #expect(badResult.stderr.contains("/sections/0/fields/3/value: 'value' makes number but 'flag' holds bool"), "\(badResult.stderr)")
        #expect(badResult.stderr.contains("/sections/0/fields/4/value: 'note' (org.formwork.text) holds no value"), "\(badResult.stderr)")
        guard Chromium.path != nil else {
            print("skipped: chromium is not installed (apt-get install chromium)")
            return
        }
        let html = try run(Build.formwork, ["render", order, "--format", "html"], environment: environment).stdout
        let script = """
            (function () {
              var q = document.getElementById("quantity"), tip = document.getElementById("tip"), total = document.getElementById("total"), out = [];
              out.push(total.value, String(total.disabled));
              q.value = "4"; q.dispatchEvent(new Event("input", { bubbles: true })); out.push(total.value);
              tip.value = ""; tip.dispatchEvent(new Event("input", { bubbles: true })); out.push(total.value === "" ? "none" : total.value);
              tip.value = "0.5"; tip.dispatchEvent(new Event("input", { bubbles: true })); out.push(total.value, String(total.disabled));
              document.getElementById("probe").textContent = out.join(" ");
            })();
            """
        let seen = try Chromium.probe(html, script: script, name: "computed")
        #expect(seen == "12 true 40.5 none 38.5 true", "\(seen)")
    }

    @Test("a duplicate field id in a form with conditions is reported, not a trap (found by the fuzzer)")
    func duplicateIDs() throws {
        let document = try Scratch.file(
            "conditions/duplicate.yaml",
            contents: """
                formwork: 1
                id: dup
                sections:
                  - id: s
                    visibleIf: "a == 'x'"
                    fields:
                      - { id: b, cell: org.formwork.text-field, model: { title: B } }
                      - { id: b, cell: org.formwork.text-field, model: { title: B again }, visibleIf: "b is empty" }
                  - id: t
                    fields: [{ id: a, cell: org.formwork.text-field, model: { title: A } }]
                """)
        let result = try run(Build.formwork, ["validate", document], environment: environment)
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains("duplicate field id 'b'"), "\(result.stderr)")
    }

    @Test("choices written with typed values are typed in conditions: validate and the page agree (headless Chromium)")
    func typedChoices() throws {
        let form = Source.root + "/Tests/Fixtures/typed-choices.yaml"
        #expect(try run(Build.formwork, ["validate", form], environment: environment).status == 0)
        let shown = try Scratch.file(
            "conditions/typed-shown.json", contents: #"{"visits": 12, "why": "often", "loyal": "y", "agree": false, "reason": "r"}"#)
        #expect(try run(Build.formwork, ["validate", form, "--values", shown], environment: environment).status == 0)
        let hidden = try Scratch.file("conditions/typed-hidden.json", contents: #"{"visits": 1, "why": "x"}"#)
        let refused = try run(Build.formwork, ["validate", form, "--values", hidden], environment: environment)
        #expect(refused.status == 65 && refused.stderr.contains("which is hidden (its visibleIf \"visits == 12\""), "\(refused.stderr)")
        guard Chromium.path != nil else {
            print("skipped: chromium is not installed (apt-get install chromium)")
            return
        }
        let html = try run(Build.formwork, ["render", form, "--format", "html"], environment: environment).stdout
        let script = """
            (function () {
              var v = document.getElementById("visits"), w = document.querySelector('[data-field="why"]');
              var l = document.querySelector('[data-field="loyal"]'), out = [];
              ["12", "4", "1"].forEach(function (x) {
                v.value = x; v.dispatchEvent(new Event("change", { bubbles: true }));
                out.push(x + ":" + (w.hidden ? "hidden" : "shown") + "/" + (l.hidden ? "hidden" : "shown"));
              });
              document.getElementById("probe").textContent = out.join(" ");
            })();
            """
        let seen = try Chromium.probe(html, script: script, name: "typed-choices")
        #expect(seen == "12:shown/shown 4:hidden/shown 1:hidden/hidden", "\(seen)")
    }

    @Test(
        "\"\" is no value: rules speak only about answers given, and equals compares what is there",
        arguments: [
            (#"{"phone": ""}"#, nil), (#"{}"#, nil), (#"{"phone": "", "again": ""}"#, nil),
            (#"{"phone": "0123456789"}"#, "Phone again must match Phone."),
            (#"{"phone": "0123456789", "again": ""}"#, "Phone again must match Phone."),
            (#"{"phone": "12"}"#, "Phone needs at least 10 characters."),
        ] as [(String, String?)])
    func emptyIsNoValue(values: String, problem: String?) throws {
        let form = try Scratch.file(
            "conditions/empty.yaml",
            contents: """
                formwork: 1
                id: empty
                sections:
                  - id: s
                    fields:
                      - { id: phone, cell: org.formwork.text-field, model: { title: Phone }, rules: { minLength: 10 } }
                      - { id: again, cell: org.formwork.text-field, model: { title: Phone again }, rules: { equals: phone } }
                """)
        let file = try Scratch.file("conditions/empty-\(abs(values.hashValue)).json", contents: values)
        let result = try run(Build.formwork, ["validate", form, "--values", file], environment: environment)
        if let problem {
            #expect(result.status == 65 && result.stderr.contains(problem), "\(values): \(result.stderr)")
        } else {
            #expect(result.status == 0, "\(values): \(result.stderr)")
        }
    }

    @Test("a blank form shows no cross-field rule's message before anyone answers; a submission with the answers does")
    func blankFormHasNoRuleErrors() throws {
        let form = try Scratch.file(
            "conditions/toppings.yaml",
            contents: """
                formwork: 1
                id: pizza
                sections:
                  - id: s
                    fields:
                      - id: cheese
                        cell: org.formwork.toggle
                        model: { title: Cheese, value: false }
                        rules: { expression: { value: "cheese or ham", message: At least one topping is required. } }
                      - { id: ham, cell: org.formwork.toggle, model: { title: Ham, value: false } }
                """)
        // Under AddressSanitizer, LeakSanitizer reports the parsed conditions of a rendered form as leaked at exit
        // (ConditionParser's boxes; render of any form with a condition, register.yaml too): a finding of its own,
        // noted in the issue. What this test checks is the output, so leak checking is off for these runs.
        var environment = self.environment
        environment["ASAN_OPTIONS"] = "detect_leaks=0"
        for format in ["text", "html"] {
            let blank = try run(Build.formwork, ["render", form, "--format", format], environment: environment)
            #expect(blank.status == 0 && !blank.stdout.contains("topping") && !blank.stdout.contains("aria-invalid=\"true\""))
        }
        let values = try Scratch.file("conditions/toppings.json", contents: #"{"cheese": false, "ham": false}"#)
        let answered = try run(Build.formwork, ["render", form, "--values", values], environment: environment)
        #expect(answered.stdout.contains("At least one topping is required."), "\(answered.stdout)")
    }
}
