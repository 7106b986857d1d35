import FormworkCore
import CFormwork

/// One conformance check of a pack (`formwork check`), in the spirit of clap-validator.
public enum ConformanceCheck: Sendable, Equatable, CustomStringConvertible {
    /// Entry symbol, ABI negotiation and every loader validation.
    case load
    /// The ELF dynamic symbol table exports the entry and nothing the host could mistake for it.
    case exports
    /// `init` / `deinit` balance and re-initialisation.
    case lifecycle
    /// create → configure (generic and typed) → render → selection / highlight → value_changed → destroy.
    case cell(String)
    /// ABI 1.2: each source of the pack's `org.formwork.choices/1` lists valid choices.
    case choices

    public var description: String {
        switch self {
        case .load: "load"
        case .exports: "exports"
        case .lifecycle: "lifecycle"
        case .choices: "choices"
        case .cell(let id): id
        }
    }

    /// Parses `description` back (for the child process protocol).
    public init(_ text: String) {
        switch text {
        case "load": self = .load
        case "exports": self = .exports
        case "lifecycle": self = .lifecycle
        case "choices": self = .choices
        default: self = .cell(text)
        }
    }
}

/// The outcome of one check.
public struct CheckResult: Sendable, Equatable {
    public var check: String
    public var passed: Bool
    /// One line: what passed, or exactly what failed (cell, step, values, status, log).
    public var message: String
    /// For `load`: the cell identifiers to check next.
    public var cells: [String] = []
    /// For `load`: whether the pack offers choices (`org.formwork.choices/1`), to check next.
    public var offersChoices = false

    public init(check: String, passed: Bool, message: String, cells: [String] = [], offersChoices: Bool = false) {
        self.check = check
        self.passed = passed
        self.message = message
        self.cells = cells
        self.offersChoices = offersChoices
    }

    package var json: JSON {
        .object([
            ("check", .string(check)), ("passed", .bool(passed)), ("message", .string(message)),
            ("cells", cells.isEmpty ? nil : .array(cells.map(JSON.string))),
            ("offersChoices", offersChoices ? .bool(true) : nil),
        ])
    }

    package init?(json: JSON) {
        guard case .string(let check)? = json["check"], case .bool(let passed)? = json["passed"],
            case .string(let message)? = json["message"]
        else { return nil }
        var cells: [String] = []
        if case .array(let items)? = json["cells"] { cells = items.compactMap { if case .string(let s) = $0 { s } else { nil } } }
        self.init(check: check, passed: passed, message: message, cells: cells, offersChoices: json["offersChoices"] == .bool(true))
    }
}

/// Runs conformance checks in this process. `formwork check` runs each in a child
/// process so that a crash or a hang is reported instead of taking the checker down.
public enum Conformance {
    public static func run(_ check: ConformanceCheck, pack path: String) -> CheckResult {
        PackOutput.redirect { runUnguarded(check, pack: path) }
    }

    static func runUnguarded(_ check: ConformanceCheck, pack path: String) -> CheckResult {
        switch check {
        case .load: return load(path)
        case .exports: return exports(path)
        case .lifecycle: return lifecycle(path)
        case .choices: return choices(path)
        case .cell(let id): return cell(id, path: path)
        }
    }

    /// Lists every source of the pack's choices, as a render would (init first), and counts what each gave.
    static func choices(_ path: String) -> CheckResult {
        let pack: Pack
        do { pack = try PackLoader.load(path: path).pack } catch {
            return CheckResult(check: "choices", passed: false, message: "does not load: \(error.message)")
        }
        let cells = InProcessCells(entries: [:])
        var counts: [String] = []
        for source in pack.choiceSources {
            CheckProgress.step("list '\(source)'")
            do throws(RuntimeError) {
                let choices = try cells.choices(packPath: path, source: source)
                guard !choices.isEmpty else {
                    return CheckResult(
                        check: "choices", passed: false, message: "source '\(source)' lists no choices; a field could offer nothing")
                }
                counts.append("\(source): \(choices.count)")
            } catch {
                return CheckResult(check: "choices", passed: false, message: "source '\(source)': \(error.message)")
            }
        }
        CheckProgress.step("deinit")
        cells.drain()
        return CheckResult(check: "choices", passed: true, message: "\(FW_PACK_EXTENSION_CHOICES): " + counts.joined(separator: ", "))
    }

