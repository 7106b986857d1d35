/// The verdict on a set of values: what `formwork validate --values` reports and what the server answers a
/// submission with. One implementation for both, so that they cannot disagree.
public enum ValuesCheck {
    /// Applies the values file at `path` to `form` and returns every problem: the values' own (types, the schema,
    /// required fields, the document's rules), then what each cell's `value_changed` says of the values that passed.
    /// Throws when the file cannot be read, or when `driver` cannot drive a cell at all.
    public static func problems(path: String, form: inout Form, driver: any CellDriver) throws -> [Diagnostic] {
        let file = SourceFile.displayName(path)
        let problems = try ValuesFile.collect(path: path, into: &form)
        return try problems + cellProblems(form, file: file, driver: driver)
    }

    /// The same verdict on values held in memory: `values` is a values-file object (keyed by field id; a repeated
    /// group's items nested), as a JSON API submission gives it.
    package static func problems(
        values: JSON, file: String?, form: inout Form, driver: any CellDriver
    ) throws(RuntimeError)
        -> [Diagnostic]
    {
        let problems = ValuesFile.collect(values, into: &form, file: file)
        return try problems + cellProblems(form, file: file, driver: driver)
    }

    /// The verdict on a draft's values: what is given must be right (types, the schema, each value's rules, the
    /// cells), but nothing is required yet — no required field, no minimum of items, no rule across fields.
    package static func draftProblems(
        values: JSON, file: String?, form: inout Form, driver: any CellDriver
    ) throws(RuntimeError) -> [Diagnostic] {
        let problems = ValuesFile.collect(values, into: &form, file: file, requireComplete: false, checkGivenRules: true)
        return try problems + cellProblems(form, file: file, driver: driver)
    }

    /// The values that passed the schema also pass through each cell's `value_changed`.
    static func cellProblems(_ form: Form, file: String?, driver: any CellDriver) throws(RuntimeError) -> [Diagnostic] {
        let runtime = FormRuntime(driver: driver)
        _ = try runtime.render(form)
        return runtime.rejections.map { Diagnostic(kind: .invalid, file: file, pointer: $0.pointer, line: nil, message: $0.message) }
    }
}
