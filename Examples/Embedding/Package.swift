// swift-tools-version:6.0
// A program that embeds Formwork: loads packs, decodes a form, applies values from
// memory and renders it. `swift run --package-path Examples/Embedding embed FORM`.
// (Tests/DependencyCheck builds these same sources against a tagged Formwork by version.)
import PackageDescription

let package = Package(
    name: "Embedding",
    dependencies: [.package(name: "Formwork", path: "../..")],
    targets: [
        .executableTarget(
            name: "embed",
            dependencies: [
                .product(name: "Formwork", package: "Formwork"),
                .product(name: "StandardCells", package: "Formwork"),  // built beside the executable, found there
            ])
    ]
)
