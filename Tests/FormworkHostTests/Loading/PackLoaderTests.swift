import Foundation
import Testing

@testable import FormworkCore
@testable import FormworkHost
import FormworkTestSupport

/// Real `.so` files: the first-party packs, and fixtures compiled at test time.
@Suite("Pack loading")
struct PackLoaderTests {
    @Test("the standard Swift pack and the C pack load with every cell type")
    func firstPartyPacks() throws {
        let registry = firstPartyRegistry()
        #expect(registry.failures.isEmpty, "\(registry.failures)")
        let ids = registry.cellTypes.map(\.id)
        for id in [
            "org.formwork.text", "org.formwork.text-field", "org.formwork.text-view", "org.formwork.toggle",
            "org.formwork.button", "org.formwork.date-picker", "org.formwork.picker", "org.formwork.segments",
            "org.formwork.c.rating", "org.formwork.c.money",
        ] {
            #expect(ids.contains(id), "missing \(id)")
        }
        let field = try registry.cellType("org.formwork.text-field")
        #expect(field.textInput.kind == .textField)
        #expect(field.textInput.field == "value")
        #expect(field.configure == .generic)
        #expect(field.field(named: "title")?.required == true)

        let picker = try registry.cellType("org.formwork.picker")
        #expect(picker.textInput.kind == .picker)
        #expect(picker.field(named: "value")?.optionsField == "choices")

        let date = try registry.cellType("org.formwork.date-picker")
        #expect(date.textInput.traits.dateMode == .date)
        #expect(date.textInput.traits.minimumField == "minimum")

        let rating = try registry.cellType("org.formwork.c.rating")
        #expect(rating.configure == .typed(convention: .byValue, size: 48, alignment: 8))
        #expect(rating.capabilities == [.selectable, .typedConfigure])
        let money = try registry.cellType("org.formwork.c.money")
        #expect(money.configure == .typed(convention: .byPointer, size: 56, alignment: 8))
        #expect(money.field(named: "currency")?.choices.map(\.value) == ["EUR", "USD", "GBP", "JPY"])
        #expect(money.field(named: "due")?.type == .date)
    }

    @Test("a good fixture built with cc against the header alone loads")
    func goodFixture() throws {
        let path = try CCompiler.pack("good")
        let pack = try PackLoader.load(path: path).pack
        #expect(pack.id == "com.example.fixture")
        #expect(pack.cellTypes.map(\.id) == ["com.example.fixture.counter"])
        #expect(pack.cellTypes[0].configure == .typed(convention: .byPointer, size: 24, alignment: 8))
    }

    /// name, -D flags, the exact message (after "<path>: ").
    static let broken: [(String, [String], String)] = [
        (
            "entry-null", ["FIXTURE_ENTRY_NULL"],
            "`formwork_pack_v1()` returned NULL; it must return a pointer to a static fw_pack"
        ),
        (
            "no-entry", ["FIXTURE_NO_ENTRY"],
            "does not export `formwork_pack_v1`; define it with FW_EXPORT (C) or @_cdecl(\"formwork_pack_v1\") (Swift)"
        ),
        (
            "only-v2", ["FIXTURE_ONLY_V2"],
            "exports only `formwork_pack_v2` (ABI major 2) but this host speaks ABI 1.2.0; rebuild the pack against formwork.h 1.x or use a host for that ABI"
        ),
        (
            "major-0", ["FIXTURE_ABI_MAJOR=0"],
            "pack ABI 0.0.0 is incompatible with host ABI 1.2.0 (major 0 differs from 1); rebuild the pack against formwork.h 1.x"
        ),
        (
            "major-2", ["FIXTURE_ABI_MAJOR=2"],
            "pack ABI 2.0.0 is incompatible with host ABI 1.2.0 (major 2 differs from 1); rebuild the pack against formwork.h 1.x"
        ),
        (
            "newer-minor", ["FIXTURE_ABI_MINOR=3"],
            "pack ABI 1.3.0 is newer than host ABI 1.2.0 (minor 3 > 2); upgrade formwork, or rebuild the pack with -DFW_TARGET_ABI_MINOR=2 (formwork.h 1.2 or later) or against formwork.h 1.2"
        ),
        (
            "small-pack", ["FIXTURE_PACK_SIZE=64"],
            "fw_pack.struct_size is 64, smaller than the 96 bytes of ABI 1.0; set it to sizeof and rebuild against formwork.h"
        ),
        (
            "small-cell", ["FIXTURE_CELL_SIZE=100"],
            "pack 'com.example.fixture': cell_types[0].struct_size is 100, smaller than the 144 bytes of ABI 1.0; set it to sizeof and rebuild against formwork.h"
        ),
        (
            "invalid-id", ["FIXTURE_CELL_ID=\"Example_Counter\""],
            "cell type identifier 'Example_Counter' is not in reverse-DNS form; use lowercase dot-separated labels such as 'com.example.rating'"
        ),
        (
            "duplicate-field", ["FIXTURE_DUPLICATE_FIELD"],
            "cell type 'com.example.fixture.counter': field 'count' is declared twice; field names must be unique in a schema"
        ),
        (
            "unknown-type", ["FIXTURE_UNKNOWN_TYPE"],
            "cell type 'com.example.fixture.counter' field 'count': unknown field type 99; use one of FW_FIELD_STRING (1) ... FW_FIELD_CHOICE_LIST (9)"
        ),
        (
            "min-gt-max", ["FIXTURE_MIN_GT_MAX"],
            "cell type 'com.example.fixture.counter' field 'count': minimum 10 is greater than maximum 1"
        ),
        (
            "default-out-of-range", ["FIXTURE_DEFAULT_OUT_OF_RANGE"],
            "cell type 'com.example.fixture.counter' field 'count': the default is 12, above the maximum 10"
        ),
        (
            "empty-choices", ["FIXTURE_EMPTY_CHOICES"],
            "cell type 'com.example.fixture.counter' field 'mood': a choice field needs at least one choice; set choices and choice_count"
        ),
        (
            "text-input-missing", ["FIXTURE_TEXT_INPUT_MISSING"],
            "cell type 'com.example.fixture.counter': text_input_field 'subtitle' is not a field of the model (fields: title, count, mood)"
        ),
        (
            "typed-size", ["FIXTURE_TYPED_SIZE_MISMATCH"],
            "cell type 'com.example.fixture.counter': typed model size 32 / alignment 8 does not match the schema's layout, size 24 / alignment 8 (title@0, count@8, mood@16); declare the struct's members in schema order with the C types of formwork.h"
        ),
        (
            "invalid-utf8", ["FIXTURE_INVALID_UTF8"],
            "cell type 'com.example.fixture.counter' field 'title': label is not valid UTF-8"
        ),
    ]