    static func load(_ path: String) -> CheckResult {
        do {
            CheckProgress.step("entry")
            let pack = try PackLoader.load(path: path).pack
            // The entry returns static data without side effects: a second call must describe the same pack.
            CheckProgress.step("entry (second call)")
            let again = try PackLoader.load(path: path).pack
            if String(describing: again.cellTypes.map(Self.signature)) != String(describing: pack.cellTypes.map(Self.signature))
                || again.id != pack.id || again.version != pack.version
            {
                return CheckResult(
                    check: "load", passed: false,
                    message: "a second call of formwork_pack_v1 describes a different pack; return the same static descriptor every time")
            }
            let typed = pack.cellTypes.filter { $0.configure != .generic }.count
            return CheckResult(
                check: "load", passed: true,
                message:
                    "\(pack.id) \(pack.version), ABI \(pack.abi), \(pack.cellTypes.count) cell type\(pack.cellTypes.count == 1 ? "" : "s") (\(typed) typed); every descriptor valid",
                cells: pack.cellTypes.map(\.id), offersChoices: !pack.choiceSources.isEmpty)
        } catch {
            return CheckResult(check: "load", passed: false, message: error.message)
        }
    }

    static func exports(_ path: String) -> CheckResult {
        let symbols: [String]
        do { symbols = try ELFSymbols.exported(path: path) } catch {
            return CheckResult(check: "exports", passed: false, message: "cannot read the dynamic symbol table: \(error)")
        }
        guard symbols.contains(FW_PACK_ENTRY_SYMBOL) else {
            return CheckResult(check: "exports", passed: false, message: "the dynamic symbol table does not export `formwork_pack_v1`")
        }
        let suspicious = symbols.filter { $0.hasPrefix("formwork_") && !Self.isEntryName($0) }
        if !suspicious.isEmpty {
            return CheckResult(
                check: "exports", passed: false,
                message:
                    "exports \(suspicious.joined(separator: ", ")), which look like Formwork entries but are not; hide them (-fvisibility=hidden, a version script)"
            )
        }
        let linkerDefined: Set<String> = ["__bss_start", "_edata", "_end", "_init", "_fini"]
        let others = symbols.filter { !Self.isEntryName($0) && !linkerDefined.contains($0) }.count
        let entries = symbols.filter(Self.isEntryName).joined(separator: ", ")
        return CheckResult(
            check: "exports", passed: true,
            message: others == 0
                ? "exports \(entries) and nothing else" : "exports \(entries) (and \(others) other symbols; a version script can hide them)"
        )
    }

    /// What a cell type's descriptor says, for comparing two calls of the entry.
    static func signature(_ cell: CellType) -> String {
        "\(cell.id) \(cell.name) \(cell.fields) \(cell.textInput) \(cell.capabilities.rawValue) \(cell.configure) \(cell.roles)"
    }

    /// `formwork_pack_v<digits>`.
    static func isEntryName(_ s: String) -> Bool {
        guard s.hasPrefix("formwork_pack_v") else { return false }
        let rest = s.dropFirst("formwork_pack_v".count)
        return !rest.isEmpty && rest.allSatisfy(\.isNumber)
    }

