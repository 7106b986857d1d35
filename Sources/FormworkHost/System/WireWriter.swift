import FormworkCore

/// The compact binary encoding spoken between the host and its child processes
/// (the scanner and the cell host) and stored in the registry cache: little-endian
/// integers, IEEE doubles, length-prefixed UTF-8 strings. Both ends are the same
/// build of Formwork (the child is the host's own executable and the cache is keyed
/// by the host's version), so the format needs no versioning inside a message.
///
/// The writer's primitives live in System, below every other folder: the cell host's canvas recorder (ABI)
/// writes view nodes with them as a pack draws, and the messages themselves are written in Isolation.
///
/// The bytes go into a `ByteBuffer` (an append is a capacity check and a copy; `[UInt8].append(contentsOf:)`
/// of four bytes was a twentieth of the cell host's time). A writer is a handle on its buffer: a copy of a
/// writer writes to the same bytes, so a writer has one owner at a time.
struct WireWriter {
    let buffer: ByteBuffer

    init(capacity: Int = 256) { buffer = ByteBuffer(capacity: capacity) }

    /// Bytes written so far.
    var count: Int { buffer.count }

    /// A copy of the bytes written (for what keeps them: the registry's fingerprint, the cache file, a test).
    var bytes: [UInt8] { buffer.withUnsafeBytes { Array($0) } }

    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R { try buffer.withUnsafeBytes(body) }

    /// Empties the writer, keeping its memory.
    mutating func removeAll() { buffer.removeAll() }

    /// Drops what was written from `offset` on.
    mutating func truncate(to offset: Int) { buffer.truncate(to: offset) }

    /// Writes `v` over the four bytes at `offset` (a length or count placeholder).
    mutating func patch(_ offset: Int, _ v: UInt32) { Swift.withUnsafeBytes(of: v.littleEndian) { buffer.overwrite(at: offset, with: $0) } }

    /// Writes `byte` over the byte at `offset` (a frame's kind, once known).
    mutating func patch(_ offset: Int, byte: UInt8) { Swift.withUnsafeBytes(of: byte) { buffer.overwrite(at: offset, with: $0) } }

    mutating func raw(_ bytes: [UInt8]) { bytes.withUnsafeBufferPointer { buffer.append($0) } }
    mutating func raw(_ bytes: UnsafeBufferPointer<UInt8>) { buffer.append(bytes) }
    mutating func raw(_ other: WireWriter) { buffer.append(other.buffer) }

    mutating func u8(_ v: UInt8) { buffer.byte(v) }
    mutating func bool(_ v: Bool) { buffer.byte(v ? 1 : 0) }
    mutating func u32(_ v: UInt32) { put(v) }
    mutating func i64(_ v: Int64) { put(v) }
    mutating func int(_ v: Int) { i64(Int64(v)) }
    mutating func f64(_ v: Double) { u64(v.bitPattern) }
    mutating func u64(_ v: UInt64) { put(v) }
    /// Little-endian bytes of `v`, copied as one typed buffer.
    @inline(__always) private mutating func put<T: FixedWidthInteger>(_ v: T) {
        Swift.withUnsafeBytes(of: v.littleEndian) { buffer.append($0) }
    }
    mutating func string(_ s: String) {
        let utf8 = s.utf8
        u32(UInt32(utf8.count))
        buffer.append(s)
    }
    /// `s`, or only a length of `UInt32.max` when it equals `same` (which the reader has just read):
    /// `WireReader.string(orSame:)` reads it back. An accessibility id is its field's id unless a document
    /// says otherwise, and sent again it was a second string made per request in the cell host.
    mutating func string(_ s: String, orSame same: String) {
        if s == same { u32(.max) } else { string(s) }
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
