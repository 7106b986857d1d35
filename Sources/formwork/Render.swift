import ArgumentParser
import FormworkCore
import FormworkHost

extension OutputFormat: ExpressibleByArgument {}

/// Options shared by the commands that print a rendered form.
struct OutputOptions: ParsableArguments {
    @Option(help: "text, ansi, html or json. Default: ansi on a terminal (unless NO_COLOR), else text.")
    var format: OutputFormat?

    @Option(help: "Line width for text and ansi. Default: the terminal's width, else 80.")
    var width: Int?

    @Option(
        name: .shortAndLong, help: "Write to this file (atomically) instead of standard output.",
        completion: .file())
    var output: String?

    func validate() throws {
        if let width, width < 24 || width > 1000 { throw ValidationError("--width must be between 24 and 1000, not \(width)") }
    }

    /// An explicit `--format` always wins. Otherwise colour on a terminal, never with NO_COLOR,
    /// and also off a terminal with FORCE_COLOR (https://no-color.org, https://force-color.org).
    var resolvedFormat: OutputFormat {
        if let format { return format }
        return output == nil && ColorPreference.wantsColor(terminal: Terminal.isTerminal(1)) ? .ansi : .text
    }

    var resolvedWidth: Int { width ?? (output == nil ? Terminal.columns(1) : nil) ?? 80 }

    /// Renders `tree` straight to the output as the renderer produces it (a few sections at a
    /// time; the whole output is never held): to `--output` atomically, or to standard output.
    func emit(_ tree: ViewTree) throws {
        if let output {
            let writer = try OutputFile.Writer(output)
            Renderer.write(tree, as: resolvedFormat, width: resolvedWidth) { writer.write($0) }
            try writer.commit()
        } else {
            Renderer.write(tree, as: resolvedFormat, width: resolvedWidth) { Console.out($0) }
        }
    }
}

struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "render", abstract: "Render a form document as text, ANSI, HTML or JSON.")

    @Argument(help: "The form document (.json, .yaml).", completion: .file(extensions: ["json", "yaml", "yml"]))
    var form: String
    @Option(help: "A JSON object of values keyed by field id.", completion: .file(extensions: ["json"]))
    var values: String?
    @OptionGroup var outputOptions: OutputOptions
    @OptionGroup var packs: PackOptions
    @Flag(help: "When a cell fails, show an error in its place and still write the output (exit 0).")
    var keepGoing = false

    func run() throws {
        let registry = packs.registry()
        let driver = packs.driver(registry)
        defer { packs.finish(driver) }
        // The cell host starts while the document is read (and a second one for a large document).
        (driver as? IsolatedCells)?.start(expectedRequests: FormLoading.estimatedFields(form))
        let loaded = try FormLoading.load(form, values: values, registry: registry, requireComplete: false)
        let runtime = FormRuntime(driver: driver)
        let tree: ViewTree
        do { tree = try runtime.render(loaded, keepGoing: keepGoing) } catch {
            // Every failed field is named; nothing is written (an existing --output is left as it was).
            for failure in runtime.failures.dropFirst() { Console.error(failure.description) }
            if runtime.failures.count > 1 { Console.error("\(runtime.failures.count) fields failed; nothing was written") }
            throw error
        }
        for failure in runtime.failures { Console.warning(failure.description + " (shown as an error in the output: --keep-going)") }
        for rejection in runtime.rejections {
            Console.warning("\(values ?? form): \(rejection.pointer): \(rejection.message)")
        }
        try outputOptions.emit(tree)
        // Freed object by object, a 100,000-field form and its views took longer than writing them.
        ExitArena.keep(tree)
        ExitArena.keep(loaded)
    }
}
