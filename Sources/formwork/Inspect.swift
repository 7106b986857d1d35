import ArgumentParser
import Formwork

struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show a cell type's schema, text-input kind and traits, capabilities, pack and ABI.")

    @Argument(help: "The cell type identifier, e.g. org.formwork.text-field.") var cellID: String
    @OptionGroup var packs: PackOptions
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        let registry = packs.registry()
        do {
            let cell = try registry.cellType(cellID)
            Console.out(json ? Reports.inspectJSON(cell).serialized() + "\n" : Reports.inspectText(cell))
        } catch {
            Console.error(error.description)
            throw Exit.unavailable
        }
    }
}
