import Foundation
import FormworkServer
import FormworkTestSupport
import HummingbirdTesting
import Testing

/// `formwork validate --values` and the server give the same verdict — the same problems, pointers and messages — on
/// every values case of `Tests/Fixtures/values` (each against its example form).
@Suite("Server and validate agree")
struct DifferentialTests {
    struct Case: Sendable {
        let form: String
        let name: String
        let values: String
    }

    static let cases: [Case] = {
        let folder = Source.fixture("values")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return files.sorted().filter { $0.hasSuffix(".cases.json") }.flatMap { file -> [Case] in
            let form = String(file.dropLast(".cases.json".count))
            guard let data = FileManager.default.contents(atPath: "\(folder)/\(file)"),
                let list = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]]
            else { return [] }
            return list.compactMap { item in
                guard let name = item["name"] as? String, let values = item["values"],
                    let text = try? JSONSerialization.data(withJSONObject: values, options: [.fragmentsAllowed])
                else { return nil }
                return Case(form: form, name: name, values: String(decoding: text, as: UTF8.self))
            }
        }
    }()

    /// The problems `formwork validate` prints: "formwork: error: FILE:LINE: POINTER: MESSAGE" → (pointer, message).
    static func validateProblems(_ stderr: String, file: String) -> [String] {
        stderr.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("formwork: error: ") else { return nil }
            var rest = line.dropFirst("formwork: error: ".count)
            if rest.hasPrefix(file) {
                rest = rest.dropFirst(file.count)
                // ":LINE: " when the problem has a line, then ": ".
                if rest.hasPrefix(":"), rest.dropFirst().first?.isNumber == true { rest = rest.dropFirst().drop { $0.isNumber } }
                if rest.hasPrefix(": ") { rest = rest.dropFirst(2) }
            }
            return String(rest)
        }.sorted()
    }

    @Test("every values case: the same problems from `formwork validate` and from POST /api/forms/{id}/submissions")
    func agree() async throws {
        #expect(Self.cases.count >= 50, "the cases were not found")
        let forms = Set(Self.cases.map { $0.form + ".yaml" }).sorted()
        let fixture = try ServerFixture(name: "differential", forms: forms)
        try await fixture.test { client throws in
            for c in Self.cases {
                let file = try Scratch.file("differential/\(c.form)-\(c.name.hashValue).json", contents: c.values)
                let cli = try run(
                    Build.formwork, ["validate", "\(fixture.folder)/\(c.form).yaml", "--values", file, "--pack-path", Build.directory])
                let expected = Self.validateProblems(cli.stderr, file: file)
                let response = try await client.submit(c.form, json: c.values)
                var got: [String] = []
                if response.status == .unprocessableContent, let problem = response.json as? [String: Any] {
                    got = ((problem["errors"] as? [[String: Any]]) ?? []).map {
                        "\($0["pointer"] as? String ?? ""): \($0["message"] as? String ?? "")"
                    }
                    .sorted()
                }
                if cli.status == 0 {
                    #expect(
                        response.status == .created,
                        "\(c.form) / \(c.name): validate accepts, the server says \(response.status): \(response.text)")
                } else if cli.status == 65 {
                    #expect(got == expected, "\(c.form) / \(c.name)")
                } else {
                    Issue.record("\(c.form) / \(c.name): validate exited \(cli.status): \(cli.stderr)")
                }
            }
        }
    }
}
