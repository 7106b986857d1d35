// swift-tools-version:6.0
// libFuzzer targets, kept out of the main package so `swift build` stays normal.
//   scripts/fuzz [SECONDS]
import PackageDescription

let package = Package(
    name: "FormworkFuzz",
    dependencies: [.package(name: "Formwork", path: "..")],
    targets: [
        .executableTarget(
            name: "DocumentFuzzer",
            dependencies: [.product(name: "Formwork", package: "Formwork")],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]),
    ]
)
