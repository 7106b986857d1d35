import Testing
@testable import FormworkCore

@Suite("Validation rules")
struct FieldRulesTests {
    let catalog = InMemory.Catalog()

    func decode(_ rules: String, value: String = "") throws -> Form {
        try FormDecoder.decode(
            text: """
                formwork: 1
                id: r
                sections: [{ id: s, fields: [{ id: f, cell: test.text-field, model: { title: Code\(value) }, rules: \(rules) }] }]
                """, json: false, registry: catalog)
    }

    func problems(_ text: String) -> [String] {
        do { _ = try FormDecoder.decode(text: text, json: false, registry: catalog); return [] } catch {
            if case .invalid(let d) = error { return d.map { "\($0.pointer): \($0.message)" } }
            return ["\(error)"]
        }
    }

    @Test("each rule, with its own message or the standard wording")
    func rules() throws {
        var r = FieldRules()
        r.minLength = .init(3)
        r.maxLength = .init(5, message: "Five at most.")
        r.pattern = .init("[A-Z]+[0-9]*")
        r.format = .init(.email)
        #expect(
            r.problems(.string("ab"), label: "Code") == ["Code needs at least 3 characters.", "Code is not in the expected form."] + [
                "Code must be an e-mail address such as name@example.com."
            ])
        #expect(r.problems(.string("ABCDEF"), label: "Code").contains("Five at most."))
        var n = FieldRules()
        n.minimum = .init(1); n.maximum = .init(10, message: "Ten at most."); n.step = .init(0.5)
        #expect(n.problems(.number(0.5), label: "N") == ["N must be 1 or more."])
        #expect(n.problems(.number(1.25), label: "N") == ["N must be a multiple of 0.5."])
        #expect(n.problems(.integer(11), label: "N") == ["Ten at most."])
        var l = FieldRules()
        l.maxItems = .init(1)
        #expect(l.problems(.stringList(["a", "b"]), label: "L") == ["Choose at most 1 for L."])
    }

    @Test("formats agree with what browsers and JSON Schema accept")
    func formats() throws {
        #expect(FieldRules.isValid("ada@example.com", as: .email) && !FieldRules.isValid("ada@example", as: .email))
        #expect(!FieldRules.isValid("a da@example.com", as: .email))
        #expect(FieldRules.isValid("https://example.com/x", as: .url) && !FieldRules.isValid("example.com", as: .url))
        #expect(FieldRules.isValid("+33 (1) 23-45", as: .tel) && !FieldRules.isValid("call me", as: .tel))
        #expect(FieldRules.isValid("2026-02-28", as: .date) && !FieldRules.isValid("2026-02-30", as: .date))
        #expect(FieldRules.isValid("123e4567-e89b-12d3-a456-426614174000", as: .uuid))
        for good in ["mailto:ada@example.com", "urn:isbn:0451450523", "tel:+33123", "ftp://x.example/a", "HTTPS://e.x", "a+b.c-d:x"] {
            #expect(FieldRules.isValid(good, as: .uri), "\(good)")
        }
        for bad in ["example.com", ":x", "1ab:x", "mailto:", "mailto:a b", "ma_il:x", "a\u{1}:x", "é:x"] {
            #expect(!FieldRules.isValid(bad, as: .uri), "\(bad)")
        }
        for good in ["09:30", "00:00", "23:59:59"] { #expect(FieldRules.isValid(good, as: .time), "\(good)") }
        for bad in ["24:00", "9:30", "09:60", "09:30:60", "09:30Z", "2026-11-21", "09-30"] {
            #expect(!FieldRules.isValid(bad, as: .time), "\(bad)")
        }
        // The browser's pattern for a format says what the host says, on the same samples.
        let samples = [
            "09:30", "23:59:59", "24:00", "9:30", "mailto:ada@example.com", "urn:x", "example.com", "http://a", "https://",
            "a:b c", "http://e.x/y",
        ]
        for format in FieldRules.Format.allCases {
            guard let source = format.browserPattern else { continue }
            let pattern = try Pattern(source)
            #expect(pattern.isBrowserCompatible, "\(format)")
            for sample in samples {
                #expect(pattern.matchesWhole(sample) == FieldRules.isValid(sample, as: format), "\(format): \(sample)")
            }
        }
        // A date picker for a time of day takes what an HTML time input posts.
        #expect(DateFormat.parse("09:30") == 34200 && DateFormat.parse("09:30:15") == 34215 && DateFormat.parse("25:00") == nil)
    }

    @Test("rules are checked against the value's type, and patterns that cannot be matched in linear time are refused")
    func decoding() throws {
        let form = try decode("{ minLength: 2, pattern: { value: '[a-z]+', message: Lowercase only. }, format: email }")
        #expect(form.fields[0].rules.minLength == .init(2))
        #expect(form.fields[0].rules.pattern == .init("[a-z]+", message: "Lowercase only."))
        let text = { (rules: String) in
            "formwork: 1\nid: r\nsections: [{ id: s, fields: [{ id: f, cell: test.text-field, model: { title: T }, rules: \(rules) }] }]\n"
        }
        #expect(
            problems(text("{ minimum: 3 }")) == [
                "/sections/0/fields/0/rules/minimum: 'minimum' applies to number values, but this field's value is string"
            ])
        // Nested quantifiers are matched in linear time now: accepted. What cannot be is refused with the reason.
        #expect(problems(text("{ pattern: '(a+)+$' }")).isEmpty)
        #expect(problems(text("{ pattern: '[' }")).first?.contains("is not a pattern Formwork can match: unclosed '['") == true)
        #expect(problems(text("{ pattern: '(a)\\1' }")).first?.contains("back-references") == true)
        #expect(problems(text("{ format: phone }")).first?.contains("unknown format; use one of email, url, tel, date, uuid") == true)
        #expect(problems(text("{ minLength: 5, maxLength: 2 }")).first?.contains("minLength 5 is greater than maxLength 2") == true)
        #expect(problems(text("{ colour: red }")).first?.contains("unknown key 'colour' in rules") == true)
        // A value written in the document is checked too.
        let valued =
            "formwork: 1\nid: r\nsections: [{ id: s, fields: [{ id: f, cell: test.text-field, model: { title: T, value: x }, rules: { minLength: 2 } }] }]\n"
        #expect(problems(valued) == ["/sections/0/fields/0/model/value: T needs at least 2 characters."])
    }

    @Test("values: validate reports broken rules, render keeps the value and shows them under the field")
    func values() throws {
        let text =
            "formwork: 1\nid: r\nsections: [{ id: s, fields: [{ id: f, cell: test.text-field, required: true, model: { title: Code }, rules: { required: Give a code., minLength: 3 } }] }]\n"
        var strict = try FormDecoder.decode(text: text, json: false, registry: catalog)
        let error = #expect(throws: FormError.self) { try ValuesFile.apply(["f": .string("ab")], to: &strict) }
        guard case .invalid(let d)? = error else { Issue.record("not invalid"); return }
        #expect(d.map(\.message) == ["Code needs at least 3 characters."])
        var missing = try FormDecoder.decode(text: text, json: false, registry: catalog)
        let missingError = #expect(throws: FormError.self) { try ValuesFile.apply([:], to: &missing) }
        if case .invalid(let m)? = missingError { #expect(m.map(\.message) == ["Give a code."]) }
        var lenient = try FormDecoder.decode(text: text, json: false, registry: catalog)
        try ValuesFile.apply(SourceNode(.object([("f", .string("ab"))])), to: &lenient, file: nil, requireComplete: false)
        let tree = try FormRuntime(driver: InMemory.Driver()).render(lenient)
        #expect(tree.sections[0].fields[0].nodes.contains(.message(kind: .error, text: "Code needs at least 3 characters.")))
        let html = Renderer.render(tree, as: .html)
        #expect(html.contains("minlength=\"3\"") && html.contains("aria-invalid=\"true\""))
    }
}

