import Foundation
import Testing

/// The `formwork` executable, run as a real process.
@Suite("formwork command")
struct CommandTests {
    let environment = ["PATH": "/usr/bin:/bin", "HOME": Scratch.directory]

    @Test("list --json shows the 8 standard cells and the C pack's cells")
    func listJSON() throws {
        let result = try run(Build.formwork, ["list", "--json"], environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let packs = object?["packs"] as? [[String: Any]] ?? []
        let cells = packs.flatMap { ($0["cells"] as? [[String: Any]]) ?? [] }
        #expect(cells.count == 10)
        let rating = cells.first { $0["id"] as? String == "org.formwork.c.rating" }
        #expect(rating?["configure"] as? String == "typed")
        let field = cells.first { $0["id"] as? String == "org.formwork.text-field" }
        #expect(field?["textInput"] as? String == "textField")
    }

    @Test("list reports a broken pack and still lists the good ones")
    func listBroken() throws {
        let broken = try CCompiler.pack("cli-broken", defines: ["FIXTURE_MIN_GT_MAX"])
        let result = try run(Build.formwork, ["list", "--pack-path", broken], environment: environment)
        #expect(result.status == 0)
        #expect(result.stdout.contains("org.formwork.text-field"))
        #expect(result.stdout.contains("\(broken): cell type 'com.example.fixture.counter' field 'count': minimum 10 is greater than maximum 1"))
    }

    @Test("inspect of an unknown cell exits 69 with one line naming near matches")
    func inspectUnknown() throws {
        let result = try run(Build.formwork, ["inspect", "org.formwork.toggel"], environment: environment)
        #expect(result.status == 69)
        #expect(result.stderr.hasPrefix("formwork: error: no cell type 'org.formwork.toggel' is registered; did you mean 'org.formwork.toggle'?"))
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test("inspect prints the schema table; bad usage exits 64")
    func inspectText() throws {
        let result = try run(Build.formwork, ["inspect", "org.formwork.c.money"], environment: environment)
        #expect(result.status == 0)
        #expect(result.stdout.contains("configure:    typed (byPointer, 56 bytes, alignment 8)"))
        #expect(result.stdout.contains("currency      choice             \"EUR\"    one of EUR|USD|GBP|JPY"))
        let usage = try run(Build.formwork, ["inspect"], environment: environment)
        #expect(usage.status == 64)
    }

    @Test("FORMWORK_PACK_PATH adds packs")
    func environmentPath() throws {
        let good = try CCompiler.pack("cli-env")
        var env = environment
        env["FORMWORK_PACK_PATH"] = (good as NSString).deletingLastPathComponent
        let result = try run(Build.formwork, ["inspect", "com.example.fixture.counter", "--json"], environment: env)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\"convention\": \"byPointer\""))
    }
}