    static func lifecycle(_ path: String) -> CheckResult {
        let loaded: LoadedPack
        do { loaded = try PackLoader.load(path: path) } catch {
            return CheckResult(check: "lifecycle", passed: false, message: "does not load: \(error.message)")
        }
        let lifecycle = loaded.lifecycle
        guard let first = loaded.pack.cellTypes.first, let firstEntry = loaded.entries.first else {
            return CheckResult(check: "lifecycle", passed: false, message: "no cell types")
        }
        for round in 1...2 {
            if let failure = lifecycle.retain() {
                return CheckResult(
                    check: "lifecycle", passed: false,
                    message: "init failed with \(Status.name(failure.status)) on round \(round)" + PackLog.suffix(failure.log))
            }
            _ = lifecycle.retain()  // a second user: must not call init again
            do { _ = try CellInstance(first, entry: firstEntry) } catch {
                return CheckResult(check: "lifecycle", passed: false, message: "after init, \(error.message)")
            }
            lifecycle.release()
            lifecycle.release()
            guard lifecycle.retainCount == 0 else {
                return CheckResult(check: "lifecycle", passed: false, message: "host reference count did not return to zero")
            }
        }
        return CheckResult(
            check: "lifecycle", passed: true, message: "init → create → destroy → deinit, twice; init again after deinit works")
    }

    // MARK: cells

