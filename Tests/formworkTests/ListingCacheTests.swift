import Foundation
import Testing
import FormworkHost
import FormworkTestSupport

/// `list`'s own cache (Sources/formwork/ListingCache.swift): an unchanged listing is printed
/// again; anything that changes what would be listed lists afresh.
@Suite("list's listing cache")
struct ListingCacheTests {
    /// A fresh home (and so a fresh cache) per test.
    func home(_ name: String) throws -> (environment: [String: String], memo: String) {
        let home = "\(Scratch.directory)/listing-cache-\(name)"
        try? FileManager.default.removeItem(atPath: home)
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        return (["PATH": "/usr/bin:/bin", "HOME": home], "\(home)/.cache/formwork/list-v1.bin")
    }

    /// Rewrites `from` as `to` (same length, so the file stays well-formed) in the stored listing.
    func tamper(_ memo: String, _ from: String, _ to: String) throws {
        // The file's body (its checksum taken off), edited, then sealed again: what the listing cache holds is read.
        var bytes = try #require(try CacheFile.read(memo, limit: 1 << 26))
        let a = Array(from.utf8), b = Array(to.utf8)
        precondition(a.count == b.count)
        var replaced = 0
        var i = 0
        while i + a.count <= bytes.count {
            if Array(bytes[i..<i + a.count]) == a {
                bytes.replaceSubrange(i..<i + a.count, with: b)
                replaced += 1
                i += a.count
            } else {
                i += 1
            }
        }
        #expect(replaced > 0, "'\(from)' is not in the stored listing")
        try Data(CacheFile.sealed(bytes)).write(to: URL(fileURLWithPath: memo))
    }

    @Test("an unchanged listing is printed again from the cache; a changed, new, removed or group-writable pack and --rescan list afresh")
    func invalidation() throws {
        let (environment, memo) = try home("invalidation")
        let directory = "\(Scratch.directory)/listing-cache-packs"
        try? FileManager.default.removeItem(atPath: directory)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let phone = try CCompiler.pack("listing-phone", source: Source.root + "/Examples/Packs/phone-c/phone.c", include: Source.include)
        let broken = try CCompiler.pack("listing-broken", defines: ["FIXTURE_MIN_GT_MAX"])
        try FileManager.default.copyItem(atPath: phone, toPath: "\(directory)/libone.so")
        let list = ["list", "--pack-path", directory]

        let first = try run(Build.formwork, list, environment: environment)
        #expect(first.status == 0 && first.stdout.contains("Phone number"), "\(first.stderr)")
        #expect(FileManager.default.fileExists(atPath: memo))

        // Served from the cache: what was stored is what is printed.
        try tamper(memo, "Phone number", "PHONE NUMBER")
        let served = try run(Build.formwork, list, environment: environment)
        #expect(served.stdout == first.stdout.replacingOccurrences(of: "Phone number", with: "PHONE NUMBER"))

        // A new pack.
        try FileManager.default.copyItem(atPath: broken, toPath: "\(directory)/libtwo.so")
        let added = try run(Build.formwork, list, environment: environment)
        #expect(added.stdout.contains("Phone number") && added.stdout.contains("minimum 10 is greater than maximum 1"), "\(added.stdout)")

        // A pack replaced by another file.
        try tamper(memo, "Phone number", "PHONE NUMBER")
        try FileManager.default.removeItem(atPath: "\(directory)/libone.so")
        try FileManager.default.copyItem(atPath: broken, toPath: "\(directory)/libone.so")
        let replaced = try run(Build.formwork, list, environment: environment)
        #expect(!replaced.stdout.contains("PHONE NUMBER") && !replaced.stdout.contains("Phone number"), "\(replaced.stdout)")
        #expect(replaced.stdout.contains("\(directory)/libone.so: cell type 'com.example.fixture.counter'"), "\(replaced.stdout)")

        // A pack removed.
        try FileManager.default.removeItem(atPath: "\(directory)/libtwo.so")
        let removed = try run(Build.formwork, list, environment: environment)
        #expect(!removed.stdout.contains("libtwo.so"), "\(removed.stdout)")

        // A pack others may write is refused again (discovery's problems are part of what is listed).
        try FileManager.default.removeItem(atPath: "\(directory)/libone.so")
        try FileManager.default.copyItem(atPath: phone, toPath: "\(directory)/libone.so")
        _ = try run(Build.formwork, list, environment: environment)
        chmod("\(directory)/libone.so", 0o775)
        let writable = try run(Build.formwork, list, environment: environment)
        #expect(writable.stdout.contains("writable by its group"), "\(writable.stdout)")
        chmod("\(directory)/libone.so", 0o755)
        let trusted = try run(Build.formwork, list, environment: environment)
        #expect(trusted.stdout.contains("Phone number") && !trusted.stdout.contains("writable"), "\(trusted.stdout)")

        // --rescan reads the packs again, and what it prints becomes the stored listing.
        try tamper(memo, "Phone number", "PHONE NUMBER")
        let rescanned = try run(Build.formwork, list + ["--rescan"], environment: environment)
        #expect(rescanned.stdout == trusted.stdout)
        #expect(try run(Build.formwork, list, environment: environment).stdout == trusted.stdout)

        // --no-cache neither reads nor writes it.
        try tamper(memo, "Phone number", "PHONE NUMBER")
        #expect(try run(Build.formwork, list + ["--no-cache"], environment: environment).stdout == trusted.stdout)
        #expect(try run(Build.formwork, list, environment: environment).stdout.contains("PHONE NUMBER"))
    }