    @Test(
        "each broken fixture is refused with its own message while the good packs still load",
        arguments: PackLoaderTests.broken.indices)
    func brokenFixture(index: Int) throws {
        let (name, defines, message) = Self.broken[index]
        let path = try CCompiler.pack(name, defines: defines)
        let registry = firstPartyRegistry(plus: [path])
        let failure = try #require(registry.failures.first { $0.path == path }, "\(name) was not refused")
        #expect(failure.message == message)
        #expect(failure.description == "\(path): \(message)")
        #expect(registry.failures.count == 1)
        #expect(!registry.contains("com.example.fixture.counter"), "a refused pack registered a cell")
        #expect(registry.contains("org.formwork.text-field"))
        #expect(registry.contains("org.formwork.c.money"))
    }

    @Test("a file that is not ELF, a missing path and a directory of packs")
    func files() throws {
        let text = try Scratch.file("not-elf/libnotelf.so", contents: "hello, I am not a library\n")
        let registry = firstPartyRegistry(plus: [text, "/nonexistent/pack.so"])
        #expect(
            registry.failures.map(\.message) == [
                "no such file; check the path given with --pack-path or FORMWORK_PACK_PATH",
                "not an ELF shared library; build the pack with `cc -shared -fPIC` (or as a SwiftPM dynamic library)",
            ])
        #expect(registry.contains("org.formwork.toggle"))
    }

    @Test("duplicate identifiers across two packs: the first wins, the other is reported as shadowed")
    func shadowing() throws {
        let first = try CCompiler.pack("dup-first", defines: ["FIXTURE_PACK_ID=\"com.example.first\""])
        let second = try CCompiler.pack("dup-second", defines: ["FIXTURE_PACK_ID=\"com.example.second\""])
        let registry = firstPartyRegistry(plus: [first, second])
        #expect(registry.failures.isEmpty)
        #expect(try registry.cellType("com.example.fixture.counter").packPath == first)
        #expect(registry.shadowed == [ShadowedCellType(id: "com.example.fixture.counter", path: second, winner: first)])
        #expect(registry.cellTypes.filter { $0.id == "com.example.fixture.counter" }.count == 1)
    }

    @Test("the same real path is loaded once")
    func samePathOnce() throws {
        let path = try CCompiler.pack("once")
        let link = "\(Scratch.directory)/once-link.so"
        try? FileManager.default.removeItem(atPath: link)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
        let registry = firstPartyRegistry(plus: [path, link, (path as NSString).deletingLastPathComponent])
        #expect(registry.packs.filter { $0.id == "com.example.fixture" }.count == 1)
        #expect(registry.shadowed.isEmpty)
    }

    @Test("a future minor's grown structs are refused by the rule, not misread")
    func grownStructs() throws {
        let path = try CCompiler.pack("grown-1-3", defines: ["FIXTURE_GROWN", "FIXTURE_ABI_MINOR=3"])
        #expect(throws: PackError(path: path, reason: .incompatibleABI(pack: ABIVersion(major: 1, minor: 3, patch: 0), host: .host))) {
            try PackLoader.load(path: path)
        }
        // Larger struct_size at the host's own minor: read only what 1.0 knows.
        let same = try CCompiler.pack("grown-1-0", defines: ["FIXTURE_GROWN"])
        let pack = try PackLoader.load(path: same).pack
        #expect(pack.cellTypes[0].fields.map(\.name) == ["title", "count", "mood"])
    }

    @Test("the Makefile-built example pack has no Swift runtime and loads from FORMWORK_PACK_PATH")
    func makefileExample() throws {
        let directory = (try ExamplePack.build("phone-c", library: "libphone.so") as NSString).deletingLastPathComponent
        let ldd = try run("/usr/bin/ldd", ["\(directory)/libphone.so"])
        #expect(!ldd.stdout.contains("swift"), "\(ldd.stdout)")
        let registry = Registry.discover(environment: ["FORMWORK_PACK_PATH": directory], executableDirectory: Build.directory)
        let phone = try registry.cellType("com.example.phone")
        #expect(phone.textInput.kind == .textField)
        #expect(phone.textInput.traits.keyboard == .phonePad)
        #expect(phone.textInput.traits.contentType == "tel")
    }
}

