// swift-tools-version:6.0
// The IBAN pack, a Swift cell pack built on its own: `swift build` writes .build/debug/libiban.so; `make check`
// checks and renders it. It depends on Formwork's FormworkPluginKit by version, as a pack of yours would: point
// the URL at Formwork's repository (or a clone of it).
import PackageDescription

let package = Package(
    name: "iban",
    products: [.library(name: "iban", type: .dynamic, targets: ["iban"])],
    dependencies: [.package(url: "file:///path/to/formwork", from: "0.2.0")],
    targets: [
        .target(
            name: "iban",
            dependencies: [.product(name: "FormworkPluginKit", package: "formwork")],
            // Export the entry and nothing else: the host sees formwork_pack_v1, not the Swift runtime's symbols.
            linkerSettings: [.unsafeFlags(["-Xlinker", "--version-script=\(Context.packageDirectory)/exports.map"])]
        )
    ]
)
