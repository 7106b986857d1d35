/// One `FormRuntime.render`: the fields in the order they are driven (every section's, then the spare items'),
/// the requests prepared and the views finished batch by batch, and the view tree put together at the end.
///
/// The batches are pipelined: while the driver performs one batch on the calling thread, another thread prepares
/// the next batch's requests and finishes the views of the one before (`perform(through:)`). Only one thread at a
/// time touches `views`, `failures` and `rejections`.
///
/// The pass lets go of a section's fields once their views are made: when it holds the only reference (the form was
/// handed over, as `formwork render` does), they are freed then, and the views of the sections after them take their
/// memory, instead of both being whole at the end of the pass.
final class RenderPass {
    /// The fields of each section, then of each spare item (a repeatable group below its maximum gets one, empty);
    /// a group whose views are all finished is emptied (`release(before:)`).
    private var groups: [[FormField]]
    /// The form without its sections' fields: what the tree takes from it besides the views.
    private let shape: Form
    private let spareSections: [Int]
    private let sectionCount: Int
    private let total: Int
    /// States and rules across fields depend on the document alone: known before any cell is driven.
    private let states: [String: FieldState]
    private let crossProblems: [String: [String]]
    /// The views of each group, as they are finished.
    private var views: [[FieldView]]
    private(set) var failures: [RuntimeError] = []
    private(set) var rejections: [Diagnostic] = []

    init(_ form: consuming Form) {
        // Computed values are drawn as the values they read make them.
        var form = form
        form.recompute()
        // A repeatable group below its maximum gets one spare, empty item (rendered in the same batch).
        var spares: [Int: [FormField]] = [:]
        for (s, section) in form.sections.enumerated() {
            if let group = section.repeatGroup, section.itemCount < group.maxItems { spares[s] = section.item(section.itemCount) }
        }
        spareSections = spares.keys.sorted()
        // The fields in the order they are driven: every section's, then the spare items'.
        var groups: [[FormField]] = form.sections.map(\.fields)
        for s in spareSections { groups.append(spares[s]!) }
        self.groups = groups
        sectionCount = form.sections.count
        total = groups.reduce(0) { $0 + $1.count }
        states = form.hasConditions ? form.states() : [:]
        var crossProblems: [String: [String]] = [:]
        // Rules across fields speak about answers given: a blank form (no value from a values file or a
        // submission) shows none of their messages before anyone answers.
        if form.hasCrossRules && form.sections.contains(where: { $0.fields.contains { !$0.valuesFromFile.isEmpty } }) {
            for (id, message) in form.crossFieldProblems(states) { crossProblems[id, default: []].append(message) }
        }
        self.crossProblems = crossProblems
        views = groups.map { fields in
            var views: [FieldView] = []
            views.reserveCapacity(fields.count)
            return views
        }
        for s in form.sections.indices { form.sections[s].fields = [] }
        shape = form
    }

    /// Lets go of the fields of every group before `group`: their views are finished (and the batches that
    /// read them are gone, or hold their own copies of what they read).
    private func release(before group: Int) {
        while released < min(group, groups.count) {
            groups[released] = []
            released += 1
        }
    }
    private var released = 0