@Suite("Pack paths")
struct PackPathTests {
    @Test("a relative pack path without a slash is opened as a file, not searched for in the library path")
    func relativePath() throws {
        let path = try CCompiler.pack("relative")
        let directory = (path as NSString).deletingLastPathComponent
        let result = try run(
            Build.formwork, ["inspect", "com.example.fixture.counter", "--pack-path", "librelative.so"],
            environment: ["PATH": "/usr/bin:/bin", "HOME": Scratch.directory], directory: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("path:         librelative.so"))
    }
}

@Suite("Descriptor checks on names")
struct DescriptorNameChecks {
    /// The reverse-DNS check as it was written before (labels split as characters): the reference.
    static func splitReverseDNS(_ id: String) -> Bool {
        let labels = id.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, id.utf8.count <= 255 else { return false }
        return labels.allSatisfy { label in
            guard let first = label.utf8.first, label.utf8.count <= 63 else { return false }
            let isAlnum: (UInt8) -> Bool = { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) }
            return isAlnum(first) && label.utf8.allSatisfy { isAlnum($0) || $0 == 0x2D } && label.utf8.last != 0x2D
        } && labels[0].utf8.first.map { (0x61...0x7A).contains($0) } == true
    }

    @Test("the reverse-DNS check answers as the label-splitting one on chosen and random identifiers")
    func reverseDNSAgreesWithSplitting() {
        let chosen = [
            "org.formwork.text", "a.b", "a", "", ".", "a.", ".a", "a..b", "a.-b", "a.b-", "a-.b", "1a.b", "a.1b", "a.b.c-d.e",
            "A.b", "a.B", "a_b.c", "a.b\u{301}", "a.\u{301}b", "é.b", "a b.c", String(repeating: "a", count: 63) + ".b",
            String(repeating: "a", count: 64) + ".b", "a." + String(repeating: "b", count: 253), "a." + String(repeating: "b", count: 252),
            "a.b\0", "a.b\n",
        ]
        for id in chosen {
            #expect(DescriptorValidator.isReverseDNS(id) == Self.splitReverseDNS(id), "\(id.debugDescription)")
        }
        var generator = SystemRandomNumberGenerator()
        let alphabet: [Character] = ["a", "z", "0", "9", "-", ".", "A", "_", "é", "\u{301}", " "]
        for _ in 0..<20_000 {
            let length = Int.random(in: 0...12, using: &generator)
            let id = String((0..<length).map { _ in alphabet.randomElement(using: &generator)! })
            #expect(DescriptorValidator.isReverseDNS(id) == Self.splitReverseDNS(id), "\(id.debugDescription)")
        }
    }

    @Test("the first repeated name is the one a set finds first, for short and long lists, canonical equivalents included")
    func firstRepeatedAgreesWithASet() {
        func bySet(_ names: [String]) -> String? {
            var seen: Set<String> = []
            return names.first { !seen.insert($0).inserted }
        }
        let lists: [[String]] = [
            [], ["a"], ["a", "b"], ["a", "a"], ["a", "b", "a"], ["caf\u{E9}", "cafe\u{301}"], ["x", "y", "z", "y", "x"],
            (0..<40).map { "n\($0)" }, (0..<40).map { "n\($0)" } + ["n7"], (0..<16).map { "n\($0)" } + ["n3"],
        ]
        for names in lists {
            #expect(DescriptorValidator.firstRepeated(names, { $0 }) == bySet(names), "\(names)")
        }
        for _ in 0..<2_000 {
            let names = (0..<Int.random(in: 0...30)).map { _ in "f\(Int.random(in: 0...40))" }
            #expect(DescriptorValidator.firstRepeated(names, { $0 }) == bySet(names), "\(names)")
        }
    }
}
