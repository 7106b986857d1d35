import Foundation
import Testing

@testable import FormworkCore
@testable import FormworkHost
import FormworkTestSupport

@Suite("Rust example pack")
struct RustPackTests {
    static var cargo: String? {
        let home = ProcessInfo.processInfo.environment["HOME"] ?? "/root"
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { "\($0)/cargo" }
        return (path + ["\(home)/.cargo/bin/cargo", "/usr/bin/cargo"]).first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    @Test("cargo builds it without crates, formwork check passes it, and its typed cell renders document values")
    func rustPack() throws {
        let cargo = try #require(Self.cargo, "cargo is needed to build Examples/Packs/tip-rust (apt-get install cargo)")
        let directory = "\(Source.root)/Examples/Packs/tip-rust"
        let build = try run(cargo, ["build", "--release", "--offline", "--quiet", "--manifest-path", "\(directory)/Cargo.toml"])
        #expect(build.status == 0, "\(build.stderr)")
        let library = "\(directory)/target/release/libformwork_tip.so"
        let ldd = try run("/usr/bin/ldd", [library])
        #expect(!ldd.stdout.contains("swift"))
        let check = try run(Build.formwork, ["check", library], environment: ["PATH": "/usr/bin:/bin"])
        #expect(check.status == 0, "\(check.stdout)")
        #expect(check.stdout.contains("✓ exports          exports formwork_pack_v1 and nothing else"))

        let registry = firstPartyRegistry(plus: [library])
        let tip = try registry.cellType("com.example.tip")
        #expect(tip.configure == .typed(convention: .byPointer, size: 40, alignment: 8))
        let form = try FormDecoder.decode(
            text: """
                formwork: 1
                id: dinner
                sections: [{ id: s, fields: [{ id: tip, cell: com.example.tip, model: { title: Dinner, bill: 80, percent: 20, split: 3, roundUp: true } }] }]
                """, json: false, registry: registry)
        let tree = try FormRuntime(registry: registry).render(form)
        #expect(
            tree.sections[0].fields[0].nodes == [
                .value(label: "Dinner", text: "96.00 with 20% tip, 32.00 each for 3 people"),
                .message(kind: .hint, text: "Shares are rounded up."),
            ])
    }
}
