// swift-tools-version:6.1
import PackageDescription

/// Whether this package is being developed (the root package) rather than used as a
/// dependency (checked out under .build/checkouts or Xcode's SourcePackages). Strict
/// warnings and the packs' export version script are development-only flags: SwiftPM
/// refuses "unsafe" flags in packages used by version, and the packs do not need them
/// to work (RatingCells hides its symbols with a pragma; StandardCells then exports
/// more than its entry, which `formwork check` reports but accepts).
let isRootPackage = !Context.packageDirectory.contains("/checkouts/")

/// C packs are built like third-party packs: hidden visibility (a pragma in the source), one exported entry.
let cPackSettings: [CSetting] = isRootPackage ? [.unsafeFlags(["-fvisibility=hidden", "-Wall", "-Wextra", "-Werror"])] : []

/// Release builds of the host and the command skip the run-time exclusivity checks (`swift_beginAccess` on every
/// class property access, measurable on every configure and render: docs/performance.md). Debug builds, and so the tests,
/// keep them: a violation is caught there.
/// Release builds link the C++ standard library the Swift runtime needs from `libstdc++.a`: this folder holds a linker
/// script named `libstdc++.so` that the driver's `-lstdc++` finds first (Linking/README.md). No process then loads and
/// relocates `libstdc++.so.6` (about a millisecond of every run, docs/performance.md).
let staticLibStdCxx: [String] = ["-L\(Context.packageDirectory)/Linking/static-libstdc++"]

let releaseSwiftSettings: [SwiftSetting] =
    isRootPackage ? [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))] : []

/// First-party Swift packs use neither Swift concurrency nor regular expressions: without their implicit
/// imports a pack does not link libswift_Concurrency, libdispatch, libswift_StringProcessing and
/// libswift_RegexParser, and loading it (in every cell host) costs less. Their release
/// builds, and FormworkPluginKit's here, skip the run-time exclusivity checks as the host's do (in a pack each
/// check also looks the thread's access set up through `__tls_get_addr`).
/// A pack built against FormworkPluginKit as a dependency keeps them (SwiftPM refuses these flags there).
let packSwiftSettings: [SwiftSetting] =
    isRootPackage
    ? [
        .unsafeFlags([
            "-Xfrontend", "-disable-implicit-concurrency-module-import", "-Xfrontend", "-disable-implicit-string-processing-module-import",
        ]),
        .unsafeFlags(["-enforce-exclusivity=unchecked", "-cross-module-optimization"], .when(configuration: .release)),
    ] : []

