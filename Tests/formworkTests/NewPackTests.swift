import Foundation
import Testing
import FormworkTestSupport

@Suite("new-pack: a scaffold that builds, passes check and renders its form")
struct NewPackTests {
    let environment = ["PATH": "/usr/bin:/bin", "HOME": Scratch.directory]

    @Test("the C scaffold builds with make from its own directory, passes formwork check, and its form renders with it")
    func scaffold() throws {
        let parent = try Scratch.file("new-pack/.keep", contents: "")
        let directory = (parent as NSString).deletingLastPathComponent
        let made = try run(
            Build.formwork, ["new-pack", "my-stars", "--id", "org.example.stars"], environment: environment, directory: directory)
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stdout.contains("Wrote my-stars/: my-stars.c, exports.map, Makefile, form.yaml, README.md."))
        let pack = "\(directory)/my-stars"
        let built = try run(
            "/usr/bin/make",
            [
                "check", "FORMWORK=\(Build.formwork)", "FORMWORK_INCLUDE=\(Source.include)",
                "CFLAGS=-std=c99 -O2 -Wall -Wextra -pedantic -Werror",
            ],
            environment: environment, directory: pack)
        #expect(built.status == 0, "\(built.stdout)\n\(built.stderr)")
        #expect(built.stdout.contains("1 pack: 4 passed, 0 failed"), "\(built.stdout)")
        #expect(built.stdout.contains("Your answer *  ["), "the form renders with the new cell: \(built.stdout)")
        // The cell refuses what its value_changed refuses, with its reason, through validate.
        let values = try Scratch.file("new-pack/values.json", contents: #"{"answer": "<b>"}"#)
        let refused = try run(
            Build.formwork, ["validate", "\(pack)/form.yaml", "--values", values, "--pack-path", pack], environment: environment)
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("'<' is not allowed here"), "\(refused.stderr)")
        // Someone's work is never written into; a bad name or language is a usage error naming it.
        let again = try run(Build.formwork, ["new-pack", "my-stars"], environment: environment, directory: directory)
        #expect(again.status == 73)
        #expect(again.stderr.contains("formwork: error: my-stars exists and is not empty; choose another --directory"), "\(again.stderr)")
        let bad = try run(Build.formwork, ["new-pack", "My Pack"], environment: environment, directory: directory)
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("the pack name 'My Pack' must start with a lowercase letter"), "\(bad.stderr)")
        let go = try run(Build.formwork, ["new-pack", "x", "--lang", "go"], environment: environment, directory: directory)
        #expect(go.status == 64)
        #expect(go.stderr.contains("--lang go: c, cpp, rust and swift are written"), "\(go.stderr)")
        // A Swift pack needs to know where SwiftPM fetches Formwork from (Tests/DependencyCheck builds one); a URL that
        // would break the Package.swift it is written into is refused, and the option means nothing for C.
        let swift = try run(Build.formwork, ["new-pack", "x", "--lang", "swift"], environment: environment, directory: directory)
        #expect(swift.status == 64)
        #expect(swift.stderr.contains("--lang swift needs --formwork-url URL"), "\(swift.stderr)")
        let quote = try run(
            Build.formwork, ["new-pack", "x", "--lang", "swift", "--formwork-url", "file:///a\"b"], environment: environment,
            directory: directory)
        #expect(quote.status == 64)
        let cURL = try run(
            Build.formwork, ["new-pack", "x", "--formwork-url", "file:///a/formwork"], environment: environment, directory: directory)
        #expect(cURL.status == 64)
        #expect(cURL.stderr.contains("--formwork-url is for --lang swift"), "\(cURL.stderr)")
    }

    @Test("the Rust scaffold builds with cargo and no crates, exports the entry alone, passes check, renders and refuses")
    func scaffoldRust() throws {
        let home = ProcessInfo.processInfo.environment["HOME"] ?? "/root"
        let cargoDirectory = ["\(home)/.cargo/bin", "/usr/bin"].first { FileManager.default.isExecutableFile(atPath: "\($0)/cargo") }
        let cargoHome = try #require(cargoDirectory, "cargo is needed to build the Rust scaffold (apt-get install cargo)")
        let parent = try Scratch.file("new-pack-rust/.keep", contents: "")
        let directory = (parent as NSString).deletingLastPathComponent
        try? FileManager.default.removeItem(atPath: "\(directory)/star-rating")
        let made = try run(Build.formwork, ["new-pack", "star-rating", "--lang", "rust"], environment: environment, directory: directory)
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stdout.contains("Wrote star-rating/: Cargo.toml, src/lib.rs, src/ffi.rs, Makefile, form.yaml, README.md."))
        let pack = "\(directory)/star-rating"
        // The declarations are the example pack's, word for word: one text, kept true by this test.
        let ffi = try String(contentsOfFile: "\(pack)/src/ffi.rs", encoding: .utf8)
        #expect(ffi == (try String(contentsOfFile: "\(Source.root)/Examples/Packs/tip-rust/src/ffi.rs", encoding: .utf8)))
        // Cargo (through rustup) finds its toolchain from the real home.
        var cargoEnvironment = environment
        cargoEnvironment["PATH"] = "\(cargoHome):/usr/bin:/bin"
        cargoEnvironment["HOME"] = home
        for name in ["RUSTUP_HOME", "CARGO_HOME", "RUSTUP_TOOLCHAIN"] { cargoEnvironment[name] = ProcessInfo.processInfo.environment[name] }
        let built = try run("/usr/bin/make", ["check", "FORMWORK=\(Build.formwork)"], environment: cargoEnvironment, directory: pack)
        #expect(built.status == 0, "\(built.stdout)\n\(built.stderr)")
        #expect(built.stdout.contains("exports formwork_pack_v1 and nothing else"), "\(built.stdout)")
        #expect(built.stdout.contains("1 pack: 4 passed, 0 failed"), "\(built.stdout)")
        #expect(built.stdout.contains("Your answer *  ["), "the form renders with the new cell: \(built.stdout)")
        let values = try Scratch.file("new-pack-rust/values.json", contents: #"{"answer": "a<b"}"#)
        let refused = try run(
            Build.formwork, ["validate", "\(pack)/form.yaml", "--values", values, "--pack-path", "\(pack)/target/release"],
            environment: environment)
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("'<' is not allowed here"), "\(refused.stderr)")
    }

    @Test("the C++ scaffold builds with strict flags, exports the entry alone, needs no libstdc++, passes check and refuses")
    func scaffoldCpp() throws {
        let parent = try Scratch.file("new-pack-cpp/.keep", contents: "")
        let directory = (parent as NSString).deletingLastPathComponent
        let made = try run(Build.formwork, ["new-pack", "ticket", "--lang", "cpp"], environment: environment, directory: directory)
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stdout.contains("Wrote ticket/: ticket.cpp, exports.map, Makefile, form.yaml, README.md."))
        let pack = "\(directory)/ticket"
        let built = try run(
            "/usr/bin/make", ["check", "FORMWORK=\(Build.formwork)", "FORMWORK_INCLUDE=\(Source.include)"],
            environment: environment, directory: pack)
        #expect(built.status == 0, "\(built.stdout)\n\(built.stderr)")
        #expect(built.stdout.contains("1 pack: 4 passed, 0 failed"), "\(built.stdout)")
        #expect(built.stdout.contains("Your answer *  ["), "the form renders with the new cell: \(built.stdout)")
        let needed = try run("/usr/bin/readelf", ["-d", "\(pack)/libticket.so"], environment: environment)
        #expect(!needed.stdout.contains("libstdc++"), "\(needed.stdout)")
        let values = try Scratch.file("new-pack-cpp/values.json", contents: #"{"answer": "a<b"}"#)
        let refused = try run(
            Build.formwork, ["validate", "\(pack)/form.yaml", "--values", values, "--pack-path", pack], environment: environment)
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("'<' is not allowed here"), "\(refused.stderr)")
    }
}