    /// Where a pass (preparing, finishing) is in `groups`: both go through the fields in order.
    struct Cursor {
        var group = 0, offset = 0
    }
    /// `body` for the next `count` fields from `cursor`, each borrowed through its array's buffer (an
    /// element read by index from a nested array, or a `for field in` loop, copies the field).
    func walk(_ count: Int, _ cursor: inout Cursor, _ body: (UnsafePointer<FormField>, Int) -> Void) {
        var left = count
        while left > 0 {
            while cursor.offset == groups[cursor.group].count {
                cursor.group += 1
                cursor.offset = 0
            }
            let group = cursor.group, start = cursor.offset
            let n = min(left, groups[group].count - start)
            groups[group].withUnsafeBufferPointer { fields in
                let base = fields.baseAddress.unsafelyUnwrapped
                for f in start..<start + n { body(base + f, group) }
            }
            cursor.offset += n
            left -= n
        }
    }
    struct Batch {
        var requests: [CellRequest] = []
        var models: [FieldModel] = []
        var responses: [CellResponse] = []
    }
    /// The requests of the next `count` fields. With `split`, the second half is prepared on another thread
    /// at the same time (the first batch: the cells wait for it), each half written in place.
    func prepare(_ count: Int, _ cursor: inout Cursor, split: Bool = false) -> Batch {
        let half = split && Parallel.threads > 1 && count >= 2048 ? count / 2 : count
        var models: [FieldModel] = []
        let requests = [CellRequest](unsafeUninitializedCapacity: count) { requests, initialized in
            models = [FieldModel](unsafeUninitializedCapacity: count) { models, made in
                func fill(from start: Int, _ n: Int, _ at: inout Cursor) {
                    var i = start
                    walk(n, &at) { field, _ in
                        let (request, model) = FormRuntime.prepare(field.pointee)
                        (requests.baseAddress.unsafelyUnwrapped + i).initialize(to: request)
                        (models.baseAddress.unsafelyUnwrapped + i).initialize(to: model)
                        i += 1
                    }
                }
                if half == count {
                    fill(from: 0, count, &cursor)
                } else {
                    var head = cursor, tail = cursor
                    walk(half, &tail) { _, _ in }
                    Parallel.alongside({ fill(from: 0, half, &head) }, beside: { fill(from: half, count - half, &tail) })
                    cursor = tail
                }
                made = count
            }
            initialized = count
        }
        return Batch(requests: requests, models: models)
    }
    /// The view of `field` (the `index`th of its batch) from its response, which is moved out (its nodes
    /// now belong to the view), not copied.
    func view(
        _ field: UnsafePointer<FormField>, group: Int, index: Int, _ responses: UnsafeMutableBufferPointer<CellResponse>,
        _ requests: [CellRequest], _ models: [FieldModel], failures: inout [RuntimeError], rejections: inout [Diagnostic]
    ) -> FieldView {
        var response = CellResponse(nodes: [], rejections: [])
        swap(&response, &responses[index])
        var view = FormRuntime.finish(
            field.pointee, model: models[index], offers: requests[index].offers, response: response,
            failures: &failures, rejections: &rejections)
        if group < sectionCount {
            let id = field.pointee.id
            if !states.isEmpty, let state = states[id] { FormRuntime.apply(state, to: &view) }
            if !field.pointee.conditions.isEmpty {
                view.conditions = field.pointee.conditions
                // A computed or read-only value is shown, never edited.
                if field.pointee.conditions.value != nil || field.pointee.conditions.readOnly, let value = view.valueField {
                    view.nodes = view.nodes.map { FormRuntime.mapControls($0) { if $0.field == value { $0.disabled = true } } }
                }
            }
            if !field.pointee.crossRules.isEmpty { view.crossRules = field.pointee.crossRules }
            if let item = field.pointee.item { view.item = item }
            if !crossProblems.isEmpty {
                for message in crossProblems[id] ?? [] { view.nodes.append(.message(kind: .error, text: message)) }
            }
        } else {
            view.item = field.pointee.item
            // Optional: an empty spare item must not block a submission.
            view.required = false
            view.nodes = view.nodes.map { FormRuntime.mapControls($0) { $0.required = false } }
        }
        return view
    }
    /// The views of a performed batch, in order. With `split`, the second half is finished on another
    /// thread at the same time (the last batch: nothing else is left to do beside it), its views, failures
    /// and rejections added after the first half's.
    func finish(_ batch: inout Batch, _ cursor: inout Cursor, split: Bool = false) {
        let count = batch.requests.count
        let half = split && Parallel.threads > 1 && count >= 2048 ? count / 2 : count
        var end = cursor
        walk(half, &end) { _, _ in }
        var tail: [(group: Int, view: FieldView)] = []
        var tailFailures: [RuntimeError] = []
        var tailRejections: [Diagnostic] = []
        var headFailures: [RuntimeError] = []
        var headRejections: [Diagnostic] = []
        var head = cursor
        // Read by both threads; the responses are taken out of their buffer, each by the thread finishing it.
        let requests = batch.requests, models = batch.models
        batch.responses.withUnsafeMutableBufferPointer { responses in
            func first() {
                var next = 0
                walk(half, &head) { field, group in
                    let view = view(
                        field, group: group, index: next, responses, requests, models, failures: &headFailures,
                        rejections: &headRejections)
                    views[group].append(view)
                    next += 1
                }
            }
            guard half < count else { return first() }
            Parallel.alongside(
                first,
                beside: {
                    tail.reserveCapacity(count - half)
                    var next = half
                    walk(count - half, &end) { field, group in
                        tail.append(
                            (
                                group,
                                view(
                                    field, group: group, index: next, responses, requests, models, failures: &tailFailures,
                                    rejections: &tailRejections)
                            ))
                        next += 1
                    }
                })
        }
        cursor = half < count ? end : head
        for k in tail.indices { views[tail[k].group].append(tail[k].view) }
        failures += headFailures + tailFailures
        rejections += headRejections + tailRejections
        // Not the cursor's own group: the cursor may stand at its end, which `walk` reads to move on.
        release(before: cursor.group)
    }

