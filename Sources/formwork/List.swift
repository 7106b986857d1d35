import ArgumentParser
import FormworkCore
import FormworkHost

struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List packs and their cell types; broken packs are listed with the reason.")

    @OptionGroup var packs: PackOptions
    @Flag(help: "Print the stable JSON contract described in docs/cli.md.") var json = false
    @Flag(help: "Read every pack again, quarantined ones too, and refresh the registry cache.") var rescan = false

    func run() throws {
        let registry = packs.registry(rescan: rescan)
        Console.out(json ? Reports.listJSON(registry).serialized() + "\n" : TerminalText.safe(Reports.listText(registry), keepLayout: true))
    }
}
