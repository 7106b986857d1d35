/// A class that holds what most values of a type leave empty (a field's rules and conditions, a view's bounds), kept
/// out of the value's main storage: made on the first write, copied before a write while another value shares it.
protocol ExtrasBox: AnyObject {
    init()
    init(copying other: Self)
}

extension Optional where Wrapped: ExtrasBox {
    /// The box, ready for a write: made when absent, copied when another value shares it.
    mutating func madeUnique() -> Wrapped {
        // No binding of the box is held across the check: it would count as a second owner.
        if self == nil {
            self = Wrapped()
        } else if !isKnownUniquelyReferenced(&self) {
            self = Wrapped(copying: self!)
        }
        return self!
    }
}
