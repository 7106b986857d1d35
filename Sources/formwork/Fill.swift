import ArgumentParser
import FormworkCore
import FormworkHost
#if canImport(Glibc)
    import Glibc
#endif

struct Fill: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fill",
        abstract: "Fill in a form interactively (or from an answers file) and write its values as JSON.",
        discussion: """
            On a terminal the form is drawn on the screen and edited in place: Tab / Shift-Tab and Up/Down move \
            between fields, text is edited as in a shell, arrows choose in pickers and change numbers and dates, \
            Space toggles; Submit shows a summary to confirm; Esc or Ctrl-C cancels and nothing is written.

            Line mode (--accessible, --line, TERM=dumb, a pipe, or --answers FILE) asks field by field on \
            standard error: one line per prompt, exactly as typed. Enter alone keeps a field's current value; \
            a single - clears it.

            The values go to standard output or --output (written atomically, only when the form is complete).

            EXAMPLES:
              formwork fill Examples/Forms/register.yaml -o me.json
                  Fill the form in on the terminal; answers with a secret are written 0600.
              formwork fill form.yaml --values me.json -o me.json
                  Change earlier answers.
              formwork fill form.yaml --answers answers.txt
                  One answer per line from a file, for scripts and tests.
            """)

    @Argument(help: "The form document (.json, .yaml).", completion: .file(extensions: ["json", "yaml", "yml"]))
    var form: String
    @Option(help: "Start from these values (a JSON object keyed by field id).", completion: .file(extensions: ["json"]))
    var values: String?
    @Option(help: "Read the answers from this file instead of the terminal.", completion: .file())
    var answers: String?
    @Option(name: .shortAndLong, help: "Write the values to this file (atomically).", completion: .file())
    var output: String?
    @Flag(help: "Plain sentences for screen readers: no symbols, no colour, every trait spelled out.")
    var accessible = false
    @Flag(help: "Ask field by field in line mode even on a terminal.")
    var line = false
    @OptionGroup var packs: PackOptions
    @OptionGroup var language: LanguageOptions

    func run() throws {
        language.apply()
        try OutputFile.refuseInputs(output, inputs: [form, values, answers])
        ProcessTuning.prepare(forDocument: form)  // before any thread or cell host is started
        let registry = packs.registry()
        // The cell host starts while the document is read, and loads its packs as the decoder meets them
        // (the first screen waits for neither).
        let driver = packs.driver(registry)
        defer { packs.finish(driver) }
        let isolated = driver as? IsolatedCells
        isolated?.start()
        let catalog = isolated.map { PreloadingCatalog(registry: registry, cells: $0) }
        let loaded = try FormLoading.load(
            form, values: values, registry: registry, catalog: catalog, requireComplete: false, driver: driver)
        if answers == nil, !accessible, !line, let term = ProcessEnvironment.variables["TERM"], term != "dumb", !term.isEmpty,
            let terminal = RawTerminal()
        {
            try runInteractive(loaded, terminal: terminal, driver: driver)
            return
        }
        let input: LineInput
        if let answers {
            guard let file = fopen(answers, "r") else {
                Console.error("\(answers): cannot open the answers file: \(String(cString: strerror(errno)))")
                throw Exit.noInput
            }
            input = LineInput(file: file, interactive: false)
        } else {
            input = LineInput(file: fdopen(0, "r"), interactive: Terminal.isTerminal(0))
        }
        let session = FillSession(
            form: loaded, terminal: input,
            options: FillOptions(accessible: accessible, color: ColorPreference.wantsColor(terminal: Terminal.isTerminal(2))),
            driver: driver)
        if input.interactive { TerminalState.restoreOnInterrupt() }
        let filled: Form
        do { filled = try session.run() } catch {
            if case .inputEnded = error, input.interactive {
                Console.write(2, "\nformwork: interrupted; nothing was written\n")
                throw Exit.interrupted
            }
            Console.write(2, "\n")
            if case .inputEnded = error, let answers {
                Console.error(error.description + " (\(answers) has too few lines: one answer per prompt)")
                throw Exit.dataError
            }
            throw error
        }
        try write(filled)
    }

    /// The terminal form; the terminal is restored before anything else is printed.
    func runInteractive(_ form: Form, terminal: RawTerminal, driver: any CellDriver) throws {
        let session = TerminalFormSession(
            form: form, terminal: terminal,
            options: FillOptions(color: ColorPreference.wantsColor(terminal: true)), driver: driver)
        let filled: Form
        do {
            filled = try session.run()
        } catch {
            terminal.close()
            switch error {
            case .cancelled, .inputEnded:
                Console.write(2, "formwork: cancelled; nothing was written\n")
                throw Exit.interrupted
            case .runtime: throw error
            }
        }
        terminal.close()
        let count = filled.sections.reduce(0) { $0 + $1.fields.filter { $0.valueField != nil }.count }
        Console.write(
            2, ColorPreference.wantsColor(terminal: true) ? "\u{1B}[32m✓ \(count) fields filled\u{1B}[0m\n" : "✓ \(count) fields filled\n")
        try write(filled)
    }

    func write(_ filled: Form) throws {
        let json = filled.valuesJSON.serialized() + "\n"
        do {
            if let output, output != "-" {
                // Answers that hold a secure value (a password) go to a file only the user can read.
                let secure = filled.fields.contains { field in
                    field.textInput.secureEntry == true && field.valueField.flatMap { field.model[$0] }.map { $0 != .string("") } == true
                }
                try OutputFile.write(json, to: output, private: secure)
            } else {
                Console.out(json)
                if let code = Console.outputFailure {
                    throw OutputFile.WriteError(path: "standard output", reason: String(cString: strerror(code)), cannotCreate: false)
                }
            }
        } catch {
            // The answers are never lost: kept in a file only the user can read, and the error says where.
            if let recovered = OutputFile.recover(json, name: filled.id) {
                Console.note("the answers were saved to \(recovered) (readable by you only)")
            }
            throw error
        }
    }
}

