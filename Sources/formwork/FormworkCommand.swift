import ArgumentParser
import Formwork

@main
struct FormworkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "formwork",
        abstract: "Load cell packs, and inspect, validate and render forms built from their cells.",
        version: FormworkVersion.string,
        subcommands: [List.self, Inspect.self, Render.self, Validate.self, Preview.self, Gallery.self, Check.self, Schema.self, Fill.self])
}

/// Options every command that loads packs shares.
struct PackOptions: ParsableArguments {
    @Option(name: .customLong("pack-path"), help: ArgumentHelp(
        "A pack (.so) or a directory of packs, searched before FORMWORK_PACK_PATH; repeatable.",
        valueName: "path"), completion: .file(extensions: ["so"]))
    var packPaths: [String] = []

    func registry() -> Registry {
        Registry.discover(packPaths: packPaths, environment: ProcessEnvironment.variables)
    }
}