    static func cell(_ id: String, path: String) -> CheckResult {
        let loaded: LoadedPack
        do { loaded = try PackLoader.load(path: path) } catch {
            return CheckResult(check: id, passed: false, message: "does not load: \(error.message)")
        }
        guard let index = loaded.pack.cellTypes.firstIndex(where: { $0.id == id }) else {
            return CheckResult(check: id, passed: false, message: "no cell type '\(id)' in this pack")
        }
        func fail(_ step: String, _ values: [String: Value]?, _ problem: String) -> CheckResult {
            var text = "step '\(step)'"
            if let values { text += " with values \(describe(values, cell))" }
            return CheckResult(check: id, passed: false, message: "\(text): \(problem)")
        }
        let cell = loaded.pack.cellTypes[index], entry = loaded.entries[index]
        CheckProgress.step("create")
        let instance: CellInstance
        do { instance = try CellInstance(cell, entry: entry) } catch { return fail("create", nil, error.message) }
        let sets = valueSets(cell)
        var steps: Set<String> = ["create", "destroy"]
        for (name, values) in sets {
            let ordered = cell.fields.map { values[$0.name] }
            CheckProgress.step("configure (generic) [\(name)]")
            do { try instance.configure(ordered, field: nil, forceGeneric: true) } catch {
                return fail("configure (generic) [\(name)]", values, error.message)
            }
            steps.insert("configure (generic)")
            CheckProgress.step("render [\(name)]")
            let generic: [ViewNode]
            do { generic = try render(instance, cell) } catch { return fail("render [\(name)]", values, error.text) }
            steps.insert("render")
            if case .typed = cell.configure {
                // After the generic configure (a stale member would hide a gap) and on a fresh instance (it cannot).
                CheckProgress.step("configure (typed) [\(name)]")
                do { try instance.configure(ordered, field: nil) } catch {
                    return fail("configure (typed) [\(name)]", values, error.message)
                }
                let typed: [ViewNode]
                do { typed = try render(instance, cell) } catch {
                    return fail("render after typed configure [\(name)]", values, error.text)
                }
                if let difference = difference(generic, typed) {
                    return fail(
                        "configure (typed) [\(name)]", values,
                        "renders differently from the generic configure of the same values (\(difference)); both entries must apply the same model"
                    )
                }
                CheckProgress.step("configure (typed) on a fresh instance [\(name)]")
                let fresh: CellInstance
                do { fresh = try CellInstance(cell, entry: entry) } catch { return fail("create", nil, error.message) }
                do { try fresh.configure(ordered, field: nil) } catch {
                    return fail("configure (typed) on a fresh instance [\(name)]", values, error.message)
                }
                let freshNodes: [ViewNode]
                do { freshNodes = try render(fresh, cell) } catch {
                    return fail("render after typed configure on a fresh instance [\(name)]", values, error.text)
                }
                if let difference = difference(generic, freshNodes) {
                    return fail(
                        "configure (typed) on a fresh instance [\(name)]", values,
                        "renders differently from the generic configure of the same values (\(difference)); the typed configure must set every member itself"
                    )
                }
                steps.insert("configure (typed)")
            }
        }
        if cell.capabilities.contains(.selectable) {
            instance.setSelected(true); instance.setSelected(false)
            steps.insert("selection")
        }
        if cell.capabilities.contains(.highlightable) {
            instance.setHighlighted(true); instance.setHighlighted(false)
            steps.insert("highlight")
        }
        do { _ = try render(instance, cell) } catch { return fail("render after selection", nil, error.text) }
        if entry.valueChanged != nil {
            for field in cell.fields {
                guard let base = sets.first?.1, let value = base[field.name] else { continue }
                let answer = instance.offer(field: field.name, value: value, type: field.type)
                if answer.status != FW_OK && answer.status != FW_REJECTED {
                    return fail(
                        "value_changed '\(field.name)'", base,
                        "returned \(Status.name(answer.status)); return FW_OK to accept or FW_REJECTED to refuse")
                }
                if answer.status == FW_REJECTED && (answer.message ?? "").isEmpty {
                    return fail("value_changed '\(field.name)'", base, "returned FW_REJECTED without a message; set *message to a reason")
                }
                if let outside = outOfRange(field) {
                    let rejected = instance.offer(field: field.name, value: outside, type: field.type)
                    if rejected.status == FW_REJECTED && (rejected.message ?? "").isEmpty {
                        return fail(
                            "value_changed '\(field.name)' = \(outside.json(as: field.type).serialized(pretty: false))", nil,
                            "returned FW_REJECTED without a message; set *message to a reason")
                    }
                    if rejected.status == FW_REJECTED { steps.insert("value_changed reject") }
                }
                if answer.status == FW_OK { steps.insert("value_changed accept") }
                // An absent value (a field cleared) must be answered too, never crash.
                CheckProgress.step("value_changed '\(field.name)' = absent")
                let absent = instance.offer(field: field.name, value: nil, type: field.type)
                if absent.status != FW_OK && absent.status != FW_REJECTED {
                    return fail(
                        "value_changed '\(field.name)' = absent", nil,
                        "returned \(Status.name(absent.status)); an absent value (FW_FIELD_NONE) must be accepted or rejected")
                }
                if absent.status == FW_REJECTED && (absent.message ?? "").isEmpty {
                    return fail(
                        "value_changed '\(field.name)' = absent", nil, "returned FW_REJECTED without a message; set *message to a reason")
                }
            }
        }
        if let problem = keptPointers(cell, entry: entry, base: sets.first?.1 ?? [:], fail: fail) { return problem }
        steps.insert("host memory not kept")
        CheckProgress.step("destroy")
        let order = [
            "create", "configure (generic)", "configure (typed)", "render", "selection", "highlight",
            "value_changed accept", "value_changed reject", "host memory not kept", "destroy",
        ]
        return CheckResult(
            check: id, passed: true,
            message: "\(sets.count) value sets: " + order.filter(steps.contains).joined(separator: ", "))
    }