/// Answers, one line at a time, from a file or standard input; prompts on standard error.
final class LineInput: FillTerminal {
    let file: UnsafeMutablePointer<FILE>
    let interactive: Bool

    init(file: UnsafeMutablePointer<FILE>, interactive: Bool) {
        self.file = file
        self.interactive = interactive
    }

    /// The corresponding C function is `getline`; with `secure` on a terminal, echo is
    /// switched off through `tcsetattr` for the line.
    func readLine(secure: Bool) -> String? {
        let hidden = secure && interactive && TerminalState.echo(false)
        defer { if hidden { _ = TerminalState.echo(true) } }
        var buffer: UnsafeMutablePointer<CChar>? = nil
        var capacity = 0
        defer { free(buffer) }
        let count = getline(&buffer, &capacity, file)
        guard count >= 0, let buffer else { return nil }
        var line = String(decoding: UnsafeRawBufferPointer(start: buffer, count: count), as: UTF8.self)
        while line.hasSuffix("\n") || line.hasSuffix("\r") { line.removeLast() }
        if !interactive && !secure { Console.write(2, TerminalText.safe(line) + "\n") }  // a transcript reads like the terminal
        return line
    }

    func write(_ text: String) { Console.write(2, text) }
}

/// The terminal's echo setting, restored on Ctrl-C: globals because a signal handler may touch nothing else.
/// The corresponding C functions are `tcgetattr`, `tcsetattr` and `signal`.
enum TerminalState {
    nonisolated(unsafe) static var saved = termios()
    nonisolated(unsafe) static var hasSaved = false

    static func echo(_ on: Bool) -> Bool {
        var t = termios()
        guard tcgetattr(0, &t) == 0 else { return false }
        if !hasSaved { saved = t; hasSaved = true }
        if on { t.c_lflag |= tcflag_t(ECHO) } else { t.c_lflag &= ~tcflag_t(ECHO) }
        return tcsetattr(0, TCSANOW, &t) == 0
    }

    static func restoreOnInterrupt() {
        signal(SIGINT) { _ in
            if TerminalState.hasSaved { tcsetattr(0, TCSANOW, &TerminalState.saved) }
            let message = "\nformwork: interrupted; nothing was written\n"
            _ = message.withCString { Glibc.write(2, $0, strlen($0)) }
            _exit(130)
        }
    }
}
