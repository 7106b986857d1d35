/// A date picker's value must lie within its model's minimum / maximum dates.
package enum DateBounds {
    package static func problem(model: some ModelLookup, traits: TextInputTraits, field: String?) -> (field: String, message: String)? {
        func date(_ name: String?) -> Double? {
            guard let name, case .number(let d)? = model.value(named: name) else { return nil }
            return d
        }
        let minimum = date(traits.minimumField), maximum = date(traits.maximumField)
        if let minimum, let maximum, minimum > maximum {
            return (
                traits.minimumField!,
                loc(
                    "{0} {1} is after {2} {3}", traits.minimumField!, DateFormat.iso8601(minimum), traits.maximumField!,
                    DateFormat.iso8601(maximum))
            )
        }
        guard let field, let value = date(field) else { return nil }
        if let minimum, value < minimum {
            return (
                field,
                loc(
                    "{0} {1} is before the earliest date {2} ({3})", field, DateFormat.iso8601(value), DateFormat.iso8601(minimum),
                    traits.minimumField!)
            )
        }
        if let maximum, value > maximum {
            return (
                field,
                loc(
                    "{0} {1} is after the latest date {2} ({3})", field, DateFormat.iso8601(value), DateFormat.iso8601(maximum),
                    traits.maximumField!)
            )
        }
        return nil
    }
}
