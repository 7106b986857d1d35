import Glibc

/// A terminal in raw mode, as the interactive form sees it.
public protocol KeyTerminal: AnyObject {
    /// The next key (or `.resize`); nil when the input ended.
    func readKey() -> Key?
    /// Writes escape sequences and text as they are.
    func write(_ text: String)
    /// Columns and rows.
    var size: (columns: Int, rows: Int) { get }
}

/// The interactive terminal form of `formwork fill`: the whole form (or its page) on
/// the screen, one focused field, edited in place.
///
/// Each field is drawn from its cell's view (`render` through the ABI, as `formwork
/// render` does); focusing a field calls the cell's `did_set_highlighted`, choosing or
/// activating calls `did_set_selected`, and every edit is offered to `value_changed`
/// and checked against the schema, the document's rules, the date bounds and the rules
/// across fields, its problem shown under the field at once. Conditions are evaluated
/// after every change (fields appear and disappear as you type), repeatable groups get
/// "Add another" and "Remove" rows, pages get Back / Next. Enter on Submit shows a
/// summary to confirm; Esc or Ctrl-C cancels and nothing is written.
///
/// Redraws write only the screen rows that changed.
public final class TerminalFormSession {
    public private(set) var form: Form
    let terminal: KeyTerminal
    let options: FillOptions
    let runtime: FormRuntime

    /// What the screen shows, row by row, after the last key (for tests and the benchmark).
    public var screen: [String] { buffer.rows }
    /// Screen rows written for the last key.
    public var rowsWritten: Int { buffer.rowsWritten }

    public init(form: Form, terminal: KeyTerminal, options: FillOptions = FillOptions(), driver: any CellDriver) {
        self.form = form
        self.terminal = terminal
        self.options = options
        self.runtime = FormRuntime(driver: driver)
    }

    // MARK: state

    /// A part of the screen: a heading, a field or an action row.
    enum Block: Hashable {
        case title, description, page, section(Int), footer(Int), item(section: Int, index: Int), field(section: Int, field: Int)
        case add(section: Int), remove(section: Int), back, next, submit
    }

    /// What the form keeps per field between keys.
    struct FieldUI {
        var view: FieldView?
        var prompt: Prompt?
        var editor: LineEditor?
        /// The problem with the value as it stands (shown under the field).
        var problem: String?
        /// The cell failed: its message; the field is answered as plain text.
        var failure: String?
        /// Open list (pickers), the list cursor and the filter typed.
        var open = false
        var cursor = 0
        var filter = ""
        /// The date component the arrows change.
        var component = 0
        /// Left once: an empty required field says so from now on.
        var touched = false
    }

    var blocks: [Block] = []
    var lines: [[TextRenderer.Line]] = []
    var dirty: Set<Int> = []
    var ui: [String: FieldUI] = [:]
    var states: [String: FieldState] = [:]
    var focus = 0
    var page = 0
    var scrollTop = 0
    var status: String?
    var buffer = ScreenBuffer()
    var summary = false
    var labelWidth = 12
    var size = (columns: 80, rows: 24)

    var text: TextRenderer { TextRenderer(width: size.columns, ansi: options.color) }

    // MARK: running

    /// Runs until the user confirms (the filled form is returned) or cancels.
    public func run() throws(FillError) -> Form {
        start()
        while true {
            guard let key = terminal.readKey() else {
                throw .inputEnded(fieldID: focusedField.map { form.sections[$0.section].fields[$0.field].id } ?? form.id)
            }
            if try handle(key) {
                runtime.drain()
                return form
            }
        }
    }

    /// Lays the form out and draws the first frame.
    public func start() {
        size = terminal.size
        for s in form.sections.indices {
            if let group = form.sections[s].repeatGroup {
                while form.sections[s].itemCount < group.minItems {
                    form.sections[s].fields += form.sections[s].item(form.sections[s].itemCount)
                }
            }
        }
        form.recompute()
        states = form.hasConditions ? form.states() : [:]
        // A field the document marks `autofocus` has the focus when the form opens.
        var first: Block? = nil
        for (s, section) in form.sections.enumerated() where first == nil {
            if let f = section.fields.firstIndex(where: { $0.textInput.traits.autofocus == true }) { first = .field(section: s, field: f) }
        }
        rebuild(keepFocusOn: first)
        redraw()
    }

    /// Handles one key; true when the user confirmed the form.
    public func handle(_ key: Key) throws(FillError) -> Bool {
        status = nil
        if key == .control("c") { throw .cancelled }
        if key == .resize {
            size = terminal.size
            buffer.invalidate()
            dirty = Set(blocks.indices)
            redraw()
            return false
        }
        if summary {
            switch key {
            case .enter, .character("y"), .character("Y"): return true
            case .escape, .character("n"), .character("N"), .backspace, .backTab:
                summary = false
                buffer.invalidate()
            default: status = loc("Enter writes the values; Esc goes back to the form.")
            }
            redraw()
            return false
        }
        if key == .escape, !closeList() { throw .cancelled }
        if key != .escape { try dispatch(key) }
        redraw()
        return false
    }

    var focusedField: (section: Int, field: Int)? {
        guard blocks.indices.contains(focus), case .field(let s, let f) = blocks[focus] else { return nil }
        return (s, f)
    }

    private func closeList() -> Bool {
        guard let (s, f) = focusedField else { return false }
        let id = form.sections[s].fields[f].id
        guard ui[id]?.open == true else { return false }
        ui[id]?.open = false
        ui[id]?.filter = ""
        dirty.insert(focus)
        return true
    }

    private func dispatch(_ key: Key) throws(FillError) {
        guard blocks.indices.contains(focus) else { return }
        switch blocks[focus] {
        case .field(let s, let f):
            if try fieldKey(key, section: s, field: f) { return }
        case .add(let s) where key == .enter || key == .character(" "):
            addItem(s)
            return
        case .remove(let s) where key == .enter || key == .character(" "):
            removeItem(s)
            return
        case .back where key == .enter || key == .character(" "):
            if let p = shownPages.last(where: { $0 < page }) { goToPage(p) }
            return
        case .next where key == .enter || key == .character(" "):
            if validate(scope: pageSections), let p = shownPages.first(where: { $0 > page }) { goToPage(p) }
            return
        case .submit where key == .enter || key == .character(" "):
            submit()
            return
        default: break
        }
        switch key {
        case .tab, .down, .enter: move(by: 1)
        case .backTab, .up: move(by: -1)
        case .pageDown: move(by: max(1, size.rows / 3))
        case .pageUp: move(by: -max(1, size.rows / 3))
        default: break
        }
    }

    // MARK: focus

