import ArgumentParser
import FormworkCore
import FormworkHost

extension OutputFormat: ExpressibleByArgument {}

/// Options shared by the commands that print a rendered form.
struct OutputOptions: ParsableArguments {
    @Option(help: "text, ansi, html or json. Default: ansi on a terminal (unless NO_COLOR), else text.")
    var format: OutputFormat?

    @Option(help: "Line width for text and ansi, 24 to 1000. Default: the terminal's width, else 80.")
    var width: Int?

    @Option(
        name: .shortAndLong, help: "Write to this file (atomically) instead of standard output.",
        completion: .file())
    var output: String?

    /// The line widths `--width` takes.
    static let widths = 24...1000

    func validate() throws {
        if let width, !Self.widths.contains(width) {
            throw ValidationError("--width must be between \(Self.widths.lowerBound) and \(Self.widths.upperBound), not \(width)")
        }
    }

    func emit(_ tree: ViewTree) throws { try Self.emit(tree, format: format, width: width, output: output) }

    /// An explicit `--format` always wins. Otherwise colour on a terminal, never with NO_COLOR,
    /// and also off a terminal with FORCE_COLOR (https://no-color.org, https://force-color.org).
    static func resolvedFormat(_ format: OutputFormat?, output: String?) -> OutputFormat {
        if let format { return format }
        return output == nil && ColorPreference.wantsColor(terminal: Terminal.isTerminal(1)) ? .ansi : .text
    }

    /// Renders `tree` straight to the output as the renderer produces it (a few sections at a
    /// time; the whole output is never held): to `output` atomically, or to standard output.
    static func emit(_ tree: ViewTree, format: OutputFormat?, width: Int?, output: String?) throws {
        let output = output == "-" ? nil : output  // `-o -` is standard output, as `-` is standard input
        let format = resolvedFormat(format, output: output)
        let width = width ?? (output == nil ? Terminal.columns(1) : nil) ?? 80
        if let output {
            let writer = try OutputFile.Writer(output)
            Renderer.write(tree, as: format, width: width) { writer.write($0) }
            try writer.commit()
        } else {
            Renderer.write(tree, as: format, width: width) { Console.out($0) }
        }
    }
}

struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render", abstract: "Render a form document as text, ANSI, HTML or JSON.",
        discussion: """
            EXAMPLES:
              formwork render Examples/Forms/login.yaml
                  The form as text on the terminal.
              formwork render form.yaml --values values.json --format html -o form.html
                  An HTML page with the values filled in (written atomically).
              formwork render form.yaml --format json | jq .sections
                  The view tree, for another program (docs/view-tree.md).
            """)

    @Argument(help: "The form document (.json, .yaml).", completion: .file(extensions: ["json", "yaml", "yml"]))
    var form: String
    @Option(help: "A JSON object of values keyed by field id.", completion: .file(extensions: ["json"]))
    var values: String?
    @OptionGroup var outputOptions: OutputOptions
    @OptionGroup var packs: PackOptions
    @OptionGroup var language: LanguageOptions
    @Flag(help: "When a cell fails, show an error in its place and still write the output (exit 0).")
    var keepGoing = false

    func run() throws {
        var rendering = Rendering(
            form: form, values: values, format: outputOptions.format, width: outputOptions.width, output: outputOptions.output,
            packPaths: packs.packPaths, isolation: packs.isolation, timeout: packs.timeout, noCache: packs.noCache,
            keepGoing: keepGoing)
        rendering.locale = language.locale
        try rendering.run()
    }
}

/// What `formwork render` does once its arguments are known.
///
/// ArgumentParser's reading of a command line (reflection over every option of the command
/// tree) is a large part of rendering a small form, so `main` first tries `init?(commonForm:)`
/// on the plain forms of the command line, as `Listing` does for `list`; everything else —
/// help, a misspelt or unknown option, a missing or out-of-range value, `--timeout` — goes through
/// ArgumentParser as before, with its messages.
struct Rendering {
    var form: String
    var values: String?
    var format: OutputFormat?
    var width: Int?
    var output: String?
    var packPaths: [String] = []
    var isolation = IsolationMode.shared
    var timeout = PackOptions.defaultTimeout
    var noCache = false
    var keepGoing = false
    /// `--locale` (nil: the environment's languages).
    var locale: String?

    init(
        form: String, values: String?, format: OutputFormat?, width: Int?, output: String?, packPaths: [String],
        isolation: IsolationMode, timeout: Double, noCache: Bool, keepGoing: Bool
    ) {
        self.form = form
        self.values = values
        self.format = format
        self.width = width
        self.output = output
        self.packPaths = packPaths
        self.isolation = isolation
        self.timeout = timeout
        self.noCache = noCache
        self.keepGoing = keepGoing
    }

