import Foundation
import Testing
@testable import FormworkCore
@testable import FormworkHost
import FormworkTestSupport

/// Packs built against the frozen 1.1 header (abi/1.1; Tests/Fixtures/fixture_1_1.c), compiled at test time.
@Suite("ABI 1.1")
struct ABI11Tests {
    func pack(_ name: String, _ defines: [String] = []) throws -> String {
        try CCompiler.pack(
            name, source: Source.fixture("fixture_1_1.c"), defines: defines,
            extraFlags: ["-Wextra"], include: Source.include1_1)
    }

    func form(_ cell: String = "com.example.v11.extras", count: Int = 3) -> String {
        """
        formwork: 1
        id: v11
        sections: [{ id: s, fields: [{ id: e, cell: \(cell), model: { name: Trip, count: \(count) } }] }]
        """
    }

    @Test("declared roles, a choice list, the number and multi-choice controls and the pack context work end to end")
    func endToEnd() throws {
        let path = try pack("v11")
        let registry = firstPartyRegistry(plus: [path])
        let cell = try registry.cellType("com.example.v11.extras")
        #expect(cell.packABI == ABIVersion(major: 1, minor: 1, patch: 0))
        #expect(cell.roles == FieldRoles(value: "extras", required: nil, title: "name", maxLength: nil, placeholder: "note"))
        #expect(cell.fields[1].type == .choiceList && cell.fields[1].defaultValue == .stringList(["wifi"]))
        var form = try FormDecoder.decode(text: form(), json: false, registry: registry)
        #expect(form.fields[0].valueField == "extras")
        try ValuesFile.apply(["e": .stringList(["meal", "seat"])], to: &form)
        let tree = try FormRuntime(registry: registry).render(form)
        let nodes = tree.sections[0].fields[0].nodes
        #expect(
            nodes.contains(
                .number(Control(field: "count", id: "e-count", label: "Count"), value: 3, minimum: 0, maximum: 9, step: 1, style: .stepper))
        )
        #expect(
            nodes.contains(
                .multiChoice(
                    Control(field: "extras", id: "e", label: "Extras"),
                    choices: [
                        Choice(value: "wifi", label: "Wi-Fi"), Choice(value: "meal", label: "Meal"), Choice(value: "seat", label: "Seat"),
                    ],
                    selected: ["meal", "seat"], style: .checkboxes)))
        let real = FileSystem.realPath(path)!
        #expect(nodes.contains(.value(label: "Context", text: "libv11.so com.example.v11")), "\(nodes)")
        _ = real
        // A choice list refuses values outside its choices, repeats, and more than max_length items.
        for bad in [["wifi", "pool"], ["wifi", "wifi"], ["wifi", "meal", "seat"]] {
            var again = try FormDecoder.decode(text: self.form(), json: false, registry: registry)
            #expect(throws: FormError.self) { try ValuesFile.apply(["e": .stringList(bad)], to: &again) }
        }
    }

    @Test(
        "loader strictness: reserved fields, traits that do not fit, roles, 1.1 types in a 1.0 pack, a mangled entry",
        arguments: [
            (
                "FIXTURE_RESERVED_PACK",
                "pack 'com.example.v11': fw_pack.reserved is 1 but must be 0 (reserved for a later ABI version); zero-initialise the struct"
            ),
            ("FIXTURE_RESERVED_CHOICE", "cell type 'com.example.v11.extras' field 'extras': fw_choice.reserved is 1 but must be 0"),
            ("FIXTURE_RESERVED_VALUE", "cell type 'com.example.v11.extras' field 'extras': default_value.reserved is 1 but must be 0"),
            ("FIXTURE_RESERVED_TRAITS", "cell type 'com.example.v11.extras': fw_text_traits.reserved is 1 but must be 0"),
            (
                "FIXTURE_BAD_TRAITS",
                "cell type 'com.example.v11.extras': fw_text_traits sets 'secure', which does not apply to a textView (it applies to textField); leave it at its default"
            ),
            (
                "FIXTURE_BAD_ROLE",
                "cell type 'com.example.v11.extras': title_field 'count' is of type integer; this role needs string or text"
            ),
            (
                "FIXTURE_MISSING_ROLE",
                "cell type 'com.example.v11.extras': value_field 'selection' is not a field of the model (fields: name, extras, count, note)"
            ),
            (
                "FIXTURE_CLAIM_1_0",
                "cell type 'com.example.v11.extras' field 'extras': field type choiceList (9) is new in ABI 1.1 but the pack claims ABI 1.0.0"
            ),
            ("FIXTURE_MANGLED", "exports `formwork_pack_v1` with a C++-mangled name (_Z16formwork_pack_v1v); declare it extern \"C\""),
            (
                "FIXTURE_UNMEETABLE_ITEMS",
                "cell type 'com.example.v11.extras' field 'extras': min_length 4 asks for more items than its 3 choices can give (each is chosen at most once); lower min_length or add choices"
            ),
        ])
    func strictness(define: String, message: String) throws {
        let path = try pack("v11-\(define.lowercased())", [define])
        let error = #expect(throws: PackError.self) { try PackLoader.load(path: path) }
        #expect(error?.message.hasPrefix(message) == true, "\(error?.message ?? "")")
    }

    @Test("check refuses a number control drawn with a step of 0 (a render draws it with no step); the good fixture passes")
    func zeroStep() throws {
        let bad = try pack("v11-zero-step", ["FIXTURE_ZERO_STEP"])
        let result = try run(Build.formwork, ["check", bad], environment: ["PATH": "/usr/bin:/bin", "HOME": Scratch.directory])
        #expect(result.status == 65, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stdout.contains("the number control for 'count' has step 0; a step must be greater than 0 (NaN for none)"),
            "\(result.stdout)")
        let good = try run(
            Build.formwork, ["check", try pack("v11-good-step")], environment: ["PATH": "/usr/bin:/bin", "HOME": Scratch.directory])
        #expect(good.status == 0, "\(good.stdout)\(good.stderr)")
    }

    @Test("create and destroy of a cell type never run concurrently unless it is FW_CELL_THREAD_SAFE")
    func createLock() throws {
        let path = try pack("v11-threads")
        let registry = firstPartyRegistry(plus: [path])
        let cell = try registry.cellType("com.example.v11.extras")
        #expect(registry.entry(for: cell)?.createLock != nil)
        let form = try FormDecoder.decode(text: form(), json: false, registry: registry)
        nonisolated(unsafe) var trees: [ViewTree?] = Array(repeating: nil, count: 4)
        DispatchQueue.concurrentPerform(iterations: 4) { i in
            let cells = InProcessCells(registry: registry)
            let runtime = FormRuntime(driver: cells)
            for _ in 0..<40 {
                trees[i] = try? runtime.render(form)
                cells.drain()  // every render creates and destroys an instance
            }
        }
        let last = try FormRuntime(registry: registry).render(form)
        #expect(last.sections[0].fields[0].nodes.contains(.value(label: "Most concurrent creates", text: "1")))
        #expect(trees.allSatisfy { $0 != nil })
        let safe = try pack(
            "v11-safe",
            ["FIXTURE_THREAD_SAFE", "FIXTURE_PACK_ID=\"com.example.v11safe\"", "FIXTURE_CELL_ID=\"com.example.v11safe.extras\""])
        let safeRegistry = firstPartyRegistry(plus: [safe])
        #expect(safeRegistry.entry(for: try safeRegistry.cellType("com.example.v11safe.extras"))?.createLock == nil)
    }

    @Test("a failing call quotes what its own pack logged during it, on any thread")
    func logAttribution() throws {
        let a = try pack("v11-log-a", ["FIXTURE_PACK_ID=\"com.example.loga\"", "FIXTURE_CELL_ID=\"com.example.loga.extras\""])
        let b = try pack("v11-log-b", ["FIXTURE_PACK_ID=\"com.example.logb\"", "FIXTURE_CELL_ID=\"com.example.logb.extras\""])
        let registry = firstPartyRegistry(plus: [a, b])
        nonisolated(unsafe) var messages: [String] = Array(repeating: "", count: 8)
        DispatchQueue.concurrentPerform(iterations: 8) { i in
            let id = i % 2 == 0 ? "com.example.loga.extras" : "com.example.logb.extras"
            do {
                let form = try FormDecoder.decode(text: self.form(id, count: 7), json: false, registry: registry)
                _ = try FormRuntime(registry: registry).render(form)
            } catch let error as RuntimeError { messages[i] = error.message } catch { messages[i] = "\(error)" }
        }
        for (i, message) in messages.enumerated() {
            let pack = i % 2 == 0 ? "com.example.loga" : "com.example.logb"
            #expect(message == "configure returned FW_INVALID_ARGUMENT: seven is not allowed by \(pack)", "\(message)")
        }
    }

    @Test("1.0 packs keep their behaviour: the conventions give their roles, and what follows 1.0's struct is never read")
    func oneZeroPacks() throws {
        let path = try CCompiler.pack("v10-roles")  // fixture_pack.c against abi/1.0/formwork.h
        let loaded = try PackLoader.load(path: path)
        #expect(loaded.pack.abi == ABIVersion(major: 1, minor: 0, patch: 0))
        #expect(loaded.pack.cellTypes[0].roles == FieldRoles(conventionsFor: loaded.pack.cellTypes[0].fields, textInputField: "title"))
    }
}
