/// An enum whose cases cross the C ABI as formwork.h constants.
///
/// Each conforming type writes out `abiValue` case by case: the mapping is by the
/// header's explicit values, never by a case's position, so reordering Swift cases
/// cannot change what a number from a pack means. `ABIConstantsTests` compares every
/// value with the frozen `abi/constants-1.0.txt` and with the header itself.
public protocol ABIEnum: CaseIterable {
    /// The value of the case's `FW_*` constant.
    var abiValue: UInt32 { get }
}

extension ABIEnum {
    /// The case whose constant is `abiValue`; nil for a value the header does not define.
    @inlinable public init?(abiValue: UInt32) {
        guard let match = Self.allCases.first(where: { $0.abiValue == abiValue }) else { return nil }
        self = match
    }
}
