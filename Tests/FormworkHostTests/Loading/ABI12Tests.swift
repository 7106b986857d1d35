import Foundation
import Testing
@testable import FormworkCore
@testable import FormworkHost
import FormworkTestSupport

/// What ABI 1.2 adds, through a pack built against the current header (Tests/Fixtures/fixture_1_2.c):
/// presence in typed configure, a step and exclusive bounds, and the target-version macro.
@Suite("ABI 1.2")
struct ABI12Tests {
    func pack(_ name: String, _ defines: [String] = []) throws -> String {
        try CCompiler.pack(
            name, source: Source.fixture("fixture_1_2.c"), defines: defines, extraFlags: ["-Wextra"], include: Source.include)
    }

    func form(_ model: String) -> String {
        """
        formwork: 1
        id: v12
        sections: [{ id: s, fields: [{ id: p, cell: com.example.v12.parcel, model: \(model) }] }]
        """
    }

    func shown(_ registry: Registry, model: String, values: [String: Value] = [:], generic: Bool = false) throws -> [ViewNode] {
        var form = try FormDecoder.decode(text: form(model), json: false, registry: registry)
        if !values.isEmpty { try ValuesFile.apply(values, to: &form) }
        return try FormRuntime(registry: registry).render(form).sections[0].fields[0].nodes
    }

    @Test("typed configure with presence tells an absent number, integer and bool from 0 and false")
    func presence() throws {
        let registry = firstPartyRegistry(plus: [try pack("v12")])
        let cell = try registry.cellType("com.example.v12.parcel")
        #expect(cell.packABI == ABIVersion(major: 1, minor: 2, patch: 0))
        #expect(cell.capabilities.contains(.typedPresence))
        guard case .typed(_, let size, _) = cell.configure else {
            Issue.record("not typed: \(cell.configure)")
            return
        }
        #expect(size == 40)  // weight, count, express, note, present[1], padded to 8

        let absent = try shown(registry, model: "{ note: fragile }")
        #expect(absent.contains(.value(label: "Weight", text: "absent")), "\(absent)")
        #expect(absent.contains(.value(label: "Parcels", text: "absent")))
        #expect(absent.contains(.value(label: "Express", text: "absent")))
        #expect(absent.contains(.value(label: "Note", text: "fragile")))

        let zeros = try shown(registry, model: "{ count: 0, express: false }", values: ["p": .number(2.5)])
        #expect(zeros.contains(.value(label: "Weight", text: "2.5 kg")), "\(zeros)")
        #expect(zeros.contains(.value(label: "Parcels", text: "0")))
        #expect(zeros.contains(.value(label: "Express", text: "no")))
        #expect(zeros.contains(.value(label: "Note", text: "absent")))
    }

    @Test(
        "a step and exclusive bounds are checked in every path, with messages that name the rule",
        arguments: [
            (Value.number(0), "is 0; it must be above 0"),
            (.number(0.25), "is 0.25, not a whole number of steps of 0.5 from 0"),
            (.number(500.5), "above the maximum 500"),
        ])
    func stepAndBounds(value: Value, message: String) throws {
        let registry = firstPartyRegistry(plus: [try pack("v12")])
        var document = try FormDecoder.decode(text: form("{}"), json: false, registry: registry)
        let error = #expect(throws: FormError.self) { try ValuesFile.apply(["p": value], to: &document) }
        #expect("\(error.map { "\($0)" } ?? "")".contains(message), "\(error.map { "\($0)" } ?? "")")
        var good = try FormDecoder.decode(text: form("{}"), json: false, registry: registry)
        try ValuesFile.apply(["p": .number(499.5)], to: &good)
    }

    @Test("a model's integer off its step or on its exclusive maximum is refused where the document sets it")
    func modelValues() throws {
        let registry = firstPartyRegistry(plus: [try pack("v12")])
        for (model, message) in [("{ count: 3 }", "not a whole number of steps of 2 from 0"), ("{ count: 10 }", "it must be below 10")] {
            let error = #expect(throws: FormError.self) { try FormDecoder.decode(text: form(model), json: false, registry: registry) }
            #expect("\(error.map { "\($0)" } ?? "")".contains(message), "\(model): \(error.map { "\($0)" } ?? "")")
        }
        _ = try FormDecoder.decode(text: form("{ count: 8 }"), json: false, registry: registry)
    }

