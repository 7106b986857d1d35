import Foundation
import Testing

@testable import FormworkCore
@testable import FormworkHost
import FormworkTestSupport

@Suite("Registry and discovery")
struct RegistryTests {
    @Test("search order: options, FORMWORK_PACK_PATH, XDG data home, system directories, the executable's directory")
    func order() {
        let locations = Discovery.locations(
            packPaths: ["/a", "/b.so"], environment: ["FORMWORK_PACK_PATH": "/c:/d", "XDG_DATA_HOME": "/xdg", "HOME": "/home/u"],
            executableDirectory: "/bin/dir")
        #expect(
            locations.map(\.path) == [
                "/a", "/b.so", "/c", "/d", "/xdg/formwork/packs", "/usr/local/lib/formwork/packs",
                "/usr/lib/formwork/packs", "/bin/dir",
            ])
        #expect(locations.map(\.origin) == [.option, .option, .environment, .environment, .standard, .standard, .standard, .executable])
        let home = Discovery.locations(packPaths: [], environment: ["HOME": "/home/u"], executableDirectory: nil)
        #expect(home.first?.path == "/home/u/.local/share/formwork/packs")
    }

    @Test("a fingerprint stays while nothing changes and moves with a touched, added, removed or group-writable pack")
    func fingerprint() throws {
        let directory = Scratch.directory + "/fingerprint-packs"
        try? FileManager.default.removeItem(atPath: directory)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let pack = try CCompiler.pack("fingerprint", source: Source.root + "/Examples/Packs/phone-c/phone.c", include: Source.include)
        try FileManager.default.copyItem(atPath: pack, toPath: directory + "/liba.so")
        let locations = [SearchLocation(path: directory, origin: .option)]
        let first = Registry.fingerprint(of: locations)
        #expect(Registry.fingerprint(of: locations).bytes == first.bytes)
        // The registry built from the fingerprint's discovery is the one built from the locations.
        let registry = Registry(first)
        #expect(registry.cellTypes.map(\.id) == Registry(locations: locations).cellTypes.map(\.id))
        #expect(registry.cellTypes.map(\.id) == ["com.example.phone"])
        var previous = first.bytes
        func changed(_ what: String) -> [UInt8] {
            let now = Registry.fingerprint(of: locations).bytes
            #expect(now != previous, "\(what) left the fingerprint as it was")
            previous = now
            return now
        }
        var times = [timespec(tv_sec: 1_000_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000_000, tv_nsec: 0)]
        utimensat(AT_FDCWD, directory + "/liba.so", &times, 0)
        let touched = changed("touching a pack")
        try FileManager.default.copyItem(atPath: pack, toPath: directory + "/libb.so")
        _ = changed("adding a pack")
        chmod(directory + "/libb.so", 0o775)
        _ = changed("a group-writable pack")
        try FileManager.default.removeItem(atPath: directory + "/libb.so")
        #expect(changed("removing a pack") == touched, "the same files give the same fingerprint")
        #expect(Registry.fingerprint(of: [SearchLocation(path: directory, origin: .environment)]).bytes != touched)
    }

    @Test("an unknown identifier names near matches, the searched paths and what to do")
    func unknownCell() {
        let registry = firstPartyRegistry()
        let error = #expect(throws: RegistryError.self) { try registry.cellType("org.formwork.textfield") }
        #expect(error?.nearMatches.first == "org.formwork.text-field")
        #expect(
            error?.description.hasPrefix("no cell type 'org.formwork.textfield' is registered; did you mean 'org.formwork.text-field'")
                == true)
        #expect(error?.description.contains(Build.directory) == true)
        #expect(
            error?.description.hasSuffix("Install the pack that provides it into one of these directories, or pass --pack-path.") == true)
    }
}

@Suite("Form document JSON Schema")
struct DocumentSchemaTests {
    @Test("formwork schema matches its golden file and covers every installed cell")
    func golden() throws {
        let registry = firstPartyRegistry()
        let schema = DocumentSchema.generate(registry)
        try Golden.check(schema.serialized() + "\n", against: "schema.json")
        guard case .object(let defs)? = schema["$defs"] else { Issue.record("no $defs"); return }
        for cell in registry.cellTypes { #expect(defs.contains { $0.0 == "cell:" + cell.id }, "\(cell.id)") }
    }
}
