import Foundation
import FormworkServer
import FormworkTestSupport
import Testing

/// Answers that survive a form's change: one form through five revisions (a rename, a removal, a new required field,
/// changed choices, a stricter rule), a submission stored under each by a real `formwork serve`, then read back in
/// the current revision's shape by `formwork submissions export --as-current` and compared with a golden file.
@Suite("Revisions", .serialized)
struct RevisionTests {
    static let revisions: [String] = [
        // 1: the first version.
        """
        formwork: 1
        id: club
        title: Club
        sections:
          - id: s
            fields:
              - {id: name, cell: org.formwork.text-field, required: true, model: {title: Name}}
              - {id: nick, cell: org.formwork.text-field, model: {title: Nickname}}
              - {id: phone, cell: org.formwork.text-field, model: {title: Phone}}
              - {id: fax, cell: org.formwork.text-field, model: {title: Fax}}
              - {id: plan, cell: org.formwork.picker, model: {title: Plan, choices: [Basic, Pro]}}
        """,
        // 2: nick renamed (declared); fax gone without a word.
        """
        formwork: 1
        id: club
        title: Club
        sections:
          - id: s
            fields:
              - {id: name, cell: org.formwork.text-field, required: true, model: {title: Name}}
              - {id: nickname, cell: org.formwork.text-field, renamedFrom: nick, model: {title: Nickname}}
              - {id: phone, cell: org.formwork.text-field, model: {title: Phone}}
              - {id: plan, cell: org.formwork.picker, model: {title: Plan, choices: [Basic, Pro]}}
        """,
        // 3: phone removed, its answers kept.
        """
        formwork: 1
        id: club
        title: Club
        removed: [{id: phone, keepAs: legacy_phone}]
        sections:
          - id: s
            fields:
              - {id: name, cell: org.formwork.text-field, required: true, model: {title: Name}}
              - {id: nickname, cell: org.formwork.text-field, renamedFrom: nick, model: {title: Nickname}}
              - {id: plan, cell: org.formwork.picker, model: {title: Plan, choices: [Basic, Pro]}}
        """,
        // 4: a required e-mail.
        """
        formwork: 1
        id: club
        title: Club
        sections:
          - id: s
            fields:
              - {id: name, cell: org.formwork.text-field, required: true, model: {title: Name}}
              - {id: nickname, cell: org.formwork.text-field, model: {title: Nickname}}
              - {id: email, cell: org.formwork.text-field, required: true, model: {title: E-mail}}
              - {id: plan, cell: org.formwork.picker, model: {title: Plan, choices: [Basic, Pro]}}
        """,
        // 5: Pro becomes Premium.
        """
        formwork: 1
        id: club
        title: Club
        sections:
          - id: s
            fields:
              - {id: name, cell: org.formwork.text-field, required: true, model: {title: Name}}
              - {id: nickname, cell: org.formwork.text-field, model: {title: Nickname}}
              - {id: email, cell: org.formwork.text-field, required: true, model: {title: E-mail}}
              - {id: plan, cell: org.formwork.picker, model: {title: Plan, choices: [Basic, Premium]}}
        """,
        // 6: a stricter rule on the name.
        """
        formwork: 1
        id: club
        title: Club
        sections:
          - id: s
            fields:
              - {id: name, cell: org.formwork.text-field, required: true, model: {title: Name}, rules: {minLength: 5}}
              - {id: nickname, cell: org.formwork.text-field, model: {title: Nickname}}
              - {id: email, cell: org.formwork.text-field, required: true, model: {title: E-mail}}
              - {id: plan, cell: org.formwork.picker, model: {title: Plan, choices: [Basic, Premium]}}
        """,
    ]

    static let answers: [String] = [
        #"{"name": "Ada", "nick": "ada", "phone": "555-0100", "fax": "555-0199", "plan": "Pro"}"#,
        #"{"name": "Bob Brown", "nickname": "bob", "phone": "555-0101", "plan": "Basic"}"#,
        #"{"name": "Cy Young", "nickname": "cy", "plan": "Pro"}"#,
        #"{"name": "Di Prince", "email": "di@example.com", "plan": "Basic"}"#,
        #"{"name": "Ed Norton", "email": "ed@example.com", "plan": "Premium"}"#,
        #"{"name": "Fiona Apple", "email": "fiona@example.com"}"#,
    ]