    /// Every batch through `driver`, pipelined (see the type).
    func perform(through driver: any CellDriver) throws(RuntimeError) {
        if total > 0 { driver.willPerform(requests: total) }
        let batchCount = total == 0 ? 0 : (total + FormRuntime.batchSize - 1) / FormRuntime.batchSize
        func size(_ k: Int) -> Int { (k + 1) * total / batchCount - k * total / batchCount }
        var preparing = Cursor(), finishing = Cursor()
        var current = batchCount > 0 ? prepare(size(0), &preparing, split: true) : Batch()
        var performed: Batch?
        for k in 0..<batchCount {
            var upcoming: Batch?
            var previous = performed.take()
            let requests = current.requests
            if previous == nil && k + 1 == batchCount {
                // Nothing to finish or prepare beside the cells (a form of one batch: every small form, every
                // submission a server checks): no thread is started for nothing — its start and join cost more
                // than a small form's whole render.
                current.responses = try driver.perform(requests)
            } else {
                current.responses = try Parallel.alongside(
                    { () throws(RuntimeError) -> [CellResponse] in try driver.perform(requests) },
                    beside: {
                        if previous != nil { finish(&previous!, &finishing) }
                        if k + 1 < batchCount { upcoming = prepare(size(k + 1), &preparing) }
                    })
            }
            performed = current
            current = upcoming ?? Batch()
        }
        if performed != nil { finish(&performed!, &finishing, split: true) }
        release(before: groups.count)
    }

    /// The view tree from the finished views (which are moved into it).
    func tree() -> ViewTree {
        let form = shape
        var sections: [SectionView] = []
        sections.reserveCapacity(sectionCount)
        for (s, section) in form.sections.enumerated() {
            var fieldViews: [FieldView] = []
            swap(&fieldViews, &views[s])
            var sectionView = SectionView(
                id: section.id, header: section.header, footer: section.footer,
                insets: section.insets, spacing: section.spacing, fields: fieldViews)
            sectionView.conditions = section.conditions
            sectionView.repeatGroup = section.repeatGroup
            sectionView.object = section.object
            sectionView.visible = section.conditions.visibleIf == nil || fieldViews.contains { $0.visible }
            sections.append(sectionView)
        }
        for (j, s) in spareSections.enumerated() { sections[s].spare = views[sectionCount + j] }
        var tree = ViewTree(formID: form.id, title: form.title, description: form.description, sections: sections)
        tree.pages = form.pages.map { PageView(id: $0.id, title: $0.title, sections: $0.sections) }
        tree.language = form.language
        return tree
    }
}