    /// Calls configure (generic, then typed) and value_changed on an instance whose memory for each call
    /// becomes unreadable when the call returns (`PoisonedChunks`), rendering after each: a pack that kept a
    /// pointer it was given and reads it later faults in the render, and the crash report names the step.
    static func keptPointers(
        _ cell: CellType, entry: CellEntry, base: [String: Value], fail: (String, [String: Value]?, String) -> CheckResult
    ) -> CheckResult? {
        let hint = "is now unreadable: a pointer kept past the call?"
        let probe: CellInstance
        do { probe = try CellInstance(cell, entry: entry, poisoning: PoisonedChunks()) } catch { return fail("create", nil, error.message) }
        let ordered = cell.fields.map { base[$0.name] }
        var paths = [("generic", true)]
        if case .typed = cell.configure { paths.append(("typed", false)) }
        for (path, generic) in paths {
            CheckProgress.step("configure (\(path)) [kept pointers]")
            do { try probe.configure(ordered, field: nil, forceGeneric: generic) } catch {
                return fail("configure (\(path)) [kept pointers]", base, error.message)
            }
            CheckProgress.step("render after configure (\(path)), whose memory \(hint)")
            do { _ = try render(probe, cell) } catch { return fail("render after configure (\(path))", base, error.text) }
        }
        guard entry.valueChanged != nil else { return nil }
        for field in cell.fields {
            guard let value = base[field.name] else { continue }
            CheckProgress.step("value_changed '\(field.name)' [kept pointers]")
            _ = probe.offer(field: field.name, value: value, type: field.type)
            CheckProgress.step("render after value_changed '\(field.name)', whose field name and value \(hint)")
            do { _ = try render(probe, cell) } catch { return fail("render after value_changed '\(field.name)'", base, error.text) }
        }
        return nil
    }

    /// The first difference between two renders, in words; nil when equal.
    static func difference(_ expected: [ViewNode], _ actual: [ViewNode]) -> String? {
        let a = flatten(expected), b = flatten(actual)
        guard a != b else { return nil }
        for (i, (x, y)) in zip(a, b).enumerated() where x != y {
            return "view \(i + 1): generic drew \(describe(x)), typed drew \(describe(y))"
        }
        return a.count < b.count
            ? "typed drew \(b.count - a.count) more views, the first \(describe(b[a.count]))"
            : "typed drew \(a.count - b.count) fewer views; generic also drew \(describe(a[b.count]))"
    }

    static func describe(_ node: ViewNode) -> String {
        let text = JSONTreeRenderer.nodeText(node)
        return text.count > 160 ? String(text.prefix(159)) + "…" : text
    }

    struct RenderProblem: Error { var text: String }

    /// Renders and checks the tree is well-formed.
    static func render(_ instance: CellInstance, _ cell: CellType) throws(RenderProblem) -> [ViewNode] {
        let nodes: [ViewNode]
        var misuse: [String] = []
        do { nodes = try instance.render(accessibilityId: "check", valueField: cell.textInput.field, field: nil, misuse: &misuse) } catch {
            throw RenderProblem(text: error.message)
        }
        guard !nodes.isEmpty else { throw RenderProblem(text: "render drew nothing") }
        if let first = misuse.first { throw RenderProblem(text: first) }
        for node in flatten(nodes) {
            switch node {
            case .message(.warning, let text) where text.hasPrefix("output cut"):
                throw RenderProblem(text: text)
            case .textInput(let c, _, _), .toggle(let c, _), .choice(let c, _, _, _), .date(let c, _, _):
                if let f = c.field, cell.field(named: f) == nil {
                    throw RenderProblem(text: "a control is bound to '\(f)', which is not a field of the model")
                }
            case .number(let c, _, let minimum, let maximum, _, _):
                // ABI 1.1 controls: bound to a field of a fitting type, with sane bounds.
                guard let f = c.field, let schema = cell.field(named: f), schema.type == .integer || schema.type == .number else {
                    throw RenderProblem(
                        text: "a number control is bound to '\(c.field ?? "nothing")', which is not an integer or number field of the model"
                    )
                }
                if let minimum, let maximum, minimum > maximum {
                    throw RenderProblem(
                        text:
                            "the number control for '\(f)' has minimum \(NumberText.format(minimum)) above maximum \(NumberText.format(maximum))"
                    )
                }
            case .multiChoice(let c, let choices, let selected, _):
                guard let f = c.field, let schema = cell.field(named: f), schema.type.isList else {
                    throw RenderProblem(
                        text:
                            "a multi-choice control is bound to '\(c.field ?? "nothing")', which is not a choice-list or string-list field of the model"
                    )
                }
                if let stray = selected.first(where: { value in !choices.contains { $0.value == value } }) {
                    throw RenderProblem(text: "the multi-choice control for '\(f)' selects '\(stray)', which is not one of its choices")
                }
            default: break
            }
        }
        return nodes
    }

