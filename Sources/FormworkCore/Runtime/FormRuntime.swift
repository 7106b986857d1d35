/// Drives a validated form through a `CellDriver` and records its view tree.
public final class FormRuntime {
    public let driver: any CellDriver

    public init(driver: any CellDriver) {
        self.driver = driver
    }

    /// Values a cell refused through `value_changed`, found by the last `render`.
    public private(set) var rejections: [Diagnostic] = []
    /// Fields whose cell failed (a failed call, or a crash or hang in a child process), found by the last `render`.
    public private(set) var failures: [RuntimeError] = []

    /// Fields per `perform` call at most: large enough that round trips do not matter, small enough that a
    /// 100,000-field form does not hold every request at once. A form is cut into batches of equal size.
    static let batchSize = 8192

    /// Configures and renders every field, in equal batches of at most `batchSize` (one round trip each to a
    /// child process).
    ///
    /// The batches are pipelined: while the driver performs one batch on this thread, another thread
    /// prepares the next batch's requests and finishes the views of the one before, so the cores are not
    /// left idle while the cells work (a child process mostly waits for its requests, the host for its
    /// answers).
    ///
    /// A field whose cell fails is shown as an error message and recorded in `failures`;
    /// unless `keepGoing`, the first failure is then thrown (after every field was tried).
    ///
    /// The host's words the tree holds (a file field's hint, a rule's message) are in the form's language
    /// (`Form.language`, English when the host has no catalogue for it).
    ///
    /// A form handed over (`render(consume form)`) has each section's fields freed once their views are made, so
    /// that a large form and its views are not both whole in memory; one the caller keeps is left as it was.
    public func render(_ form: consuming Form, keepGoing: Bool = false) throws(RuntimeError) -> ViewTree {
        let catalogue = Messages.catalogue(for: form.language) ?? .english
        // Moved into the pass, not captured: a captured form would hold every field until the render returns.
        var handedOver: Form? = consume form
        return try Messages.$bound.withValue(catalogue) {
            Result { () throws(RuntimeError) -> ViewTree in try renderInItsLanguage(handedOver.take()!, keepGoing: keepGoing) }
        }.get()
    }

    private func renderInItsLanguage(_ form: consuming Form, keepGoing: Bool) throws(RuntimeError) -> ViewTree {
        rejections = []
        failures = []
        let pass = RenderPass(form)
        try pass.perform(through: driver)
        rejections = pass.rejections
        failures = pass.failures
        let tree = pass.tree()
        if !keepGoing, let first = failures.first { throw first }
        return tree
    }

    /// `node` with `change` applied to every control in it (groups included).
    static func mapControls(_ node: ViewNode, _ change: (inout Control) -> Void) -> ViewNode {
        func c(_ control: Control) -> Control {
            var control = control
            change(&control)
            return control
        }
        switch node {
        case .group(let role, let title, let children):
            return .group(role: role, title: title, children: children.map { mapControls($0, change) })
        case .textInput(let x, let text, let placeholder): return .textInput(c(x), text: text, placeholder: placeholder)
        case .toggle(let x, let isOn): return .toggle(c(x), isOn: isOn)
        case .button(let x, let role): return .button(c(x), role: role)
        case .choice(let x, let choices, let selected, let style): return .choice(c(x), choices: choices, selected: selected, style: style)
        case .date(let x, let seconds, let mode): return .date(c(x), seconds: seconds, mode: mode)
        case .number(let x, let value, let minimum, let maximum, let step, let style):
            return .number(c(x), value: value, minimum: minimum, maximum: maximum, step: step, style: style)
        case .multiChoice(let x, let choices, let selected, let style):
            return .multiChoice(c(x), choices: choices, selected: selected, style: style)
        case .label, .value, .message: return node
        }
    }

    /// The control a node draws (nil for labels, values, messages and groups).
    static func control(of node: ViewNode) -> Control? {
        switch node {
        case .textInput(let x, _, _), .toggle(let x, _), .button(let x, _), .choice(let x, _, _, _), .date(let x, _, _),
            .number(let x, _, _, _, _, _), .multiChoice(let x, _, _, _):
            x
        case .group, .label, .value, .message: nil
        }
    }

