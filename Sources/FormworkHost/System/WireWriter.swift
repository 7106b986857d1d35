/// The compact binary encoding spoken between the host and its child processes
/// (the scanner and the cell host) and stored in the registry cache: little-endian
/// integers, IEEE doubles, length-prefixed UTF-8 strings. Both ends are the same
/// build of Formwork (the child is the host's own executable and the cache is keyed
/// by the host's version), so the format needs no versioning inside a message.
///
/// The writer's primitives live in System, below every other folder: the cell host's canvas recorder (ABI)
/// writes view nodes with them as a pack draws, and the messages themselves are written in Isolation.
struct WireWriter {
    var bytes: [UInt8] = []

    init(capacity: Int = 256) { bytes.reserveCapacity(capacity) }

    mutating func u8(_ v: UInt8) { bytes.append(v) }
    mutating func bool(_ v: Bool) { bytes.append(v ? 1 : 0) }
    mutating func u32(_ v: UInt32) { put(v) }
    mutating func i64(_ v: Int64) { put(v) }
    mutating func int(_ v: Int) { i64(Int64(v)) }
    mutating func f64(_ v: Double) { u64(v.bitPattern) }
    mutating func u64(_ v: UInt64) { put(v) }
    /// Little-endian bytes of `v`, copied as one typed buffer (a raw buffer would be appended byte by byte).
    @inline(__always) private mutating func put<T: FixedWidthInteger>(_ v: T) {
        withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0.assumingMemoryBound(to: UInt8.self)) }
    }
    mutating func string(_ s: String) {
        let utf8 = s.utf8
        u32(UInt32(utf8.count))
        if utf8.withContiguousStorageIfAvailable({ bytes.append(contentsOf: $0) }) == nil { bytes.append(contentsOf: utf8) }
    }
    mutating func optional<T>(_ v: T?, _ write: (inout WireWriter, T) -> Void) {
        if let v {
            u8(1)
            write(&self, v)
        } else {
            u8(0)
        }
    }
    mutating func string(_ s: String?) { optional(s) { $0.string($1) } }
    mutating func f64(_ v: Double?) { optional(v) { $0.f64($1) } }
    mutating func bool(_ v: Bool?) { u8(v.map { $0 ? 1 : 2 } ?? 0) }
    mutating func array<T>(_ items: [T], _ write: (inout WireWriter, T) -> Void) {
        u32(UInt32(items.count))
        for item in items { write(&self, item) }
    }
    mutating func strings(_ items: [String]) { array(items) { $0.string($1) } }
}