    func isFocusable(_ block: Block) -> Bool {
        switch block {
        case .title, .description, .page, .section, .footer, .item: return false
        case .field(let s, let f):
            let field = form.sections[s].fields[f]
            guard let name = field.valueField, field.cell.field(named: name) != nil else {
                return button(ui[field.id]?.view) != nil && states[field.id]?.enabled ?? true
            }
            // A computed value is shown, never edited.
            return states[field.id]?.enabled ?? true && ui[field.id]?.prompt?.disabled != true && field.conditions.value == nil
                && !field.conditions.readOnly
        default: return true
        }
    }

    func move(by delta: Int) {
        var target = focus
        var steps = abs(delta)
        let direction = delta < 0 ? -1 : 1
        var i = focus
        while steps > 0 {
            i += direction
            guard blocks.indices.contains(i) else { break }
            if isFocusable(blocks[i]) {
                target = i
                steps -= 1
            }
        }
        setFocus(target)
    }

    func setFocus(_ target: Int) {
        guard target != focus else { return }
        let old = focus
        focus = target
        dirty.insert(old)
        dirty.insert(target)
        var requests: [(Int, Int, Bool)] = []
        if blocks.indices.contains(old), case .field(let s, let f) = blocks[old] {
            let id = form.sections[s].fields[f].id
            ui[id]?.touched = true
            ui[id]?.open = false
            ui[id]?.filter = ""
            if ui[id]?.problem == nil, let p = ui[id]?.prompt, p.required || (states[id]?.required ?? false),
                form.sections[s].fields[f].model[p.schema.name] == nil
            {
                ui[id]?.problem = form.sections[s].fields[f].rules.required ?? loc("{0} is required.", p.label)
            }
            requests.append((s, f, false))
        }
        if case .field(let s, let f) = blocks[target] { requests.append((s, f, true)) }
        // Focus through the ABI: the newly focused cell is highlighted, the one left is not.
        renderFields(requests.map { (section: $0.0, field: $0.1, highlighted: $0.2, selected: false) })
    }

    // MARK: layout

    var pageSections: Range<Int> { form.pages.isEmpty ? form.sections.indices : form.pages[page].sections }

    /// Recomputes the blocks (after a condition changed what is visible, a page turn, an item
    /// added or removed); fields not rendered yet are rendered in one batch.
    func rebuild(keepFocusOn kept: Block?) {
        var new: [Block] = []
        if form.title?.isEmpty == false { new.append(.title) }
        if form.description?.isEmpty == false && page == 0 { new.append(.description) }
        if !form.pages.isEmpty { new.append(.page) }
        for s in pageSections {
            let section = form.sections[s]
            let fieldsVisible = section.fields.contains { states[$0.id]?.visible ?? true }
            if section.conditions.visibleIf != nil && !fieldsVisible { continue }
            if section.header?.isEmpty == false || section.repeatGroup != nil { new.append(.section(s)) }
            let width = max(1, section.template.count)
            for f in section.fields.indices {
                if section.repeatGroup != nil && f % width == 0 { new.append(.item(section: s, index: f / width)) }
                if states[section.fields[f].id]?.visible ?? true, !section.fields[f].conditions.hidden {
                    new.append(.field(section: s, field: f))
                }
            }
            if let group = section.repeatGroup {
                if section.itemCount < group.maxItems { new.append(.add(section: s)) }
                if section.itemCount > group.minItems { new.append(.remove(section: s)) }
            }
            if section.footer?.isEmpty == false { new.append(.footer(s)) }
        }
        let shown = shownPages
        if !form.pages.isEmpty && shown.contains(where: { $0 < page }) { new.append(.back) }
        new.append(form.pages.isEmpty || !shown.contains(where: { $0 > page }) ? .submit : .next)
        let previous = kept ?? (blocks.indices.contains(focus) ? blocks[focus] : nil)
        // Blocks that stay keep their drawn lines (a condition that shows one field redraws that field, not the form).
        dirty.insert(focus)  // the focus marker may move
        var drawn: [Block: [TextRenderer.Line]] = [:]
        for (i, block) in blocks.enumerated() where !dirty.contains(i) { drawn[block] = lines[i] }
        blocks = new
        lines = blocks.map { drawn[$0] ?? [] }
        dirty = Set(blocks.indices.filter { drawn[blocks[$0]] == nil })
        // Fields never rendered are rendered now, all in one batch.
        var missing: [(section: Int, field: Int, highlighted: Bool, selected: Bool)] = []
        for block in blocks {
            if case .field(let s, let f) = block, ui[form.sections[s].fields[f].id]?.view == nil {
                missing.append((s, f, false, false))
            }
        }
        renderFields(missing)
        let oldWidth = labelWidth
        labelWidth = min(
            max(8, size.columns / 3),
            blocks.compactMap { block -> Int? in
                guard case .field(let s, let f) = block else { return nil }
                return ui[form.sections[s].fields[f].id]?.prompt?.label.columns
            }.max() ?? 8)
        if labelWidth != oldWidth { dirty = Set(blocks.indices) }
        if let previous, let i = blocks.firstIndex(of: previous), isFocusable(previous) {
            focus = i
        } else if let i = blocks.indices.first(where: { isFocusable(blocks[$0]) && $0 >= min(focus, blocks.count - 1) })
            ?? blocks.indices.first(where: { isFocusable(blocks[$0]) })
        {
            focus = i
        }
        dirty.insert(focus)
        if case .field(let s, let f)? = blocks.indices.contains(focus) ? blocks[focus] : nil {
            renderFields([(s, f, true, false)])
        }
    }

    /// Configures and renders fields through the driver in one batch, with focus (highlight) and selection.
    func renderFields(_ list: [(section: Int, field: Int, highlighted: Bool, selected: Bool)]) {
        guard !list.isEmpty else { return }
        var prepared: [(request: CellRequest, model: FieldModel)] = []
        prepared.reserveCapacity(list.count)
        for item in list {
            var (request, model) = FormRuntime.prepare(form.sections[item.section].fields[item.field])
            if item.highlighted { request.highlighted = true }
            if item.selected { request.selected = true }
            prepared.append((request, model))
        }
        let responses: [CellResponse]
        do { responses = try runtime.driver.perform(prepared.map(\.request)) } catch {
            responses = list.map { _ in CellResponse(failure: error) }
        }
        for (item, (prep, response)) in zip(list, zip(prepared, responses)) {
            let field = form.sections[item.section].fields[item.field]
            var state = ui[field.id] ?? FieldUI()
            if let failure = response.failure {
                state.failure = failure.message
                state.view = FieldView(
                    id: field.id, cell: field.cell.id, accessibilityId: field.accessibilityId, required: field.required,
                    textInput: field.textInput, nodes: [], valueField: field.valueField, rules: field.rules)
            } else {
                state.failure = nil
                var view = runtime.finish(field, model: prep.model, offers: prep.request.offers, response: response)
                if let fieldState = states[field.id] { FormRuntime.apply(fieldState, to: &view) }
                state.view = view
            }
            if let name = field.valueField, let schema = field.cell.field(named: name), let view = state.view {
                var withState = field
                withState.required = states[field.id]?.required ?? field.required
                let prompt = Prompt(field: withState, schema: schema, view: view)
                state.prompt = prompt
                if state.editor == nil, prompt.usesEditor {
                    state.editor = LineEditor(editorText(prompt.current, prompt), multiline: prompt.isMultiline)
                }
            }
            ui[field.id] = state
        }
    }