let package = Package(
    name: "Formwork",
    products: [
        .executable(name: "formwork", targets: ["formwork"]),
        .library(name: "Formwork", targets: ["Formwork"]),
        .library(name: "FormworkCore", targets: ["FormworkCore"]),
        .library(name: "FormworkHost", targets: ["FormworkHost"]),
        .library(name: "FormworkPluginKit", targets: ["FormworkPluginKit"]),
        // The web runtime: a router-agnostic core and its Hummingbird 2 adapter (docs/server.md).
        .library(name: "FormworkServer", targets: ["FormworkServer"]),
        .library(name: "FormworkHummingbird", targets: ["FormworkHummingbird"]),
        .executable(name: "formwork-server", targets: ["formwork-server"]),
        // First-party cell packs: each is its own shared library.
        .library(name: "StandardCells", type: .dynamic, targets: ["StandardCells"]),
        .library(name: "RatingCells", type: .dynamic, targets: ["RatingCells"]),
    ],
    traits: [
        // The sanitizer build (scripts/sanitizer-build) turns this on: DocumentFuzzer links libFuzzer.
        .trait(name: "Fuzzing", description: "Link DocumentFuzzer with libFuzzer (the sanitizer build of scripts/test and scripts/fuzz).")
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // `swift package generate-documentation` (the DocC catalog in Sources/FormworkCore/FormworkCore.docc; `--target FormworkCore`, `FormworkHost`, `FormworkPluginKit`).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
        // The web runtime's ecosystem (docs/server.md): the HTTP server, its lifecycle, logs and metrics, HMAC for
        // form tokens, CSV export. None of them is linked into `formwork` itself (it starts `formwork-server`).
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.0.0"),
        // Hummingbird's own dependency; its HTTP part types name what the request deadline handler sees.
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.5.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.1.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/yaslab/CSV.swift", from: "2.5.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // The PostgreSQL store, for several `formwork serve` instances sharing one database.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    ],
    targets: [
        // 1. The contract.
        .target(name: "CFormwork", path: "Sources/CFormwork"),
        // 2. libffi, through pkg-config, with accessors for the ffi_type_* globals.
        .systemLibrary(
            name: "CFFI", path: "Sources/CFFI", pkgConfig: "libffi",
            providers: [.apt(["libffi-dev"])]),
        // libyaml, through pkg-config: the YAML reader's event source (the system's copy, no Foundation).
        .systemLibrary(
            name: "CLibYAML", path: "Sources/CLibYAML", pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"]), .yum(["libyaml-devel"]), .brew(["libyaml"])]),
        // Linux calls Swift cannot make directly (memfd_create, prctl/seccomp), prefixed fwsys_.
        .target(name: "CFormworkSystem", path: "Sources/CFormworkSystem"),
        // 3. Everything that needs no dlopen: schema, documents, validation, view tree, renderers.
        //    It never imports CFormwork or CFFI; the compiler enforces the boundary.
        .target(name: "FormworkCore", dependencies: ["CLibYAML"], swiftSettings: releaseSwiftSettings),
        // 4. Loading, registry, runtime through the ABI, conformance. Implements the core's CellDriver.
        .target(name: "FormworkHost", dependencies: ["FormworkCore", "CFormwork", "CFFI", "CFormworkSystem"], swiftSettings: releaseSwiftSettings),
        // The umbrella: `import Formwork` re-exports both.
        .target(name: "Formwork", dependencies: ["FormworkCore", "FormworkHost"]),
        // 5. The Swift SDK for pack authors (never links the host).
        .target(name: "FormworkPluginKit", dependencies: ["CFormwork"], swiftSettings: packSwiftSettings),
        // 6. The command.
        .executableTarget(
            name: "formwork",
            dependencies: ["FormworkCore", "FormworkHost", "CFormworkSystem", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: releaseSwiftSettings,
            // Release builds link the Swift runtime in: less start-up per run (docs/performance.md); packs keep
            // the shared runtime (none of its symbols are exported from here). Debug stays dynamic: the test bundle
            // links this target beside XCTest.
            linkerSettings: isRootPackage
                ? [
                    .unsafeFlags(
                        ["-static-stdlib", "-l_FoundationCollections", "-l_FoundationCShims"] + staticLibStdCxx,
                        .when(platforms: [.linux], configuration: .release))
                ] : []),
        // The server's store: the system's SQLite (WAL, group commit), through pkg-config.
        .systemLibrary(
            name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .yum(["sqlite-devel"]), .brew(["sqlite"])]),
        // 8. The web runtime's core: forms served from a folder, submissions decoded and checked as `validate` checks
        //    values, pages for a request, tokens, and the stores. No HTTP types (the adapter has them).
        .target(
            name: "FormworkServer",
            dependencies: [
                "FormworkCore", "FormworkHost", "CSQLite",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]),
        //    The Hummingbird 2 adapter: routes, middleware, the application `formwork serve` runs.
        .target(
            name: "FormworkHummingbird",
            dependencies: [
                "FormworkServer",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Metrics", package: "swift-metrics"),
            ]),
        //    `formwork serve` and `formwork submissions` run this executable (it links Foundation and SwiftNIO,
        //    which `formwork` itself never loads: docs/server.md).
        .executableTarget(
            name: "formwork-server",
            dependencies: [
                "FormworkServer", "FormworkHummingbird", "FormworkHost",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "CSV", package: "CSV.swift"),
            ],
            // Linked as the command is (release): installed beside it, it needs no Swift runtime library.
            linkerSettings: isRootPackage
                ? [
                    .unsafeFlags(
                        ["-static-stdlib", "-lFoundation", "-lCoreFoundation", "-lFoundationInternationalization", "-lFoundationEssentials", "-l_FoundationICU", "-l_FoundationCollections", "-l_FoundationCShims", "-lstdc++"] + staticLibStdCxx,
                        .when(platforms: [.linux], configuration: .release))
                ] : []),
        //    Examples/Server: an app of its own that mounts two forms (docs/server.md); built with everything else.
        .executableTarget(
            name: "formwork-example-server", dependencies: ["FormworkServer", "FormworkHummingbird", .product(name: "Hummingbird", package: "hummingbird")],
            path: "Examples/Server"),
        // 7. First-party packs.
        .target(
            name: "StandardCells", dependencies: ["FormworkPluginKit"], path: "Plugins/StandardCells",
            exclude: ["exports.map"], swiftSettings: packSwiftSettings,
            // Export the entry and nothing else, like a C pack built with -fvisibility=hidden.
            linkerSettings: isRootPackage
                ? [
                    .unsafeFlags(["-Xlinker", "--version-script=\(Context.packageDirectory)/Plugins/StandardCells/exports.map"]),
                    // Its own copy of the Swift runtime (hidden) and of libstdc++: a cell host opening it binds no
                    // libswiftCore.so or libstdc++.so.6 (Linking/README.md).
                    .unsafeFlags(["-static-stdlib"] + staticLibStdCxx, .when(platforms: [.linux], configuration: .release)),
                ] : []),
        // Plain C: NoSwiftRuntime.c satisfies SwiftPM's swiftrt.o, and with the static libraries nothing of the Swift
        // runtime or of libstdc++ is linked in: the pack needs libc and libm alone (Linking/README.md).
        .target(
            name: "RatingCells", dependencies: ["CFormwork"], path: "Plugins/RatingCells", cSettings: cPackSettings,
            linkerSettings: isRootPackage
                ? [.unsafeFlags(["-static-stdlib"] + staticLibStdCxx, .when(platforms: [.linux], configuration: .release))] : []),
        // Benchmarks (not tests): `swift build -c release && .build/release/formwork-bench`.
        .executableTarget(name: "formwork-bench", dependencies: ["Formwork"], path: "Benchmarks/RenderBenchmark"),
        // The performance suite against C baselines (docs/performance.md): `.build/release/formwork-perf`.
        .executableTarget(name: "formwork-perf", dependencies: ["Formwork"], path: "Benchmarks/PerformanceSuite"),
        // The server benchmark's baseline: Hummingbird's fixed-string route (Benchmarks/server-bench).
        .executableTarget(
            name: "formwork-server-baseline", dependencies: [.product(name: "Hummingbird", package: "hummingbird")],
            path: "Benchmarks/ServerBaseline"),
        // The document fuzzer (Fuzz/): libFuzzer in the sanitizer build (trait Fuzzing), a corpus replayer otherwise.
        .target(name: "CFuzzing", path: "Fuzz/CFuzzing"),
        .executableTarget(
            name: "DocumentFuzzer", dependencies: ["Formwork", "CFuzzing"], path: "Fuzz/DocumentFuzzer",
            swiftSettings: [.define("FUZZING", .when(traits: ["Fuzzing"]))],
            linkerSettings: [
                .linkedLibrary("clang_rt.fuzzer_no_main-x86_64", .when(traits: ["Fuzzing"])),
                .linkedLibrary("stdc++", .when(traits: ["Fuzzing"])),
            ]),
        // Tests mirror the modules; shared helpers (built products, fixtures, golden files) live in FormworkTestSupport.
        .target(name: "FormworkTestSupport", dependencies: ["FormworkCore", "FormworkHost"], path: "Tests/FormworkTestSupport"),
        .testTarget(name: "FormworkCoreTests", dependencies: ["FormworkCore", "FormworkTestSupport"]),
        .testTarget(
            name: "FormworkHostTests",
            dependencies: ["Formwork", "FormworkCore", "FormworkHost", "CFormwork", "CFormworkSystem", "FormworkTestSupport"]),
        .testTarget(name: "FormworkPluginKitTests", dependencies: ["FormworkPluginKit", "CFormwork", "FormworkTestSupport"]),
        .testTarget(name: "formworkTests", dependencies: ["formwork", "FormworkCore", "FormworkHost", "FormworkTestSupport"]),
        .testTarget(
            name: "FormworkServerTests",
            dependencies: [
                "FormworkServer", "FormworkHummingbird", "FormworkCore", "FormworkHost", "FormworkTestSupport",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]),
    ]
)