    /// Whether a control bound to `field` is drawn without its required mark (in `nodes`, groups included).
    static func hasUnmarkedControl(_ nodes: [ViewNode], bound field: String) -> Bool {
        for node in nodes {
            if case .group(_, _, let children) = node, hasUnmarkedControl(children, bound: field) { return true }
            if let control = control(of: node), control.field == field, !control.required { return true }
        }
        return false
    }

    /// A field's state on its view: hidden, disabled (every control), required.
    static func apply(_ state: FieldState, to view: inout FieldView) {
        view.visible = state.visible
        view.enabled = state.enabled
        // requiredIf: the value control is marked required too (renderers show it there).
        if state.required && !view.required, let value = view.valueField {
            view.nodes = view.nodes.map { mapControls($0) { if $0.field == value { $0.required = true } } }
        }
        view.required = state.required
        if !state.enabled { view.nodes = view.nodes.map { mapControls($0) { $0.disabled = true } } }
    }

    /// The request for one field: values from a values file are offered to the cell first.
    static func prepare(_ field: borrowing FormField) -> (request: CellRequest, model: FieldModel) {
        let cell = field.cell
        var model = field.model
        var offers: [CellRequest.Offer] = []
        if !field.valuesFromFile.isEmpty {
            for name in field.valuesFromFile { model[name] = field.documentModel[name] ?? nil }
            for name in field.valuesFromFile.sorted() {
                guard let index = cell.index(of: name) else { continue }
                offers.append(CellRequest.Offer(index: index, value: field.model[name]))
            }
        }
        // The request takes the model as it is (no copy).
        let request = CellRequest(
            cell: cell, fieldID: field.id, model: model, offers: offers,
            accessibilityId: field.accessibilityId, valueField: field.valueField)
        return (request, model)
    }

    /// One field: values from a values file are offered to the cell first; a rejected
    /// value keeps the document's value and its reason is shown under the field.
    public func render(_ field: FormField) throws(RuntimeError) -> FieldView {
        let (request, model) = Self.prepare(field)
        let response = try driver.perform([request])[0]
        if let failure = response.failure { throw failure }
        return finish(field, model: model, offers: request.offers, response: response)
    }

    func finish(_ field: borrowing FormField, model: FieldModel, offers: [CellRequest.Offer], response: CellResponse) -> FieldView {
        Self.finish(field, model: model, offers: offers, response: response, failures: &failures, rejections: &rejections)
    }