    func editorText(_ value: Value?, _ p: Prompt) -> String {
        switch value {
        case .string(let s)?: s
        case .integer(let i)?: String(i)
        case .number(let d)?: NumberText.format(d)
        default: ""
        }
    }

    // MARK: one field's keys

    /// Keys for the focused field; true when handled.
    func fieldKey(_ key: Key, section s: Int, field f: Int) throws(FillError) -> Bool {
        let field = form.sections[s].fields[f]
        guard var state = ui[field.id] else { return false }
        defer { dirty.insert(focus) }
        guard let p = state.prompt else { return try buttonKey(key, state, section: s, field: f) }
        if state.failure != nil || p.usesEditor {
            return editKey(key, &state, p, section: s, field: f)
        }
        switch p.type {
        case .bool:
            guard key == .character(" ") || key == .left || key == .right || key == .character("y") || key == .character("n") else {
                return false
            }
            let current: Bool = if case .bool(let b)? = p.current { b } else { false }
            let wanted: Bool =
                switch key {
                case .character("y"): true
                case .character("n"): false
                default: !current
                }
            guard wanted != current else { return true }
            // A selectable toggle flips itself when selected (did_set_selected); its new value is read back from what it draws.
            if field.cell.capabilities.contains(.selectable) {
                renderFields([(s, f, true, true)])
            }
            commit(.bool(wanted), section: s, field: f, selected: false)
            return true
        case .choice, .stringList:
            return choiceKey(key, &state, p, section: s, field: f)
        case .choiceList:
            return multiKey(key, &state, p, section: s, field: f)
        case .date:
            return dateKey(key, &state, p, section: s, field: f)
        default:
            return false
        }
    }

    /// The first enabled button a cell draws: its title and role.
    func button(_ view: FieldView?) -> (title: String, role: ButtonRole)? {
        for node in view?.nodes.flattened ?? [] {
            if case .button(let c, let role) = node, !c.disabled { return (c.label ?? "", role) }
        }
        return nil
    }

    /// A button activates with Enter or Space: the cell is selected (`did_set_selected`); a primary
    /// button submits the form, a cancel button cancels it.
    func buttonKey(_ key: Key, _ state: FieldUI, section s: Int, field f: Int) throws(FillError) -> Bool {
        guard key == .enter || key == .character(" "), let (title, role) = button(state.view) else { return false }
        renderFields([(s, f, true, true)])
        switch role {
        case .primary: submit()
        case .cancel: throw .cancelled
        default: status = loc("{0} pressed.", title.isEmpty ? loc("The button") : title)
        }
        return true
    }

    /// Text, text views and numbers: line editing, traits applied per keystroke.
    func editKey(_ key: Key, _ state: inout FieldUI, _ p: Prompt, section s: Int, field f: Int) -> Bool {
        var editor = state.editor ?? LineEditor("", multiline: p.isMultiline)
        let numeric = p.type == .integer || p.type == .number
        if numeric, key == .up || key == .down {
            step(key == .up ? 1 : -1, &editor, p, section: s, field: f)
            return true
        }
        if key == .enter, !p.isMultiline {
            // Enter per the return-key trait: done, go, send, join and search submit the form.
            switch p.traits.returnKey {
            case .done?, .go?, .send?, .join?, .search?: submit()
            default: move(by: 1)
            }
            return true
        }
        // → at the end of the text takes the type-ahead suggestion shown after it.
        if key == .right, editor.cursor == editor.characters.count, let completion = Self.completion(of: editor.text, p) {
            editor = LineEditor(completion)
            ui[form.sections[s].fields[f].id]?.editor = editor
            editedText(editor.text, p, section: s, field: f)
            return true
        }
        if p.isMultiline, key == .up || key == .down {
            if editor.handle(key) == .ignored { return false }  // off the first or last line: the next field
            ui[form.sections[s].fields[f].id]?.editor = editor
            return true
        }
        let maxLength = state.view?.maxLength
        let length = editor.characters.count
        let outcome = editor.handle(key) { inserted in
            if numeric {
                guard inserted.allSatisfy({ $0.isNumber || "-+.,eE".contains($0) }) else {
                    self.status = loc("{0} takes a number.", p.label)
                    return false
                }
                return true
            }
            if let problem = AnswerShaping.filter(
                inserted.replacing("\n", with: ""), keyboard: p.traits.keyboard, label: p.label)
            {
                self.status = problem
                return false
            }
            if let maxLength, length + inserted.count > maxLength {
                self.status = loc("{0}: at most {1} characters.", p.label, maxLength)
                return false
            }
            return true
        }
        switch outcome {
        case .ignored:
            return key != .tab && key != .backTab && key != .up && key != .down && key != .enter && key != .pageUp && key != .pageDown
        case .moved:
            ui[form.sections[s].fields[f].id]?.editor = editor
            return true
        case .edited:
            if !p.secure && !p.keepsCase && !numeric, let mode = p.traits.autocapitalization {
                editor.reshape { AnswerShaping.capitalize($0, mode) }
            }
            ui[form.sections[s].fields[f].id]?.editor = editor
            editedText(editor.text, p, section: s, field: f)
            return true
        }
    }

    /// The text of an editor turned into the field's value and committed (or its problem shown).
    func editedText(_ raw: String, _ p: Prompt, section s: Int, field f: Int) {
        let id = form.sections[s].fields[f].id
        let trimmed = p.isMultiline ? raw : raw.trimmingBlanks()
        if trimmed.isEmpty {
            commit(nil, section: s, field: f, selected: false)
            return
        }
        switch p.type {
        case .integer:
            guard let n = Int64(trimmed) else {
                setProblem(loc("{0} takes a whole number, such as 3.", p.label), id)
                return
            }
            commit(.integer(n), section: s, field: f, selected: false)
        case .number:
            guard let d = Double(trimmed.replacing(",", with: ".")), d.isFinite else {
                setProblem(loc("{0} takes a number, such as 12.5.", p.label), id)
                return
            }
            commit(.number(d), section: s, field: f, selected: false)
        default:
            let text = p.upload != nil ? AnswerShaping.absolutePath(trimmed) : p.isMultiline ? raw : trimmed
            commit(.string(text), section: s, field: f, selected: false)
        }
    }

