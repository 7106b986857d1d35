import Foundation
import Testing
@testable import FormworkCore
import FormworkTestSupport

/// The condition language: the shared test vectors (evaluated here and, by the same
/// evaluator the HTML page embeds, in headless Chromium), and the parser's refusals.
@Suite("Conditions")
struct ConditionTests {
    struct Vector {
        let expression: String
        let values: [String: Value]
        let valuesJSON: String
        let expected: Bool
    }

    static func vectors() throws -> [Vector] {
        let text = try String(contentsOfFile: Source.fixture("conditions/vectors.json"), encoding: .utf8)
        guard case .array(let items)? = JSON.parse(text) else { throw CocoaError(.fileReadCorruptFile) }
        return items.compactMap { item -> Vector? in
            guard case .object(let members) = item else { return nil }
            let get = { (key: String) in members.first { $0.0 == key }?.1 }
            guard case .string(let expression)? = get("expression"), case .bool(let expected)? = get("expected"),
                case .object(let valueMembers)? = get("values")
            else { return nil }
            var values: [String: Value] = [:]
            for (key, json) in valueMembers {
                switch json {
                case .string(let s): values[key] = .string(s)
                case .bool(let b): values[key] = .bool(b)
                case .integer(let n): values[key] = .integer(n)
                case .number(let d): values[key] = .number(d)
                case .array(let list): values[key] = .stringList(list.compactMap { if case .string(let s) = $0 { s } else { nil } })
                default: break
                }
            }
            return Vector(
                expression: expression, values: values, valuesJSON: get("values")!.serialized(pretty: false), expected: expected)
        }
    }

    @Test("every shared vector evaluates as expected in Swift")
    func swiftVectors() throws {
        let vectors = try Self.vectors()
        #expect(vectors.count >= 40)
        for v in vectors {
            let condition = try ConditionParser.parse(v.expression, fields: nil)
            #expect(condition.holds { v.values[$0] } == v.expected, "\(v.expression) with \(v.valuesJSON)")
        }
    }

    @Test("the page's evaluator gives the same answers in headless Chromium")
    func chromiumVectors() throws {
        guard Chromium.path != nil else {
            print("skipped: chromium is not installed (apt-get install chromium); the Swift side ran in 'swiftVectors'")
            return
        }
        let vectors = try Self.vectors()
        let cases = try vectors.map { v in
            "[\(try ConditionParser.parse(v.expression, fields: nil).json.serialized(pretty: false)), \(v.valuesJSON)]"
        }
        let page = """
            <!DOCTYPE html><html><head><meta charset="utf-8"></head><body><pre id="out"></pre><script>
            \(HTMLRenderer.conditionEvaluator)
            var cases = [\(cases.joined(separator: ",\n"))];
            document.getElementById("out").textContent = cases.map(function (c) {
              return holds(c[0], function (id) { return Object.prototype.hasOwnProperty.call(c[1], id) ? c[1][id] : null; }) ? "1" : "0";
            }).join("");
            </script></body></html>
            """
        let file = try Scratch.file("conditions/vectors.html", contents: page)
        let result = try Chromium.dumpDOM(of: file, profile: "profile")
        let dom = result.stdout
        guard let start = dom.range(of: "<pre id=\"out\">"), let end = dom.range(of: "</pre>", range: start.upperBound..<dom.endIndex)
        else {
            Issue.record("no result in Chromium's DOM: \(result.stderr.suffix(500))")
            return
        }
        let answers = Array(dom[start.upperBound..<end.lowerBound])
        #expect(answers.count == vectors.count, "\(String(answers))")
        for (v, answer) in zip(vectors, answers) {
            #expect((answer == "1") == v.expected, "Chromium: \(v.expression) with \(v.valuesJSON)")
        }
    }

    @Test(
        "mistakes are refused with the column and what to do",
        arguments: [
            ("agee > 3", 1, "unknown field 'agee'; did you mean 'age'?"),
            ("age > 'x'", 7, "'>' orders two numbers or two texts; it cannot compare 'age' (a number) with text"),
            ("country == 3", 12, "'country' (text) is compared with a number; they can never be equal"),
            ("country = 'NL'", 9, "'=' is not an operator; compare with '=='"),
            ("age > 3 && ok", 9, "'&' is not an operator; write 'and'"),
            ("name == 'open", 9, "the string is not closed"),
            ("(age > 3", 9, "expected ')' to close the '(' at column 1"),
            ("age >", 6, "expected a value or a field id, found end of the expression"),
            ("ok in 'x'", 7, "'in' needs a list on its right"),
            ("age > 3 ok", 9, "unexpected 'ok'"),
            ("[1, age]", 5, "a list holds texts, numbers or true/false"),
        ])
    func refusals(_ expression: String, _ column: Int, _ message: String) {
        let fields: [String: ConditionType] = ["age": .number, "country": .text, "name": .text, "ok": .bool, "extras": .list]
        do {
            _ = try ConditionParser.parse(expression, fields: fields)
            Issue.record("'\(expression)' was accepted")
        } catch {
            #expect(error.column == column, "\(expression): \(error.message)")
            #expect(error.message.contains(message), "\(expression): \(error.message)")
        }
    }

    @Test("hostile expressions: deep nesting and long input are refused, never trap")
    func hostile() {
        let deep = String(repeating: "(", count: 5000) + "a" + String(repeating: ")", count: 5000)
        #expect(throws: ConditionError.self) { try ConditionParser.parse(deep, fields: nil) }
        let nots = String(repeating: "not ", count: 5000) + "a"
        #expect(throws: ConditionError.self) { try ConditionParser.parse(nots, fields: nil) }
        let long = Array(repeating: "a", count: 3000).joined(separator: " or ")
        #expect(throws: ConditionError.self) { try ConditionParser.parse(long, fields: nil) }
        #expect(throws: ConditionError.self) { try ConditionParser.parse("x == 1e999", fields: nil) }
    }
}