    static func flatten(_ nodes: [ViewNode]) -> [ViewNode] {
        nodes.flatMap { node -> [ViewNode] in
            if case .group(_, _, let children) = node { return [node] + flatten(children) }
            return [node]
        }
    }

    /// Value sets derived from the schema: defaults, then each boundary and each choice.
    static func valueSets(_ cell: CellType) -> [(String, [String: Value])] {
        let base = Samples.field(for: cell, id: "check").model.dictionary
        var sets: [(String, [String: Value])] = [("defaults", base)]
        func add(_ name: String, _ field: FieldSchema, _ value: Value) {
            var values = base
            values[field.name] = value
            guard SchemaValidator.problem(with: value, for: field, model: values) == nil,
                DateBounds.problem(model: values, traits: cell.textInput.traits, field: cell.textInput.field) == nil
            else { return }
            sets.append(("\(field.name)=\(name)", values))
        }
        for field in cell.fields {
            switch field.type {
            case .integer:
                if let m = field.lowestAllowed.flatMap(Int64.init(exactly:)) { add("minimum", field, .integer(m)) }
                if let m = field.highestAllowed.flatMap(Int64.init(exactly:)) { add("maximum", field, .integer(m)) }
            case .number:
                add("minimum", field, .number(field.lowestAllowed ?? -1e9))
                add("maximum", field, .number(field.highestAllowed ?? 1e9))
            case .date:
                add("earliest", field, .number(field.minimum ?? 0))
                add("latest", field, .number(field.maximum ?? 4_102_444_800))
            case .choice:
                for choice in field.choices { add(choice.value, field, .string(choice.value)) }
            case .bool:
                add("true", field, .bool(true))
                add("false", field, .bool(false))
            case .string, .text:
                if !field.required && field.optionsField == nil { add("empty", field, .string("")) }
                let longest = min(field.maxLength ?? 1000, 10_000)
                if field.optionsField == nil { add("longest", field, .string(String(repeating: "é", count: longest))) }
                if let options = field.optionsField, case .stringList(let items)? = base[options] {
                    for item in items { add(item, field, .string(item)) }
                }
            case .choiceList:
                let values = field.choices.map(\.value)
                let fewest = field.minLength ?? 0
                let most = min(field.maxLength ?? values.count, values.count)
                if fewest <= values.count { add("fewest", field, .stringList(Array(values.prefix(fewest)))) }
                add("most", field, .stringList(Array(values.prefix(most))))
            case .stringList:
                let fewest = field.minLength ?? 0
                let most = min(field.maxLength ?? 20, 100)
                add("fewest", field, .stringList((0..<fewest).map { "Item \($0 + 1)" }))
                add("most", field, .stringList((0..<most).map { "Item \($0 + 1)" }))
            }
        }
        return sets
    }

    static func outOfRange(_ field: FieldSchema) -> Value? {
        switch field.type {
        case .integer: field.maximum.flatMap(Int64.init(exactly:)).flatMap { $0 == .max ? nil : .integer($0 + 1) }
        case .number, .date: field.maximum.map { .number($0 + 1) }
        case .choice: .string("not-a-choice")
        default: nil
        }
    }

    static func describe(_ values: [String: Value], _ cell: CellType) -> String {
        let members: [(String, JSON)] = cell.fields.compactMap { field in
            guard let value = values[field.name] else { return nil }
            var json = value.json(as: field.type)
            if case .string(let s) = json, s.count > 24 { json = .string(String(s.prefix(12)) + "…(\(s.count) characters)") }
            return (field.name, json)
        }
        return JSON.object(members).serialized(pretty: false)
    }
}