    func setProblem(_ problem: String?, _ id: String) {
        ui[id]?.problem = problem
        dirty.insert(focus)
    }

    /// Arrow-key stepping of a number within the bounds the cell draws (or the schema's).
    func step(_ direction: Double, _ editor: inout LineEditor, _ p: Prompt, section s: Int, field f: Int) {
        var minimum: Double? = nil, maximum: Double? = nil, stepSize = 1.0
        if let view = ui[form.sections[s].fields[f].id]?.view {
            for node in view.nodes.flattened {
                if case .number(let c, _, let lo, let hi, let st, _) = node, c.field == p.schema.name {
                    minimum = lo
                    maximum = hi
                    if let st, st > 0 { stepSize = st }
                }
            }
        }
        minimum = minimum ?? p.schema.minimum
        maximum = maximum ?? p.schema.maximum
        let current: Double =
            switch p.current {
            case .integer(let i)?: Double(i)
            case .number(let d)?: d
            default: minimum.map { direction > 0 ? $0 - stepSize : $0 } ?? 0
            }
        var next = current + direction * stepSize
        if let minimum { next = max(minimum, next) }
        if let maximum { next = min(maximum, next) }
        guard next.isFinite else { return }
        let value: Value =
            p.type == .integer ? .integer(next.magnitude < 9e15 ? Int64(next.rounded()) : Int64(current)) : .number(next)
        editor.set(editorText(value, p))
        ui[form.sections[s].fields[f].id]?.editor = editor
        commit(value, section: s, field: f, selected: false)
    }

    /// Pickers and segments: Left/Right choose the neighbour; Enter or Space opens the
    /// list (Up/Down, typing filters, Enter chooses, Esc closes).
    func choiceKey(_ key: Key, _ state: inout FieldUI, _ p: Prompt, section s: Int, field f: Int) -> Bool {
        let id = form.sections[s].fields[f].id
        let currentIndex = p.choices.firstIndex { if case .string(let v)? = p.current { $0.value == v } else { false } }
        if !state.open {
            switch key {
            case .left, .right:
                guard !p.choices.isEmpty else { return true }
                let next = currentIndex.map { ($0 + (key == .left ? -1 : 1) + p.choices.count) % p.choices.count } ?? 0
                commit(.string(p.choices[next].value), section: s, field: f, selected: true)
                return true
            case .enter where isSegments(p, state), .tab, .backTab, .up, .down, .pageUp, .pageDown:
                return false
            case .enter, .character(" "):
                ui[id]?.open = true
                ui[id]?.cursor = currentIndex ?? 0
                ui[id]?.filter = ""
                return true
            case .character(let c):
                // Typing on a closed picker opens it filtered.
                ui[id]?.open = true
                ui[id]?.filter = String(c)
                ui[id]?.cursor = 0
                return true
            case .backspace where !p.required:
                commit(nil, section: s, field: f, selected: false)
                return true
            default: return false
            }
        }
        let shown = filtered(p.choices, state.filter)
        switch key {
        case .up: ui[id]?.cursor = max(0, state.cursor - 1)
        case .down: ui[id]?.cursor = min(max(0, shown.count - 1), state.cursor + 1)
        case .home: ui[id]?.cursor = 0
        case .end: ui[id]?.cursor = max(0, shown.count - 1)
        case .enter, .tab:
            ui[id]?.open = false
            ui[id]?.filter = ""
            if shown.indices.contains(state.cursor) {
                commit(.string(shown[state.cursor].value), section: s, field: f, selected: true)
            }
            if key == .tab { move(by: 1) }
        case .backspace:
            ui[id]?.filter = String(state.filter.dropLast())
            ui[id]?.cursor = 0
        case .character(let c):
            ui[id]?.filter = state.filter + String(c)
            ui[id]?.cursor = 0
        default: break
        }
        return true
    }

    func isSegments(_ p: Prompt, _ state: FieldUI) -> Bool {
        state.view?.nodes.flattened.contains { node in
            if case .choice(let c, _, _, .segments) = node { return c.field == p.schema.name }
            return false
        } ?? false
    }

    func filtered(_ choices: [Choice], _ filter: String) -> [Choice] {
        guard !filter.isEmpty else { return choices }
        let lower = filter.lowercased()
        return choices.filter { $0.label.lowercased().contains(lower) || $0.value.lowercased().contains(lower) }
    }

    /// Multi-select: the list is open while focused; Up/Down move (off its ends to the
    /// neighbouring field), Space toggles, typing filters, within the minimum and maximum items.
    func multiKey(_ key: Key, _ state: inout FieldUI, _ p: Prompt, section s: Int, field f: Int) -> Bool {
        let id = form.sections[s].fields[f].id
        let shown = filtered(p.choices, state.filter)
        var chosen: [String] = if case .stringList(let items)? = p.current { items } else { [] }
        switch key {
        case .up:
            guard state.cursor > 0 else { return false }
            ui[id]?.cursor = state.cursor - 1
        case .down:
            guard state.cursor < shown.count - 1 else { return false }
            ui[id]?.cursor = state.cursor + 1
        case .character(" "):
            guard shown.indices.contains(state.cursor) else { return true }
            let value = shown[state.cursor].value
            if let i = chosen.firstIndex(of: value) {
                chosen.remove(at: i)
            } else {
                let rule = form.sections[s].fields[f].rules.maxItems
                if let most = [rule?.value, p.schema.maxLength].compactMap({ $0 }).min(), chosen.count >= most {
                    status = rule.flatMap(\.message) ?? loc("{0}: at most {1} choices.", p.label, most)
                    return true
                }
                chosen.append(value)
            }
            // In the order of the choices, as a form would submit them.
            let order = p.choices.map(\.value)
            chosen.sort { (order.firstIndex(of: $0) ?? 0) < (order.firstIndex(of: $1) ?? 0) }
            commit(chosen.isEmpty && !p.required ? nil : .stringList(chosen), section: s, field: f, selected: true)
        case .backspace:
            guard !state.filter.isEmpty else { return true }
            ui[id]?.filter = String(state.filter.dropLast())
            ui[id]?.cursor = 0
        case .character(let c):
            ui[id]?.filter = state.filter + String(c)
            ui[id]?.cursor = 0
        default: return false
        }
        return true
    }

