import Glibc

/// Checking one answer: what the line prompt and the terminal form share.
enum FieldCheck {
    /// The schema, the rules, the date bounds and the cell's `value_changed`, in that order.
    static func problem(
        _ value: Value, _ p: Prompt, in form: Form, section s: Int, field f: Int, runtime: FormRuntime, warn: (String) -> Void
    ) -> String? {
        hostProblem(value, p, in: form, section: s, field: f)
            ?? cellProblem(value, to: form.sections[s].fields[f], runtime: runtime, warn: warn)
    }

    /// What the host finds wrong with `value`: the schema, the document's rules, the rules across fields, the date bounds.
    static func hostProblem(_ value: Value, _ p: Prompt, in form: Form, section s: Int, field f: Int) -> String? {
        let field = form.sections[s].fields[f]
        if let problem = SchemaValidator.problem(with: value, for: p.schema, model: field.model) {
            return "\(p.label) \(problem)."
        }
        if let problem = field.rules.problems(value, label: p.label).first { return problem }
        if let upload = field.rules.upload, case .string(let path) = value, !path.isEmpty,
            let problem = ValuesFile.Application.fileProblem(path, in: ".", upload, key: p.label)
        {
            return problem
        }
        if !field.crossRules.isEmpty {
            var trial = form
            trial.sections[s].fields[f].model[p.schema.name] = value
            if let problem = trial.crossFieldProblems(trial.states()).first(where: { $0.field == field.id }) { return problem.message }
        }
        var updated = field.model
        updated[p.schema.name] = value
        if let problem = DateBounds.problem(model: updated, traits: field.textInput.traits, field: field.textInput.field) {
            return problem.message.prefix(1).uppercased() + problem.message.dropFirst() + "."
        }
        return nil
    }

    /// The cell's reason for refusing `value` through `value_changed`, as a sentence; nil when it accepts.
    static func cellProblem(_ value: Value, to field: FormField, runtime: FormRuntime, warn: (String) -> Void) -> String? {
        do {
            if let reason = try runtime.offer(value, to: field) {
                return reason.prefix(1).uppercased() + reason.dropFirst() + (reason.hasSuffix(".") ? "" : ".")
            }
        } catch {
            // The host's checks passed; a failing cell must not trap the user in this prompt.
            warn(TerminalText.safe(loc("the cell could not check the value ({0}); it is kept as typed", error.message)))
        }
        return nil
    }
}

extension AnswerShaping {
    enum Answer { case keep, clear, value(Value), problem(String) }

    /// A file field's path as written into a values file: absolute, since the values file may be written elsewhere
    /// and its paths are read relative to it.
    static func absolutePath(_ text: String) -> String {
        if text.hasPrefix("/") { return text }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return text }
        let directory = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return (directory == "/" ? "" : directory) + "/" + text
    }

    /// A yes typed in English or in the form's language (`oui`, `o` in French); the same for no.
    static func isYes(_ word: String) -> Bool { ["y", "yes", "true", "on", "1", loc("yes"), loc("y")].contains(word) }
    static func isNo(_ word: String) -> Bool { ["n", "no", "false", "off", "0", loc("no"), loc("n")].contains(word) }

    static func interpret(_ raw: String, _ p: Prompt) -> Answer {
        let text = p.isMultiline ? raw : raw.trimmingBlanks()
        if text.isEmpty { return .keep }
        if text == "-" && !p.isMultiline { return .clear }
        switch p.type {
        case .string where p.upload != nil:
            return .value(.string(absolutePath(text)))
        case .string, .text:
            if let problem = AnswerShaping.filter(text, keyboard: p.traits.keyboard, label: p.label) { return .problem(problem) }
            // A secure entry is never reshaped (as on a phone: no capitalisation of passwords).
            return .value(.string(p.secure || p.keepsCase ? text : AnswerShaping.capitalize(text, p.traits.autocapitalization)))
        case .bool:
            switch text.lowercased() {
            case let word where AnswerShaping.isYes(word): return .value(.bool(true))
            case let word where AnswerShaping.isNo(word): return .value(.bool(false))
            default: return .problem(loc("Answer yes or no."))
            }
        case .integer:
            guard let n = Int64(text) else { return .problem(loc("{0} takes a whole number, such as 3.", p.label)) }
            return .value(.integer(n))
        case .number:
            guard let d = Double(text.replacing(",", with: ".")), d.isFinite else {
                return .problem(loc("{0} takes a number, such as 12.5.", p.label))
            }
            return .value(.number(d))
        case .date:
            if p.dateMode == .time || p.dateMode == .countdown, let seconds = AnswerShaping.time(text, on: p.currentDate) {
                return .value(.number(seconds))
            }
            guard let seconds = DateFormat.parse(text) else {
                return .problem(
                    p.dateMode == .time
                        ? loc("Write a time such as 09:30.") : loc("Write a date such as 2026-11-21, or 2026-11-21T09:30:00Z."))
            }
            return .value(.number(seconds))
        case .choiceList:
            // Several choices: numbers, values or labels separated by commas.
            var chosen: [String] = []
            for part in text.split(separator: ",") {
                let item = part.trimmingBlanks()
                guard let value = AnswerShaping.choose(item, from: p.choices) else {
                    return .problem(
                        loc(
                            "'{0}' is not one of: {1}.", TerminalText.safe(item),
                            p.choices.enumerated().map { "\($0.offset + 1) \($0.element.label)" }.joined(separator: ", ")))
                }
                if !chosen.contains(value) { chosen.append(value) }
            }
            return .value(.stringList(chosen))
        case .choice, .stringList:
            guard let chosen = AnswerShaping.choose(text, from: p.choices) else {
                return .problem(
                    loc(
                        "Choose one of: {0}.", p.choices.enumerated().map { "\($0.offset + 1) \($0.element.label)" }.joined(separator: ", ")
                    ))
            }
            return .value(.string(chosen))
        }
    }

}