    /// The field's view from its cell's response; a failed call and rejected values are added to `failures`
    /// and `rejections`.
    static func finish(
        _ field: borrowing FormField, model: FieldModel, offers: [CellRequest.Offer], response: CellResponse,
        failures: inout [RuntimeError], rejections: inout [Diagnostic]
    ) -> FieldView {
        let cell = field.cell
        // Read once: each is worked out from the field's cell type unless the field has its own.
        let textInput = field.textInput, valueField = field.valueField
        var model = model
        if let failure = response.failure {
            failures.append(failure)
            return FieldView(
                id: field.id, common: field.viewCommon, accessibilityId: field.accessibilityId, required: field.required,
                nodes: [.message(kind: .error, text: loc("This field could not be shown: its cell {0}.", failure.message))],
                rules: field.rules)
        }
        if !offers.isEmpty {
            let rejected = Set(response.rejections.map(\.index))
            for offer in offers where !rejected.contains(offer.index) { model[offer.index] = offer.value }
        }
        var nodes = response.nodes
        // A secure entry's value never reaches rendered output (HTML, text, the JSON tree): a
        // fixed-length mask says that a value is there without its length. Only `fill --output` holds it.
        if textInput.secureEntry == true, let secret = textInput.field {
            nodes = nodes.map { Self.masking($0, field: secret) }
        }
        if !field.labelledChoices.isEmpty { nodes = nodes.map { Self.relabelling($0, field.labelledChoices) } }
        // A file field says what it takes before anyone chooses.
        if let upload = field.rules.upload { nodes.append(.message(kind: .hint, text: upload.summary + ".")) }
        // Every document rule the value breaks is shown under the field (render --values re-renders a submission).
        if !field.rules.isEmpty, let name = valueField, let value = model[name] {
            let label = cell.roles.title.flatMap { if case .string(let t)? = model[$0] { t } else { nil } } ?? field.id
            nodes += field.rules.problems(value, label: label).map { .message(kind: .error, text: $0) }
        }
        for rejection in response.rejections {
            nodes.append(.message(kind: .error, text: rejection.reason))
            rejections.append(
                Diagnostic(
                    kind: .invalid, file: nil, pointer: field.valuePointer, line: nil,
                    message: "cell '\(cell.id)' rejected the value of '\(field.id)': \(rejection.reason)"))
        }
        func date(_ name: String?) -> Double? {
            guard let name, case .number(let d)? = model[name] else { return nil }
            return d
        }
        // The field's value field is its cell type's value role (found once, with the cell type) unless the field
        // names another.
        let bound = valueField.flatMap { $0 == cell.roles.value ? cell.valueRoleField : cell.field(named: $0) }
        var maxLength: Int? = bound.flatMap { $0.type == .string || $0.type == .text ? $0.maxLength : nil }
        if let role = cell.roles.maxLength,
            case .integer(let n)? = cell.maxLengthRoleIndex.map({ model[$0] }) ?? model[role], n > 0,
            n < (maxLength.map(Int64.init) ?? .max)
        {
            maxLength = Int(n)
        }
        // A required field is marked required where its value is drawn, whatever its cell type marked (a cell type
        // with no required role, such as segments, would otherwise show no mark and no `required` in HTML).
        if field.required, let value = valueField, hasUnmarkedControl(nodes, bound: value) {
            nodes = nodes.map { Self.mapControls($0) { if $0.field == value { $0.required = true } } }
        }
        var view = FieldView(
            id: field.id, common: field.viewCommon, accessibilityId: field.accessibilityId, required: field.required,
            nodes: nodes, minimum: date(textInput.minimumField), maximum: date(textInput.maximumField), maxLength: maxLength,
            rules: field.rules)
        if !field.labelledChoices.isEmpty, let kind = field.typedChoiceKind { view.choiceKind = kind }
        return view
    }

    /// The mask shown for a secure entry that has a value.
    public static let secureMask = "••••••••"

    /// Shows the document's labels for choices written as `{ value, label }`.
    static func relabelling(_ node: ViewNode, _ labels: [String: LabelledChoice]) -> ViewNode {
        func relabel(_ choices: [Choice]) -> [Choice] {
            choices.map { Choice(value: $0.value, label: labels[$0.value]?.label ?? $0.label) }
        }
        switch node {
        case .choice(let c, let choices, let selected, let style):
            return .choice(c, choices: relabel(choices), selected: selected, style: style)
        case .multiChoice(let c, let choices, let selected, let style):
            return .multiChoice(c, choices: relabel(choices), selected: selected, style: style)
        case .group(let role, let title, let children):
            return .group(role: role, title: title, children: children.map { relabelling($0, labels) })
        default: return node
        }
    }

    static func masking(_ node: ViewNode, field: String) -> ViewNode {
        switch node {
        case .textInput(let c, let text?, let placeholder) where c.field == field && !text.isEmpty:
            return .textInput(c, text: secureMask, placeholder: placeholder)
        case .group(let role, let title, let children):
            return .group(role: role, title: title, children: children.map { masking($0, field: field) })
        default:
            return node
        }
    }

    /// Asks the cell whether the field's value may become `value` (after configuring it
    /// with the field's current model); nil when accepted, else the cell's reason.
    public func offer(_ value: Value?, to field: FormField) throws(RuntimeError) -> String? {
        guard let name = field.valueField, let index = field.cell.index(of: name) else { return nil }
        let request = CellRequest(
            cell: field.cell, fieldID: field.id, model: field.model,
            offers: [CellRequest.Offer(index: index, value: value)], render: false,
            accessibilityId: field.accessibilityId, valueField: field.valueField)
        let response = try driver.perform([request])[0]
        if let failure = response.failure { throw failure }
        return response.rejections.first?.reason
    }

    /// Destroys idle cell instances now rather than when the driver goes away.
    public func drain() { driver.drain() }
}
