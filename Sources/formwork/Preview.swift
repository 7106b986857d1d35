import ArgumentParser
import FormworkCore
import FormworkHost

struct Preview: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "preview", abstract: "Render one cell type with its defaults.")

    @Argument(help: "The cell type identifier.", completion: CellCompletion.ids) var cellID: String
    @OptionGroup var outputOptions: OutputOptions
    @OptionGroup var packs: PackOptions

    func run() throws {
        let registry = packs.registry()
        let cell = try registry.cellType(cellID)
        let driver = packs.driver(registry)
        defer { packs.finish(driver) }
        try outputOptions.emit(try FormRuntime(driver: driver).render(Samples.previewForm(for: cell)))
    }
}

struct Gallery: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gallery",
        abstract: "Render every installed cell type with its defaults: a catalog for pack authors.")

    @OptionGroup var outputOptions: OutputOptions
    @OptionGroup var packs: PackOptions

    func run() throws {
        let registry = packs.registry()
        for failure in registry.failures { Console.warning(failure.description) }
        let driver = packs.driver(registry)
        defer { packs.finish(driver) }
        try outputOptions.emit(try FormRuntime(driver: driver).render(Samples.galleryForm(registry)))
    }
}
