import Foundation
import Testing

@testable import formwork
import FormworkCore
import FormworkHost
import FormworkTestSupport

/// `list` and `inspect` reports (the command's own formatting).
@Suite("list and inspect reports")
struct ReportsTests {
    @Test("list --json and inspect --json match their golden files")
    func goldenJSON() throws {
        let registry = firstPartyRegistry()
        try Golden.check(Golden.normalize(Reports.listJSON(registry).serialized()) + "\n", against: "list.json")
        for id in ["org.formwork.text-field", "org.formwork.date-picker", "org.formwork.c.rating"] {
            try Golden.check(
                Golden.normalize(Reports.inspectJSON(try registry.cellType(id)).serialized()) + "\n",
                against: "inspect-\(id).json")
        }
    }

    @Test("list's text matches its golden file: a table a pack, a shadowed cell type, a broken pack under Problems")
    func goldenText() throws {
        // Two builds of one pack (the second's cell type is shadowed by the first's) and a pack its loader refuses,
        // before the first-party packs.
        let first = try CCompiler.pack("list-text-first")
        let second = try CCompiler.pack("list-text-second")
        let broken = try CCompiler.pack("list-text-broken", defines: ["FIXTURE_MIN_GT_MAX"])
        let text = Reports.listText(firstPartyRegistry(plus: [first, second, broken]))
        try Golden.check(Golden.normalize(text), against: "list.txt")
        #expect(text.contains("shadowed by \(first)"), "\(text)")
    }

    @Test("list's text with no packs names the folders it searched")
    func emptyText() {
        let text = Reports.listText(Registry(locations: [SearchLocation(path: "/no/such/dir", origin: .option)]))
        #expect(text.hasPrefix("No packs found. Searched: /no/such/dir\n"), "\(text)")
    }

    @Test("list --json keeps the documented keys (docs/cli.md)")
    func listContract() throws {
        let json = Reports.listJSON(firstPartyRegistry())
        guard case .array(let packs)? = json["packs"], case .array(let cells)? = packs.first?["cells"] else {
            Issue.record("no packs in \(json.serialized())")
            return
        }
        for key in ["path", "id", "name", "version", "abi", "cells"] { #expect(packs[0][key] != nil, "pack key \(key)") }
        for key in ["id", "name", "textInput", "configure", "fields"] { #expect(cells[0][key] != nil, "cell key \(key)") }
        #expect(json["errors"] == .array([]))
    }
}
