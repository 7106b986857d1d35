import Testing

@testable import FormworkCore

/// `SchemaValidator.fits` is the quick test every decoded value and every configure goes through; whatever it
/// answers must be what `problem(with:for:model:)` says, which is what a user is shown.
@Suite("Schema: the quick fit agrees with the problem a user is shown")
struct SchemaValidatorTests {
    @Test("every kind of field, with and without limits, against values that fit, miss and are of another type")
    func fitsAgreesWithProblem() {
        let lengths: [(Int?, Int?)] = [(nil, nil), (1, nil), (nil, 2), (2, 3), (0, 0)]
        var fields: [FieldSchema] = []
        for (minLength, maxLength) in lengths {
            for type in [FieldType.string, .text, .stringList] {
                fields.append(FieldSchema(name: "f", type: type, minLength: minLength, maxLength: maxLength))
            }
        }
        for (minimum, maximum) in [(nil, nil), (0.0, 10.0), (-1.5, nil), (nil, 2.5)] as [(Double?, Double?)] {
            for type in [FieldType.integer, .number, .date] {
                fields.append(FieldSchema(name: "n", type: type, minimum: minimum, maximum: maximum))
            }
        }
        fields.append(FieldSchema(name: "b", type: .bool))
        fields.append(FieldSchema(name: "c", type: .choice, choices: [Choice(value: "a"), Choice(value: "b")]))
        fields.append(FieldSchema(name: "m", type: .choiceList, choices: [Choice(value: "a"), Choice(value: "b")], maxLength: 2))
        let values: [Value] = [
            .string(""), .string("a"), .string("abc"), .string("two\nlines"), .string("é"),
            .stringList([]), .stringList(["a"]), .stringList(["a", "b"]), .stringList(["a", "a"]), .stringList(["a", "b", "c", "d"]),
            .integer(-2), .integer(0), .integer(3), .integer(11),
            .number(-1.5), .number(2.5), .number(.nan), .number(.infinity), .number(1e300),
            .bool(true),
        ]
        var checked = 0
        for field in fields {
            for value in values {
                let problem = SchemaValidator.problem(with: value, for: field, model: [String: Value]())
                let fits = SchemaValidator.fits(value, field)
                #expect(fits == (problem == nil), "\(field.type) \(field.name) \(value): \(problem ?? "fits")")
                checked += 1
            }
        }
        #expect(checked == fields.count * values.count && checked > 500)
    }
}