    @Test(
        "the loader refuses steps and bounds no value could meet, and presence it cannot lay out",
        arguments: [
            (
                "FIXTURE_ZERO_STEP",
                "cell type 'com.example.v12.parcel' field 'weight': step is 0; it must be a finite number above 0 (clear FW_FIELD_HAS_STEP for none)"
            ),
            (
                "FIXTURE_FRACTIONAL_STEP",
                "cell type 'com.example.v12.parcel' field 'count': an integer field's step must be a whole number (got 0.5)"
            ),
            (
                "FIXTURE_EMPTY_RANGE",
                "cell type 'com.example.v12.parcel' field 'weight': minimum and maximum are both 5 and one is exclusive, so no value is allowed"
            ),
            (
                "FIXTURE_EXCLUSIVE_NO_BOUND",
                "cell type 'com.example.v12.parcel' field 'weight': FW_FIELD_EXCLUSIVE_MAXIMUM needs FW_FIELD_HAS_MAXIMUM and a maximum"
            ),
            (
                "FIXTURE_OFF_STEP_DEFAULT",
                "cell type 'com.example.v12.parcel' field 'count': the default is 3, not a whole number of steps of 2 from 0"
            ),
            (
                "FIXTURE_NO_BITMAP",
                "cell type 'com.example.v12.parcel': typed model size 32 / alignment 8 does not match the schema's layout, size 40 / alignment 8 (weight@0, count@8, express@16, note@24, present@32)"
            ),
            (
                "FIXTURE_PRESENCE_UNTYPED",
                "cell type 'com.example.v12.parcel': FW_CELL_TYPED_PRESENCE is set without FW_CELL_TYPED_CONFIGURE"
            ),
        ])
    func strictness(define: String, message: String) throws {
        let path = try pack("v12-\(define.lowercased())", [define])
        let error = #expect(throws: PackError.self) { try PackLoader.load(path: path) }
        #expect(error?.message.contains(message) == true, "\(error?.message ?? "")")
    }

    @Test("check passes the 1.2 fixture: typed (with presence) and generic render the same for every value set")
    func check() throws {
        let result = try run(
            Build.formwork, ["check", try pack("v12-check")], environment: ["PATH": "/usr/bin:/bin", "HOME": Scratch.directory])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("ABI 1.2.0, 1 cell type (1 typed)"), "\(result.stdout)")
    }

    @Test("inspect --json shows the step and the exclusive bounds")
    func inspect() throws {
        let path = try pack("v12-inspect")
        let result = try run(
            Build.formwork, ["inspect", "com.example.v12.parcel", "--json", "--pack-path", path],
            environment: ["PATH": "/usr/bin:/bin", "HOME": Scratch.directory])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#""exclusiveMinimum": true"#) && result.stdout.contains(#""step": 0.5"#), "\(result.stdout)")
        #expect(result.stdout.contains("typedPresence"), "\(result.stdout)")
    }

    @Test("FW_TARGET_ABI_MINOR: a pack built against 1.2 for 1.1 or 1.0 claims that minor and loads as one; newer names do not compile")
    func targetMinor() throws {
        let v11 = try CCompiler.pack(
            "v12-target-1", source: Source.fixture("fixture_1_1.c"), defines: ["FW_TARGET_ABI_MINOR=1"], include: Source.include)
        let loaded11 = try PackLoader.load(path: v11)
        #expect(loaded11.pack.abi == ABIVersion(major: 1, minor: 1, patch: 0))
        let phone = Source.root + "/Examples/Packs/phone-c/phone.c"  // FW_ABI_VERSION_INIT, as the header advises
        let v10 = try CCompiler.pack("v12-target-0", source: phone, defines: ["FW_TARGET_ABI_MINOR=0"], include: Source.include)
        let loaded10 = try PackLoader.load(path: v10)
        #expect(loaded10.pack.abi == ABIVersion(major: 1, minor: 0, patch: 0))
        // The same source against the frozen 1.0 header gives the same cell types.
        let frozen = try PackLoader.load(path: try CCompiler.pack("v12-target-frozen-0", source: phone))
        #expect(loaded10.pack.cellTypes.map(\.fields) == frozen.pack.cellTypes.map(\.fields))
        // 1.2 names are hidden below target 2, 1.1 names below 1: a compile error, not a refusal at load time.
        for (source, target, name) in [("fixture_1_2.c", 1, "FW_FIELD_HAS_STEP"), ("fixture_1_1.c", 0, "FW_FIELD_CHOICE_LIST")] {
            #expect(throws: (any Error).self) {
                try CCompiler.pack(
                    "v12-hidden-\(target)", source: Source.fixture(source), defines: ["FW_TARGET_ABI_MINOR=\(target)"],
                    include: Source.include)
            }
            _ = name
        }
    }
}
