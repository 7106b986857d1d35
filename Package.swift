// swift-tools-version:6.0
import PackageDescription

/// C packs are built like third-party packs: hidden visibility, one exported entry.
let cPackSettings: [CSetting] = [.unsafeFlags(["-fvisibility=hidden", "-Wall", "-Wextra", "-Werror"])]

let package = Package(
    name: "Formwork",
    products: [
        .executable(name: "formwork", targets: ["formwork"]),
        .library(name: "Formwork", targets: ["Formwork"]),
        .library(name: "FormworkPluginKit", targets: ["FormworkPluginKit"]),
        // First-party cell packs: each is its own shared library.
        .library(name: "StandardCells", type: .dynamic, targets: ["StandardCells"]),
        .library(name: "RatingCells", type: .dynamic, targets: ["RatingCells"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
    ],
    targets: [
        // 1. The contract.
        .target(name: "CFormwork", path: "Sources/CFormwork"),
        // 2. libffi, through pkg-config, with accessors for the ffi_type_* globals.
        .systemLibrary(
            name: "CFFI", path: "Sources/CFFI", pkgConfig: "libffi",
            providers: [.apt(["libffi-dev"])]),
        // 3. The host library.
        .target(name: "Formwork", dependencies: ["CFormwork", "CFFI", "Yams"]),
        // 4. The Swift SDK for pack authors (never links the host).
        .target(name: "FormworkPluginKit", dependencies: ["CFormwork"]),
        // 5. The command.
        .executableTarget(
            name: "formwork",
            dependencies: ["Formwork", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        // 6. First-party packs.
        .target(
            name: "StandardCells", dependencies: ["FormworkPluginKit"], path: "Plugins/StandardCells",
            exclude: ["exports.map"],
            // Export the entry and nothing else, like a C pack built with -fvisibility=hidden.
            linkerSettings: [.unsafeFlags(["-Xlinker", "--version-script=\(Context.packageDirectory)/Plugins/StandardCells/exports.map"])]),
        .target(name: "RatingCells", dependencies: ["CFormwork"], path: "Plugins/RatingCells", cSettings: cPackSettings),
        // Benchmarks (not tests): `swift build -c release && .build/release/formwork-bench`.
        .executableTarget(name: "formwork-bench", dependencies: ["Formwork"], path: "Benchmarks/RenderBenchmark"),
        // Tests mirror the source folders.
        .testTarget(
            name: "FormworkTests",
            dependencies: ["Formwork", "CFormwork"],
            exclude: ["Golden", "Fixtures"]),
    ]
)