    @Test("text and JSON listings and several search paths are kept side by side; a corrupt or foreign file is ignored and replaced")
    func formsAndCorruption() throws {
        let (environment, memo) = try home("forms")
        let phone = try CCompiler.pack("listing-forms", source: Source.root + "/Examples/Packs/phone-c/phone.c", include: Source.include)
        let text = try run(Build.formwork, ["list", "--pack-path", phone], environment: environment)
        let json = try run(Build.formwork, ["list", "--json", "--pack-path", phone], environment: environment)
        let plain = try run(Build.formwork, ["list"], environment: environment)
        #expect(json.stdout.hasPrefix("{") && text.stdout.contains("Phone number") && !plain.stdout.contains("Phone number"))
        try tamper(memo, "Phone number", "PHONE NUMBER")
        #expect(try run(Build.formwork, ["list", "--pack-path", phone], environment: environment).stdout.contains("PHONE NUMBER"))
        #expect(
            try run(Build.formwork, ["list", "--json", "--pack-path", phone], environment: environment).stdout.contains("PHONE NUMBER"))
        #expect(try run(Build.formwork, ["list"], environment: environment).stdout == plain.stdout)

        for damage: (inout [UInt8]) -> Void in [
            { $0 = Array($0.prefix(40)) },  // truncated
            { $0[0] = UInt8(ascii: "X") },  // foreign magic
            { $0 += [1, 2, 3] },  // trailing bytes
            { $0 = [] },  // empty
        ] {
            var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: memo)))
            damage(&bytes)
            try Data(bytes).write(to: URL(fileURLWithPath: memo))
            let again = try run(Build.formwork, ["list", "--pack-path", phone], environment: environment)
            #expect(again.status == 0 && again.stdout == text.stdout, "\(again.stdout)")
            #expect(try run(Build.formwork, ["list", "--json", "--pack-path", phone], environment: environment).stdout == json.stdout)
        }
    }

    @Test("a listing served from the cache still warns about ignored search-path entries")
    func warnings() throws {
        var (environment, _) = try home("warnings")
        environment["FORMWORK_PACK_PATH"] = "relative/packs"
        let first = try run(Build.formwork, ["list"], environment: environment)
        let second = try run(Build.formwork, ["list"], environment: environment)
        #expect(first.stderr.contains("'relative/packs' is not an absolute path"), "\(first.stderr)")
        #expect(second.stderr == first.stderr && second.stdout == first.stdout)
    }
}
