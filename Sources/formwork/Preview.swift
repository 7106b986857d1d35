import ArgumentParser
import Formwork

struct Preview: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Render one cell type with its defaults.")

    @Argument(help: "The cell type identifier.") var cellID: String
    @OptionGroup var outputOptions: OutputOptions
    @OptionGroup var packs: PackOptions

    func run() throws {
        let registry = packs.registry()
        let cell: CellType
        do { cell = try registry.cellType(cellID) } catch {
            Console.error(error.description)
            throw Exit.unavailable
        }
        do { try outputOptions.emit(try FormRuntime().render(Samples.previewForm(for: cell))) } catch let error as RuntimeError {
            Console.error(error.description)
            throw Exit.software
        }
    }
}

struct Gallery: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Render every installed cell type with its defaults: a catalog for pack authors.")

    @OptionGroup var outputOptions: OutputOptions
    @OptionGroup var packs: PackOptions

    func run() throws {
        let registry = packs.registry()
        for failure in registry.failures { Console.warning(failure.description) }
        do { try outputOptions.emit(try FormRuntime().render(Samples.galleryForm(registry))) } catch let error as RuntimeError {
            Console.error(error.description)
            throw Exit.software
        }
    }
}