    /// Dates: Left/Right pick the component (year, month, day, hour, minute), Up/Down change
    /// it within the date bounds; Backspace clears an optional date.
    func dateKey(_ key: Key, _ state: inout FieldUI, _ p: Prompt, section s: Int, field f: Int) -> Bool {
        let id = form.sections[s].fields[f].id
        let parts = CivilTime.components(for: p.dateMode)
        switch key {
        case .left: ui[id]?.component = max(0, state.component - 1)
        case .right: ui[id]?.component = min(parts.count - 1, state.component + 1)
        case .up, .down:
            // An empty date starts from today (within the bounds).
            let base = p.currentDate ?? CivilTime.today(mode: p.dateMode)
            var next =
                p.currentDate == nil
                ? base : CivilTime.adding(key == .up ? 1 : -1, to: parts[min(state.component, parts.count - 1)], of: base)
            if let lo = p.minimum { next = max(lo, next) }
            if let hi = p.maximum { next = min(hi, next) }
            commit(.number(next), section: s, field: f, selected: false)
        case .backspace, .delete:
            if p.required {
                status = loc("{0} is required; it cannot be cleared.", p.label)
            } else {
                commit(nil, section: s, field: f, selected: false)
            }
        default: return false
        }
        return true
    }

    // MARK: values

    /// Sets a field's value after the host's checks and the cell's `value_changed`; a value
    /// the cell rejects is not taken (the problem is shown). Conditions are re-evaluated.
    func commit(_ value: Value?, section s: Int, field f: Int, selected: Bool) {
        let field = form.sections[s].fields[f]
        guard let p = ui[field.id]?.prompt else { return }
        var problem: String? = nil
        var take = true
        if let value {
            // The host's problems are shown while the value stands (so that conditions follow what is typed) and
            // block the submission; a value the cell refuses through value_changed is not taken.
            problem = FieldCheck.hostProblem(value, p, in: form, section: s, field: f)
            if problem == nil, let refused = FieldCheck.cellProblem(value, to: field, runtime: runtime, warn: { self.status = $0 }) {
                problem = refused
                take = false
            }
        } else if p.required || (states[field.id]?.required ?? false) {
            problem = field.rules.required ?? loc("{0} is required.", p.label)
        }
        ui[field.id]?.problem = problem
        guard take else {
            renderFields([(s, f, true, false)])
            return
        }
        let before = form.sections[s].fields[f].model[p.schema.name]
        form.sections[s].fields[f].model[p.schema.name] = value
        renderFields([(s, f, true, selected)])
        if !p.usesEditor || ui[field.id]?.editor == nil {
            dirty.insert(focus)
        }
        if before != value { valuesChanged(changed: field.id) }
    }

    /// After a value changed: conditions and rules across fields, live.
    func valuesChanged(changed id: String) {
        if form.hasComputedValues {
            // Computed values follow the answers: those that changed are drawn again.
            let before = form.values
            form.recompute()
            let after = form.values
            var redrawn: [(section: Int, field: Int, highlighted: Bool, selected: Bool)] = []
            for (i, block) in blocks.enumerated() {
                guard case .field(let s, let f) = block else { continue }
                let field = form.sections[s].fields[f]
                guard field.conditions.value != nil, before[field.id] != after[field.id] else { continue }
                redrawn.append((s, f, false, false))
                ui[field.id]?.editor = nil  // its text is the value's, made again
                dirty.insert(i)
            }
            renderFields(redrawn)
        }
        if form.hasConditions {
            let new = form.states()
            if new != states {
                // Fields whose state changed are rendered again (appearing ones for the first time) and the layout rebuilt.
                let changed = Set(new.keys.filter { new[$0] != states[$0] })
                states = new
                for s in form.sections.indices {
                    for field in form.sections[s].fields where changed.contains(field.id) {
                        ui[field.id]?.view = nil
                    }
                }
                for (i, block) in blocks.enumerated() {
                    if case .field(let s, let f) = block, changed.contains(form.sections[s].fields[f].id) { dirty.insert(i) }
                }
                rebuild(keepFocusOn: blocks[focus])
            }
        }
        if form.hasCrossRules {
            let problems = form.crossFieldProblems(states)
            for (i, block) in blocks.enumerated() {
                guard case .field(let s, let f) = block, !form.sections[s].fields[f].crossRules.isEmpty else { continue }
                let fid = form.sections[s].fields[f].id
                guard fid != id, let value = form.sections[s].fields[f].valueField.flatMap({ form.sections[s].fields[f].model[$0] }),
                    value != .string("")
                else { continue }
                let message = problems.first { $0.field == fid }?.message
                if ui[fid]?.problem != message {
                    ui[fid]?.problem = message
                    dirty.insert(i)
                }
            }
        }
    }

    // MARK: repeats, pages, submission

    func addItem(_ s: Int) {
        guard let group = form.sections[s].repeatGroup, form.sections[s].itemCount < group.maxItems else { return }
        let index = form.sections[s].itemCount
        let first = form.sections[s].fields.count
        form.sections[s].fields += form.sections[s].item(index)
        if form.hasConditions { states = form.states() }
        dirty = Set(blocks.indices)
        rebuild(keepFocusOn: .field(section: s, field: first))
        status = loc("{0} {1} added.", group.itemLabel, index + 1)
    }

    func removeItem(_ s: Int) {
        guard let group = form.sections[s].repeatGroup, form.sections[s].itemCount > group.minItems else { return }
        let width = form.sections[s].template.count
        for field in form.sections[s].fields.suffix(width) { ui[field.id] = nil }
        form.sections[s].fields.removeLast(width)
        if form.hasConditions { states = form.states() }
        dirty = Set(blocks.indices)
        rebuild(keepFocusOn: form.sections[s].itemCount < group.maxItems ? .add(section: s) : nil)
        status = loc("{0} {1} removed.", group.itemLabel, form.sections[s].itemCount + 1)
    }

    /// The pages the answers so far show (a page whose sections are all hidden is skipped).
    var shownPages: [Int] { form.shownPages(states) }

    func goToPage(_ p: Int) {
        guard form.pages.indices.contains(p) else { return }
        page = p
        scrollTop = 0
        focus = 0
        dirty = Set(blocks.indices)
        rebuild(keepFocusOn: nil)
        buffer.invalidate()
    }

    /// Every visible, enabled field of `scope` answered and without problems; else the
    /// first field with a problem is focused and the problem shown.
    func validate(scope: Range<Int>) -> Bool {
        var first: Int? = nil
        for (i, block) in blocks.enumerated() {
            guard case .field(let s, let f) = block, scope.contains(s) else { continue }
            let field = form.sections[s].fields[f]
            guard let p = ui[field.id]?.prompt, isFocusable(block) else { continue }
            let required = states[field.id]?.required ?? field.required
            if ui[field.id]?.problem == nil, required, field.model[p.schema.name] == nil {
                ui[field.id]?.problem = field.rules.required ?? loc("{0} is required.", p.label)
                dirty.insert(i)
            }
            if ui[field.id]?.problem != nil && first == nil { first = i }
        }
        if let first {
            setFocus(first)
            let count = blocks.indices.filter { i in
                if case .field(let s, let f) = blocks[i], scope.contains(s) { return ui[form.sections[s].fields[f].id]?.problem != nil }
                return false
            }.count
            status = locPlural(count, one: "{0} field needs attention.", other: "{0} fields need attention.", count)
            return false
        }
        return true
    }