    /// `render FORM` followed only by `--format text|ansi|html|json`, `--output`/`-o <path>`,
    /// `--values <path>`, `--width <24…1000>`, `--isolation shared|per-pack|in-process`, `--keep-going` and
    /// `--no-cache` (each at most once) and `--pack-path <path>` (repeatable), each option also as
    /// `--name=value`; a value that is empty or starts with `-` (other than the form's `-` for standard
    /// input), or that ArgumentParser would refuse, is left to it. Nil for anything else.
    init?(commonForm arguments: ArraySlice<String>) {
        guard arguments.first == "render" else { return nil }
        var rest = arguments.dropFirst()
        var form: String?
        var seen: Set<String> = []
        while let argument = rest.popFirst() {
            if argument == "-" || !argument.hasPrefix("-") {
                guard form == nil, !argument.isEmpty else { return nil }
                form = argument
                continue
            }
            if argument == "--keep-going" || argument == "--no-cache" {
                guard seen.insert(argument).inserted else { return nil }
                if argument == "--keep-going" { keepGoing = true } else { noCache = true }
                continue
            }
            var name = argument, value: String?
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<equals])
                value = String(argument[argument.index(after: equals)...])
            } else {
                value = rest.popFirst()
            }
            guard let value, !value.isEmpty, !value.hasPrefix("-") else { return nil }
            if name == "-o" { name = "--output" }
            guard name == "--pack-path" || seen.insert(name).inserted else { return nil }
            switch name {
            case "--format":
                guard let format = OutputFormat(rawValue: value) else { return nil }
                self.format = format
            case "--output": output = value
            case "--values": values = value
            case "--width":
                // As ArgumentParser reads an `Int` (`Int(_:)`), within the range `OutputOptions.validate` allows.
                guard let width = Int(value), OutputOptions.widths.contains(width) else { return nil }
                self.width = width
            case "--isolation":
                guard let isolation = IsolationMode(rawValue: value) else { return nil }
                self.isolation = isolation
            case "--pack-path": packPaths.append(value)
            case "--locale":
                guard LanguageTag.normalized(value) != nil else { return nil }
                locale = value
            default: return nil
            }
        }
        guard let form else { return nil }
        self.form = form
    }

    func run() throws {
        LanguageOptions.apply(locale: locale)
        try OutputFile.refuseInputs(output, inputs: [form, values])
        // The cell host starts first (a second one for a large document), so that its start-up overlaps
        // reading the registry and the document ...
        ProcessTuning.prepare(forDocument: form)
        let isolated =
            isolation == .inProcess
            ? nil : IsolatedCells(launcher: PackOptions.launcher(packPaths: packPaths, timeout: timeout), mode: isolation)
        isolated?.start(expectedRequests: ProcessTuning.estimatedFields(form))
        let registry = PackOptions.registry(packPaths: packPaths, isolation: isolation, timeout: timeout, noCache: noCache, rescan: false)
        let driver: any CellDriver = isolated ?? InProcessCells(registry: registry)
        defer { PackOptions.finish(driver) }
        // ... and loads the document's packs as the decoder meets them.
        let catalog = isolated.map { PreloadingCatalog(registry: registry, cells: $0) }
        let loaded = try FormLoading.load(
            form, values: values, registry: registry, catalog: catalog, requireComplete: false, driver: driver)
        let runtime = FormRuntime(driver: driver)
        let tree: ViewTree
        do {
            if ProcessTuning.handsOverForm(estimatedFields: ProcessTuning.estimatedFields(form)) {
                // The render frees each section's fields once their views are made.
                tree = try runtime.render(consume loaded, keepGoing: keepGoing)
            } else {
                // Kept, not freed object by object: it takes less time for a small form than it saves memory.
                KeptUntilExit.keep(loaded)
                tree = try runtime.render(loaded, keepGoing: keepGoing)
            }
        } catch {
            // Every failed field is named; nothing is written (an existing --output is left as it was).
            for line in Self.named(runtime.failures.dropFirst(), suffix: "") { Console.error(line) }
            if runtime.failures.count > 1 { Console.error("\(runtime.failures.count) fields failed; nothing was written") }
            throw error
        }
        // The cells are done: the cell hosts destroy their instances while the output is written.
        isolated?.requestEnd()
        for line in Self.named(runtime.failures[...], suffix: " (shown as an error in the output: --keep-going)") {
            Console.warning(line)
        }
        for rejection in runtime.rejections {
            Console.warning("\(values ?? form): \(rejection.pointer): \(rejection.message)")
        }
        try OutputOptions.emit(tree, format: format, width: width, output: output)
        // Freed object by object, a 100,000-field form's views took longer than writing them.
        KeptUntilExit.keep(tree)
    }
}

extension Rendering {
    /// The lines that name failed fields: each failure of a cell type up to `perCell`, then one line for the rest of
    /// that cell type's (a pack that fails every field of a 10,000-field form would otherwise print 10,000 lines).
    static func named(_ failures: ArraySlice<RuntimeError>, suffix: String, perCell: Int = 5) -> [String] {
        var shown: [String: Int] = [:]
        var order: [String] = []
        var lines: [String] = []
        for failure in failures {
            let key = failure.packPath + "\u{0}" + failure.cellID
            let count = shown[key, default: 0]
            if count == 0 { order.append(key) }
            shown[key] = count + 1
            if count < perCell { lines.append(failure.description + suffix) }
        }
        for key in order where shown[key]! > perCell {
            let parts = key.split(separator: "\u{0}", maxSplits: 1, omittingEmptySubsequences: false)
            lines.append("\(shown[key]! - perCell) more fields of cell '\(parts[1])' from \(parts[0]) failed too")
        }
        return lines
    }
}