    @Test("a submission under each of six revisions, exported as the current one: renamed, kept, dropped, missing, invalid")
    func exportAsCurrent() async throws {
        let folder = try formsFolder("revisions", forms: [])
        let path = "\(folder)/club.yaml"
        try Self.revisions[0].write(toFile: path, atomically: true, encoding: .utf8)
        let token = "reader-" + String(repeating: "7f", count: 20)
        let tokenFile = "\(folder)/../revisions-reader-token"
        try (token + "\n").write(toFile: tokenFile, atomically: true, encoding: .utf8)
        chmod(tokenFile, 0o600)
        // Request lines are logged (info): the draft's token must not be in them.
        let server = try ServeProcess([folder, "--reader-token-file", tokenFile, "--log-level", "info"])
        defer { _ = server.stop() }
        var draftToken = ""
        for (i, revision) in Self.revisions.enumerated() {
            if i > 0 {
                try revision.write(toFile: path, atomically: true, encoding: .utf8)
                // The catalog looks at the disk at most once a second: wait until the new revision is served.
                let field = i == 1 ? "nickname" : i == 3 ? "email" : i == 4 ? "Premium" : i == 5 ? "minLength" : "legacy"
                for _ in 0..<50 {
                    let schema = try await server.request(.GET, "/api/forms/club/schema")
                    if i == 2 || schema.body.contains(field) { break }
                    try await Task.sleep(for: .milliseconds(100))
                }
                if i == 2 { try await Task.sleep(for: .milliseconds(1500)) }
            }
            let response = try await server.request(
                .POST, "/api/forms/club/submissions", body: Self.answers[i], headers: [("Content-Type", "application/json")])
            #expect(response.status == 201, "revision \(i + 1): \(response.body)")
            if i == 0 {
                // A draft saved under the first revision, resumed under the last.
                let draft = try await server.request(
                    .POST, "/api/forms/club/drafts", body: #"{"nick": "zed"}"#, headers: [("Content-Type", "application/json")])
                #expect(draft.status == 201)
                let object = try #require(JSONSerialization.jsonObject(with: Data(draft.body.utf8)) as? [String: Any])
                draftToken = try #require(object["token"] as? String)
            }
        }
        let resumed = try await server.request(.GET, "/forms/club/drafts/\(draftToken)")
        #expect(resumed.status == 200)
        #expect(resumed.body.contains("name=\"nickname\"") && resumed.body.contains("value=\"zed\""))
        #expect(resumed.body.contains("This form changed since your answers were saved"))
        // The same reading over HTTP, for the holder of the reader token only.
        #expect(try await server.request(.GET, "/api/forms/club/submissions").status == 401)
        #expect(try await server.request(.GET, "/api/forms/club/submissions", headers: [("Authorization", "Bearer wrong")]).status == 401)
        let listed = try await server.request(
            .GET, "/api/forms/club/submissions?as=current&limit=2", headers: [("Authorization", "Bearer \(token)")])
        #expect(listed.status == 200)
        let page = try #require(JSONSerialization.jsonObject(with: Data(listed.body.utf8)) as? [String: Any])
        let first = try #require((page["submissions"] as? [[String: Any]])?.first)
        #expect((first["values"] as? [String: Any])?["nickname"] as? String == "ada")
        #expect((first["kept"] as? [String: Any])?["legacy_phone"] as? String == "555-0100")
        #expect((first["report"] as? [[String: Any]])?.count == 6)
        #expect(page["next"] is Int)
        let bad = try await server.request(.GET, "/api/forms/club/submissions?as=later", headers: [("Authorization", "Bearer \(token)")])
        #expect(bad.status == 400)
        // Operations: the store's latency and the cell hosts started are on /metrics.
        let metrics = try await server.request(.GET, "/metrics")
        #expect(metrics.body.contains("formwork_store_seconds") && metrics.body.contains("operation=\"insert\""))
        #expect(metrics.body.contains("formwork_cell_hosts_started_total"))
        #expect(metrics.body.contains("outcome=\"draft-saved\""))
        #expect(server.stop() == 0)
        let log = String(decoding: server.stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(log.contains("path=/forms/club/drafts/…"))
        #expect(!log.contains(draftToken), "the draft's token was logged")
        #expect(!log.contains(token), "the reader token was logged")

        let export = try run(Build.formwork, ["submissions", "export", "club", "--forms", folder, "--as-current"])
        #expect(export.status == 0, "\(export.stderr)")
        // Ids and times differ from run to run; revisions are the documents' hashes and do not.
        let normalized = export.stdout.replacingOccurrences(of: #""id":"[0-9a-f]{32}""#, with: #""id":"…""#, options: .regularExpression)
            .replacingOccurrences(of: #""receivedAt":"[^"]*""#, with: #""receivedAt":"…""#, options: .regularExpression)
        try Golden.check(normalized, against: "server/club-as-current.jsonl")
        let csv = try run(Build.formwork, ["submissions", "export", "club", "--forms", folder, "--as-current", "--format", "csv"])
        #expect(csv.stdout.hasPrefix("id,receivedAt,revision,name,nickname,plan,legacy_phone,report,email"), "\(csv.stdout.prefix(200))")

        // validate --previous: the unexplained drop of revision 2 is a warning; the declared ones are not.
        let previous = "\(folder)/club-1.yaml", second = "\(folder)/club-2.yaml"
        try Self.revisions[0].write(toFile: previous, atomically: true, encoding: .utf8)
        try Self.revisions[1].write(toFile: second, atomically: true, encoding: .utf8)
        let check = try run(Build.formwork, ["validate", second, "--previous", previous])
        #expect(check.status == 0)
        #expect(check.stderr.contains("field 'fax' of the previous revision is gone"))
        #expect(!check.stderr.contains("'nick'"))
    }
}