    func submit() {
        guard validate(scope: pageSections) else { return }
        if !form.pages.isEmpty {
            // Pages not on screen: their fields are checked against the values.
            for (n, pg) in form.pages.enumerated() {
                for s in pg.sections {
                    for field in form.sections[s].fields {
                        guard let name = field.valueField, field.cell.field(named: name) != nil else { continue }
                        let st = states[field.id] ?? FieldState(required: field.required)
                        if st.submitted && st.required && field.model[name] == nil {
                            status = loc("Page {0} is not complete.", (shownPages.firstIndex(of: n) ?? n) + 1)
                            goToPage(n)
                            _ = validate(scope: form.pages[n].sections)
                            return
                        }
                    }
                }
            }
        }
        summary = true
        buffer.invalidate()
    }

    // MARK: drawing

    func redraw() {
        let frame: [String]
        var cursor: (row: Int, column: Int)? = nil
        if summary {
            frame = summaryFrame()
        } else {
            for i in dirty where blocks.indices.contains(i) { lines[i] = draw(i) }
            dirty = []
            // The last row is the status line, when the terminal has room for it.
            let height = size.rows >= 2 ? size.rows - 1 : 1
            // The focused block is kept on the screen.
            var top = 0
            var focusTop = 0, focusHeight = 1
            for i in blocks.indices {
                if i == focus {
                    focusTop = top
                    focusHeight = lines[i].count
                }
                top += lines[i].count
            }
            let total = top
            if focusTop < scrollTop { scrollTop = focusTop }
            if focusTop + focusHeight > scrollTop + height { scrollTop = focusTop + min(focusHeight, height) - height }
            scrollTop = max(0, min(scrollTop, max(0, total - height)))
            var rows: [String] = []
            rows.reserveCapacity(height + 1)
            var y = 0
            let renderer = text
            for i in blocks.indices {
                let count = lines[i].count
                if y + count <= scrollTop {
                    y += count
                    continue
                }
                if y >= scrollTop + height { break }
                for (k, line) in lines[i].enumerated() {
                    if y >= scrollTop && y < scrollTop + height { rows.append(renderer.join(renderer.fit(line, size.columns))) }
                    if i == focus, let c = cursorPosition(k) { cursor = (y - scrollTop, c) }
                    y += 1
                }
            }
            while rows.count < height { rows.append("") }
            if size.rows >= 2 { rows.append(renderer.join(renderer.fit(statusLine(), size.columns))) }
            frame = rows
            if let c = cursor, c.row < 0 || c.row >= height || c.column >= size.columns { cursor = nil }
        }
        terminal.write(buffer.update(frame, columns: size.columns, cursor: cursor))
    }

    typealias Segment = TextRenderer.Segment

    /// The lines of block `i`.
    func draw(_ i: Int) -> [TextRenderer.Line] {
        let focused = i == focus
        let marker = Segment(text: focused ? "› " : "  ", style: .header)
        switch blocks[i] {
        case .title: return [[Segment(text: form.title ?? "", style: .title)]]
        case .description: return text.richLines(form.description ?? "", width: size.columns, style: .caption)
        case .page:
            let pg = form.pages[page]
            let shown = shownPages
            let number = (shown.firstIndex(of: page) ?? 0) + 1
            return [
                [
                    Segment(
                        text: pg.title.map { loc("{0}: {1}", loc("Page {0} of {1}", number, max(shown.count, 1)), $0) }
                            ?? loc("Page {0} of {1}", number, max(shown.count, 1)), style: .title)
                ]
            ]
        case .section(let s):
            let section = form.sections[s]
            return [[], [Segment(text: section.header ?? section.repeatGroup?.itemLabel ?? "", style: .header)]]
        case .footer(let s):
            return text.richLines(form.sections[s].footer ?? "", width: max(10, size.columns - 2), style: .footer).map {
                [Segment(text: "  ")] + $0
            }
        case .item(let s, let index):
            let label = form.sections[s].repeatGroup?.itemLabel ?? "Item"
            return [[Segment(text: "  " + loc("{0} {1}", label, index + 1), style: .emphasis)]]
        case .add(let s):
            let label = form.sections[s].repeatGroup?.itemLabel.lowercased() ?? "item"
            return [[marker, Segment(text: loc("+ Add another {0}", label), style: focused ? .selected : .button)]]
        case .remove(let s):
            let label = form.sections[s].repeatGroup?.itemLabel.lowercased() ?? "item"
            return [
                [marker, Segment(text: loc("− Remove {0} {1}", label, form.sections[s].itemCount), style: focused ? .selected : .button)]
            ]
        case .back: return [[], [marker, Segment(text: "◂ Back", style: focused ? .selected : .button)]]
        case .next: return [[], [marker, Segment(text: loc("Next ▸"), style: focused ? .selected : .primary)]]
        case .submit:
            return [[], [marker, Segment(text: "Submit", style: focused ? .selected : .primary)]]
        case .field(let s, let f): return drawField(s, f, focused: focused, marker: marker)
        }
    }

