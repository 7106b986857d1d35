import ArgumentParser
import FormworkCore
import FormworkHost

struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show a cell type's schema, text-input kind and traits, capabilities, pack and ABI.",
        discussion: """
            EXAMPLES:
              formwork inspect org.formwork.text-field
                  Its model fields, roles, text input and pack.
              formwork inspect com.example.rating --pack-path ./libmypack.so --json
                  A cell type of your own pack, as JSON.
            """)

    @Argument(help: "The cell type identifier, e.g. org.formwork.text-field.", completion: CellCompletion.ids) var cellID: String
    @OptionGroup var packs: PackOptions
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        let cell = try packs.cellType(cellID)
        Console.out(json ? Reports.inspectJSON(cell).serialized() + "\n" : TerminalText.safe(Reports.inspectText(cell), keepLayout: true))
    }
}
