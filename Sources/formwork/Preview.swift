import ArgumentParser
import FormworkCore
import FormworkHost

struct Preview: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preview", abstract: "Render one cell type with its defaults.",
        discussion: """
            EXAMPLES:
              formwork preview org.formwork.segments
                  A cell type as it draws with its defaults.
              formwork preview com.example.rating --pack-path ./libmypack.so --format html
                  Your own cell type, as an HTML page.
            """)

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
        abstract: "Render every installed cell type with its defaults: a catalog for pack authors.",
        discussion: """
            EXAMPLES:
              formwork gallery --format html -o gallery.html
                  Every installed cell type on one page.
            """)

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