    func drawField(_ s: Int, _ f: Int, focused: Bool, marker: Segment) -> [TextRenderer.Line] {
        let field = form.sections[s].fields[f]
        guard let state = ui[field.id], let view = state.view else { return [] }
        guard let p = state.prompt else {
            // A field without a value (a label, a read-only value): drawn as `render` draws it.
            return text.renderFields([view]).enumerated().map { [$0.offset == 0 ? marker : Segment(text: "  ")] + $0.element }
        }
        let pad = String(repeating: " ", count: max(0, labelWidth - p.label.columns))
        var head: TextRenderer.Line = [
            marker, Segment(text: p.label, style: focused ? .emphasis : .label),
            Segment(text: p.required || (states[field.id]?.required ?? false) ? " *" : "  ", style: .required), Segment(text: pad + " "),
        ]
        var below: [TextRenderer.Line] = []
        let indent = Segment(text: String(repeating: " ", count: labelWidth + 5))
        if p.disabled || !(states[field.id]?.enabled ?? true) {
            head.append(Segment(text: (p.current.map { AnswerShaping.show($0, p) } ?? "—") + "  (read-only)", style: .disabled))
            return [head]
        }
        if state.failure != nil || p.usesEditor {
            let editor = state.editor ?? LineEditor("")
            let shown = p.secure ? editor.lines.map { String(repeating: "•", count: $0.count) } : editor.lines
            if editor.characters.isEmpty, let placeholder = p.placeholder, !focused || !p.secure {
                head.append(Segment(text: placeholder, style: .placeholder))
            } else {
                head.append(Segment(text: visibleTail(shown[0], editor: editor, line: 0, focused: focused), style: .value))
                for line in shown.dropFirst() { below.append([indent, Segment(text: line, style: .value)]) }
            }
            // Type-ahead: the rest of the first suggestion the text begins, after the cursor; → takes it.
            if focused, editor.cursor == editor.characters.count, let completion = Self.completion(of: editor.text, p) {
                head.append(Segment(text: String(completion.dropFirst(editor.characters.count)), style: .placeholder))
            }
            if focused, !p.secure, !p.isMultiline, !p.traits.suggestions.isEmpty {
                let matches = Self.matches(of: editor.text, p)
                let more = matches.count > 5 ? ", …" : ""
                let shownMatches = matches.prefix(5).joined(separator: ", ")
                if !matches.isEmpty {
                    // What matters first (the line is cut at the screen's edge): what → does, that any text will do.
                    let take = Self.completion(of: editor.text, p).map { loc("→ takes {0} · ", $0) } ?? ""
                    below.append([
                        indent, Segment(text: loc("{0}suggestions (any text is accepted): {1}{2}", take, shownMatches, more), style: .hint),
                    ])
                }
            }
            // `rows`: a text view is as tall as the document asks, however little is written yet.
            if p.isMultiline, let rows = p.traits.rows, shown.count < rows {
                for _ in shown.count..<min(rows, 20) { below.append([indent, Segment(text: "┊", style: .hint)]) }
            }
            if focused && (p.type == .integer || p.type == .number) { head.append(Segment(text: "  ↑↓", style: .hint)) }
        } else {
            switch p.type {
            case .bool:
                let on: Bool = if case .bool(let b)? = p.current { b } else { false }
                head.append(Segment(text: on ? "[x] " + loc("yes") : "[ ] " + loc("no"), style: focused ? .selected : .value))
            case .choice, .stringList:
                let currentLabel = p.current.map { AnswerShaping.show($0, p) }
                if isSegments(p, state) {
                    for choice in p.choices {
                        let isOn = p.current == .string(choice.value)
                        head.append(Segment(text: isOn ? "[\(choice.label)]" : " \(choice.label) ", style: isOn ? .selected : .value))
                    }
                    if focused { head.append(Segment(text: "  ←→", style: .hint)) }
                } else {
                    head.append(
                        Segment(
                            text: focused ? "◂ \(currentLabel ?? loc("choose")) ▸" : currentLabel ?? "—",
                            style: focused ? .selected : .value))
                    if state.open { below += listLines(p, state, indent: indent, multi: false) }
                }
            case .choiceList:
                head.append(Segment(text: p.current.map { AnswerShaping.show($0, p) } ?? "—", style: .value))
                if focused { below += listLines(p, state, indent: indent, multi: true) }
            case .date:
                if let seconds = p.currentDate {
                    let parts = CivilTime.components(for: p.dateMode)
                    for (k, piece) in CivilTime.pieces(seconds, mode: p.dateMode).enumerated() {
                        head.append(Segment(text: piece.separator))
                        head.append(
                            Segment(
                                text: focused && k == min(state.component, parts.count - 1) ? "[\(piece.text)]" : piece.text,
                                style: focused && k == state.component ? .selected : .value))
                    }
                } else {
                    head.append(Segment(text: focused ? "↑↓ to set" : "—", style: .placeholder))
                }
            default:
                head.append(Segment(text: p.current.map { AnswerShaping.show($0, p) } ?? "—", style: .value))
            }
        }
        var out = [head] + below
        if p.label.columns > labelWidth {
            // A label wider than the label column: the control goes on the next line, in the value column.
            out = [Array(head.prefix(3)), [indent] + head.dropFirst(4)] + below
        }
        if let failure = state.failure {
            out.append([indent, Segment(text: loc("⚠ the cell failed ({0}); type the value as text", failure), style: .warning)])
        }
        if focused, let hint = p.hint {
            for line in text.richLines(hint, width: max(10, size.columns - indent.text.columns), style: .hint) {
                out.append([indent] + line)
            }
        }
        if let problem = state.problem, focused || state.touched || !problem.isEmpty {
            out.append([indent, Segment(text: "! " + problem, style: .error)])
        } else if let error = p.error {
            out.append([indent, Segment(text: "! " + error, style: .error)])
        }
        return out
    }

    /// The suggestions that begin with `text` (ignoring case), in the document's order; every one when `text` is empty.
    static func matches(of text: String, _ p: Prompt) -> [String] {
        let typed = text.lowercased()
        return p.traits.suggestions.filter { typed.isEmpty || $0.lowercased().hasPrefix(typed) }
    }

    /// The first suggestion that `text` begins and is shorter than, for type-ahead; nil for a secure or multi-line field.
    static func completion(of text: String, _ p: Prompt) -> String? {
        guard !text.isEmpty, !p.secure, !p.isMultiline else { return nil }
        let count = text.count
        return matches(of: text, p).first { $0.count > count && $0.lowercased().prefix(count) == text.lowercased() }
    }

    /// A single-line value too long for the screen shows its end around the cursor.
    func visibleTail(_ line: String, editor: LineEditor, line index: Int, focused: Bool) -> String {
        let room = max(8, size.columns - labelWidth - 6)
        guard line.columns > room else { return line }
        let cursorColumns = focused ? editor.cursorColumns : line.columns
        guard cursorColumns > room - 1 else { return String(line.prefix(columns: room - 1)) + "…" }
        var tail = Substring(line)
        var dropped = 0
        while cursorColumns - dropped > room - 2, let c = tail.first {
            dropped += c.columns
            tail = tail.dropFirst()
        }
        return "…" + String(String(tail).prefix(columns: room - 1))
    }

    func listLines(_ p: Prompt, _ state: FieldUI, indent: Segment, multi: Bool) -> [TextRenderer.Line] {
        var out: [TextRenderer.Line] = []
        let shown = filtered(p.choices, state.filter)
        if !state.filter.isEmpty || p.choices.count > 7 {
            out.append([
                indent, Segment(text: loc("filter: ") + (state.filter.isEmpty ? loc("type to filter") : state.filter), style: .hint),
            ])
        }
        let window = 7
        let first = max(0, min(state.cursor - window / 2, shown.count - window))
        let chosen: [String] =
            switch p.current {
            case .stringList(let items)?: items
            case .string(let v)?: [v]
            default: []
            }
        for (k, choice) in shown.enumerated().dropFirst(first).prefix(window) {
            let mark = multi ? (chosen.contains(choice.value) ? "[x] " : "[ ] ") : (chosen.contains(choice.value) ? "(•) " : "( ) ")
            out.append([
                indent, Segment(text: k == state.cursor ? "❯ " : "  ", style: .header),
                Segment(text: mark + choice.label, style: k == state.cursor ? .selected : .value),
            ])
        }
        if shown.isEmpty { out.append([indent, Segment(text: loc("no choice matches"), style: .hint)]) }
        if shown.count > window { out.append([indent, Segment(text: loc("{0} choices, ↑↓ to see more", shown.count), style: .hint)]) }
        return out
    }

