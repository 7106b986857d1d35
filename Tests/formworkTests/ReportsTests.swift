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
