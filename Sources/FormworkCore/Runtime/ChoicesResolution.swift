import Glibc
import Synchronization

// Giving a form's fields the choices packs list (`choicesFrom`), through a `CellDriver`'s `choices`: here, beside
// the driver, since a failure is the driver's `RuntimeError`.

extension Form {
    /// Whether any field takes its choices from a pack.
    public var hasPackChoices: Bool { sections.contains { section in section.fields.contains { $0.choicesFrom != nil } } }

    /// Fills every field whose choices come from a pack (`choicesFrom`) with what `list` answers now: the options
    /// field holds the values, `labelledChoices` their labels. Each source is asked once. A value the document or
    /// a values file gave that the answer no longer lists is refused, as is an answer with no choices; a source
    /// that cannot be listed is refused with the pack's reason. Problems are reported together, each at the
    /// field's `choicesFrom` (or value), with `file` the document's name.
    public mutating func resolveChoices(
        file: String? = nil, _ list: (ChoicesSource) throws(RuntimeError) -> [Choice]
    ) throws(FormError) {
        guard hasPackChoices else { return }
        var answers: [ChoicesSource: Result<[Choice], RuntimeError>] = [:]
        var diagnostics: [Diagnostic] = []
        for s in sections.indices {
            for f in sections[s].fields.indices {
                guard let from = sections[s].fields[f].choicesFrom else { continue }
                let pointer = sections[s].fields[f].pointer
                let answer: Result<[Choice], RuntimeError>
                if let known = answers[from] {
                    answer = known
                } else {
                    do throws(RuntimeError) { answer = .success(try list(from)) } catch { answer = .failure(error) }
                    answers[from] = answer
                }
                switch answer {
                case .failure(let error):
                    diagnostics.append(
                        Diagnostic(
                            kind: .unavailable, file: file, pointer: "\(pointer)/choicesFrom", line: nil,
                            message: "the choices of \(from) could not be listed: \(error.message)"))
                case .success(let choices) where choices.isEmpty:
                    diagnostics.append(
                        Diagnostic(
                            kind: .unavailable, file: file, pointer: "\(pointer)/choicesFrom", line: nil,
                            message: "\(from) lists no choices now; there is nothing to choose from"))
                case .success(let choices):
                    if let problem = Self.fill(&sections[s].fields[f], with: choices, from: from) {
                        diagnostics.append(
                            Diagnostic(
                                kind: .invalid, file: file, pointer: problem.pointer, line: nil, message: problem.message, code: "invalid"))
                    }
                }
            }
        }
        if !diagnostics.isEmpty { throw .invalid(diagnostics) }
    }

    /// Puts `choices` into `field`'s options; the problem when its value is not among them.
    private static func fill(_ field: inout FormField, with choices: [Choice], from: ChoicesSource) -> (pointer: String, message: String)? {
        field.model[from.optionsField] = .stringList(choices.map(\.value))
        var labels: [String: LabelledChoice] = [:]
        for choice in choices { labels[choice.value] = LabelledChoice(json: .string(choice.value), label: choice.label) }
        field.labelledChoices = labels
        guard let valueField = field.valueField, let value = field.model[valueField] else { return nil }
        let allowed = Set(choices.map(\.value))
        let stale: String? =
            switch value {
            case .string(let s): allowed.contains(s) ? nil : s
            case .stringList(let items): items.first { !allowed.contains($0) }
            default: nil
            }
        guard let stale else { return nil }
        return (
            "\(field.pointer)/model/\(Pointer.escape(valueField))",
            "'\(SchemaValidator.truncated(stale))' is not one of the choices \(from) lists now"
        )
    }
}

/// Answers of packs' choices sources kept for as long as each pack allows (`cache_seconds`), for a process that
/// renders the same forms again and again (`formwork serve`). Safe from several threads.
public final class ChoicesCache: Sendable {
    private let answers = Mutex<[ChoicesSource: (choices: [Choice], until: Double)]>([:])

    public init() {}

    /// The choices of `source`: a kept answer when it is still fresh and `fresh` is false, else `list`'s (kept
    /// when the pack allows). A submission asks with `fresh`, so that a value is checked against the choices as
    /// they are now.
    public func choices(
        _ source: ChoicesSource, fresh: Bool, _ list: (ChoicesSource) throws(RuntimeError) -> [Choice]
    ) throws(RuntimeError) -> [Choice] {
        let now = Self.now()
        if !fresh, let kept = answers.withLock({ $0[source] }), kept.until > now { return kept.choices }
        let choices = try list(source)
        if source.cacheSeconds > 0 {
            answers.withLock { $0[source] = (choices, now + Double(source.cacheSeconds)) }
        }
        return choices
    }

    static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}