    /// Where the terminal cursor goes in line `k` of the focused block (text being edited).
    func cursorPosition(_ k: Int) -> Int? {
        guard let (s, f) = focusedField else { return nil }
        let state = ui[form.sections[s].fields[f].id]
        guard let p = state?.prompt, p.usesEditor || state?.failure != nil, let editor = state?.editor,
            let (line, _) = editor.position(), line + (p.label.columns > labelWidth ? 1 : 0) == k
        else { return nil }
        let start = labelWidth + 5
        if line == 0 {
            let shown = visibleTail(editor.lines[0], editor: editor, line: 0, focused: true)
            if shown.hasPrefix("…") {
                return start + shown.columns - (editor.lines[0].columns - editor.cursorColumns)
            }
        }
        // A secure entry shows one dot per character.
        return start + (p.secure ? editor.cursorColumnsSecure : editor.cursorColumns)
    }

    func statusLine() -> TextRenderer.Line {
        if let status { return [Segment(text: status, style: .warning)] }
        var keys = loc("Tab/↑↓ move · Esc cancel")
        if let (s, f) = focusedField, let state = ui[form.sections[s].fields[f].id], let p = state.prompt {
            switch p.type {
            case _ where p.usesEditor && p.isMultiline: keys = loc("Enter new line · Tab next · Shift-Tab back · Esc cancel")
            case .integer, .number: keys = loc("↑↓ step · Tab next · Shift-Tab back · Esc cancel")
            case .bool: keys = loc("Space toggles · Tab/↑↓ move · Esc cancel")
            case .choice, .stringList:
                keys =
                    state.open
                    ? loc("↑↓ move · type to filter · Enter choose · Esc close") : loc("←→ choose · Enter list · Tab/↑↓ move · Esc cancel")
            case .choiceList: keys = loc("↑↓ move · Space toggles · type to filter · Tab next · Esc cancel")
            case .date: keys = loc("←→ part · ↑↓ change · Tab next · Esc cancel")
            default: keys = loc("Enter next · Tab/↑↓ move · Esc cancel")
            }
        } else if blocks.indices.contains(focus) {
            keys = loc("Enter or Space activates · Tab/↑↓ move · Esc cancel")
        }
        return [Segment(text: keys, style: .hint)]
    }

    func summaryFrame() -> [String] {
        let renderer = text
        var out: [TextRenderer.Line] = [[Segment(text: loc("Review: ") + (form.title ?? form.id), style: .title)], []]
        for s in form.sections.indices {
            for field in form.sections[s].fields {
                guard let p = ui[field.id]?.prompt, let state = states[field.id] ?? Optional(FieldState()), state.submitted,
                    !p.disabled
                else { continue }
                let value = field.model[p.schema.name]
                let shown = value == nil ? "—" : p.secure ? FormRuntime.secureMask : AnswerShaping.show(value!, p)
                out.append([Segment(text: "  " + p.label + ": ", style: .label), Segment(text: shown, style: .value)])
            }
        }
        out.append([])
        out.append([
            Segment(text: loc("Write these values? Enter or y: write · Esc or n: back to the form · Ctrl-C: cancel"), style: .emphasis)
        ])
        let height = size.rows >= 2 ? size.rows - 1 : 1
        var rows = out.suffix(height).map { renderer.join(renderer.fit($0, size.columns)) }
        if out.count > height && height > 1 {
            rows[0] = renderer.join(renderer.fit([Segment(text: loc("… {0} more above", out.count - height), style: .hint)], size.columns))
        }
        while rows.count < height { rows.append("") }
        if size.rows >= 2 { rows.append(renderer.join(renderer.fit([Segment(text: status ?? "", style: .warning)], size.columns))) }
        return rows
    }
}

extension Prompt {
    /// Answered by typing (text, text views, numbers).
    var usesEditor: Bool {
        switch type {
        case .string, .text, .integer, .number: true
        default: false
        }
    }
}

extension LineEditor {
    /// The cursor's column when every character shows as one mask dot.
    var cursorColumnsSecure: Int { position()?.1 ?? 0 }
}

extension Array where Element == ViewNode {
    /// Every node, groups opened.
    var flattened: [ViewNode] {
        flatMap { node -> [ViewNode] in
            if case .group(_, _, let children) = node { return children.flattened }
            return [node]
        }
    }
}

/// Dates as the terminal form moves them: UTC calendar arithmetic on seconds since 1970.
enum CivilTime {
    enum Part { case year, month, day, hour, minute }

    static func components(for mode: DatePickerMode) -> [Part] {
        switch mode {
        case .date: [.year, .month, .day]
        case .time, .countdown: [.hour, .minute]
        case .dateAndTime, .default: [.year, .month, .day, .hour, .minute]
        }
    }

    /// `seconds` with `part` moved by `delta`, the day kept within its month.
    static func adding(_ delta: Int, to part: Part, of seconds: Double) -> Double {
        var (y, m, d, h, mi, s) = DateFormat.split(seconds)
        switch part {
        case .year: y = max(1, min(9999, y + delta))
        case .month:
            let months = y * 12 + (m - 1) + delta
            y = max(1, min(9999, months / 12))
            m = months % 12 + 1
        case .day: return seconds + Double(delta) * 86_400
        case .hour: return seconds + Double(delta) * 3600
        case .minute: return seconds + Double(delta) * 60
        }
        d = min(d, DateFormat.daysIn(y, m))
        return DateFormat.join(y, m, d, h, mi, s)
    }

    /// The pieces shown, each with the separator before it.
    static func pieces(_ seconds: Double, mode: DatePickerMode) -> [(separator: String, text: String)] {
        let (y, m, d, h, mi, _) = DateFormat.split(seconds)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : String(n) }
        let year = String(repeating: "0", count: max(0, 4 - String(y).count)) + String(y)
        switch mode {
        case .date: return [("", year), ("-", two(m)), ("-", two(d))]
        case .time, .countdown: return [("", two(h)), (":", two(mi))]
        case .dateAndTime, .default: return [("", year), ("-", two(m)), ("-", two(d)), (" ", two(h)), (":", two(mi))]
        }
    }

    /// Today at midnight (dates) or now to the minute, UTC.
    static func today(mode: DatePickerMode) -> Double {
        var clock = timespec()
        clock_gettime(CLOCK_REALTIME, &clock)
        let now = Double(clock.tv_sec)
        return mode == .date ? (now / 86_400).rounded(.down) * 86_400 : (now / 60).rounded(.down) * 60
    }
}