@Suite("Patterns: matched in linear time")
struct PatternTests {
    @Test(
        "the dialect matches as ECMAScript does, the whole value",
        arguments: [
            ("[A-Z]{2}[0-9]{4}", "AB1234", true), ("[A-Z]{2}[0-9]{4}", "AB12345", false), ("(ab)+", "ababab", true),
            ("(ab)+", "aba", false), ("(a|b)c+", "bccc", true), ("\\(a+\\)+", "(aa)", true), ("[^@ ]+@[^@ ]+", "a@b", true),
            ("[^@ ]+@[^@ ]+", "a b@c", false), ("\\d{3}-\\d{4}", "555-1234", true), ("colou?r", "color", true),
            ("a.c", "a\nc", false), ("a.c", "abc", true), ("^x$", "x", true), ("(?:x|yz)*", "xyzx", true), ("\\w+\\s\\w+", "a b", true),
            ("[a\\-z]+", "a-z", true), ("x{2,3}", "xxxx", false), ("x{2,}", "xxxx", true), ("[\\u00e9e]", "é", true),
            ("(a+)+", "aaaa", true), ("(a|aa)+", "aaaaa", true), ("", "", true), ("", "x", false),
        ])
    func matches(pattern: String, value: String, expected: Bool) throws {
        #expect(try Pattern(pattern).matchesWhole(value) == expected, "\(pattern) against \(value)")
    }

    @Test(
        "the patterns that hang a backtracking engine answer at once on long values",
        arguments: ["(a?){25}a{25}", ".*.*.*.*.*.*.*.*.*=", "(a+)+$", "(a|aa)+b", "(x+x+)+y", "([a-z]+)*@"])
    func linear(pattern: String) throws {
        let compiled = try Pattern(pattern)
        let value = String(repeating: "a", count: 20_000)
        let clock = ContinuousClock()
        let elapsed = clock.measure { _ = compiled.matchesWhole(value) }
        // Linear: a backtracking engine takes hours here; a generous bound for a debug build under load.
        #expect(elapsed < .seconds(5), "\(pattern): \(elapsed)")
    }

    @Test(
        "what cannot be matched in linear time is refused with a reason",
        arguments: [
            ("(a\\1?)+b", "back-references"), ("(?=a)b", "look-arounds"), ("(?<!a)b", "look-arounds"), ("a{2,1}", "out of order"),
            ("(ab", "unclosed '('"), ("ab)", "unmatched ')'"), ("a**", "a quantifier cannot follow"), ("[ab", "unclosed '['"),
            ("x{1001}", "above 1000"), ("(((a{1000}){1000}){1000})", "too large"),
        ])
    func refused(pattern: String, reason: String) {
        do {
            _ = try Pattern(pattern)
            Issue.record("\(pattern) was accepted")
        } catch {
            #expect(error.description.contains(reason), "\(pattern): \(error.description)")
        }
    }

    @Test("a browser reads the same pattern: classes with what the v flag requires escaped are kept from the HTML")
    func browserCompatible() throws {
        #expect(try Pattern("[A-Z]{2}[0-9]{4}").isBrowserCompatible)
        #expect(try !Pattern("[(]x").isBrowserCompatible)
        #expect(try !Pattern("[a|b]").isBrowserCompatible)
    }
}
