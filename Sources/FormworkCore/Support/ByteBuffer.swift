/// A growable run of bytes written through a pointer: the output buffer of the JSON, HTML and text writers.
///
/// `[UInt8].append(contentsOf:)` of a few bytes (a key, a quote, an indent) pays a uniqueness check, a
/// capacity check and a generic copy loop on every call: a sixth of writing a form's JSON went there. Here
/// an append is one capacity check and a copy. A reference: whoever holds the buffer writes to the same
/// bytes (a writer owns one buffer and hands it on when done; nothing writes to a buffer two ways).
package final class ByteBuffer {
    // Unchecked: a buffer is written by one owner at a time, and an access checked at run time (a call
    // before and after every append) would cost more than the append.
    @exclusivity(unchecked) private var base: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) package private(set) var count = 0
    @exclusivity(unchecked) private var capacity: Int

    package init(capacity: Int = 1 << 12) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    package var isEmpty: Bool { count == 0 }

    /// Where the next `n` bytes go, with room for them.
    @inline(__always)
    private func room(_ n: Int) -> UnsafeMutablePointer<UInt8> {
        if _slowPath(capacity &- count < n) { grow(n) }
        return base + count
    }

    @inline(never)
    private func grow(_ n: Int) {
        let newCapacity = max(capacity * 2, count + n)
        let fresh = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        fresh.moveInitialize(from: base, count: count)
        base.deallocate()
        base = fresh
        capacity = newCapacity
    }

    @inline(__always)
    package func byte(_ b: UInt8) {
        room(1).pointee = b
        count &+= 1
    }

    @inline(__always)
    package func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        room(bytes.count).update(from: source, count: bytes.count)
        count &+= bytes.count
    }

    package func append(_ bytes: UnsafeRawBufferPointer) { append(bytes.bindMemory(to: UInt8.self)) }

    /// `n` bytes written by `body` at the end, with one check of the capacity (several small pieces that
    /// always go together: a JSON member's separator, indent and key).
    @inline(__always)
    package func write(_ n: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Void) {
        body(room(n))
        count &+= n
    }

    /// Text of Formwork's own, as it is.
    @inline(__always)
    package func append(_ text: StaticString) { text.withUTF8Buffer { append($0) } }

    package func append(_ text: String) { UTF8Bytes.with(text) { append($0) } }

    package func append(_ other: ByteBuffer) { other.withUnsafeBytes { append($0) } }

    /// `byte` repeated `n` times.
    package func append(repeating byte: UInt8, count n: Int) {
        guard n > 0 else { return }
        room(n).update(repeating: byte, count: n)
        count &+= n
    }

    /// Drops the trailing run of `byte`, not below `start` (a line's padding before its line feed).
    package func trimTrailing(_ byte: UInt8, downTo start: Int) {
        while count > start && base[count - 1] == byte { count -= 1 }
    }

    /// Drops the bytes from offset `n` on (a piece taken back out).
    package func truncate(to n: Int) { count = min(count, max(n, 0)) }

    /// Writes `bytes` over those at `offset` (a length or a count, once known, over its placeholder).
    package func overwrite(at offset: Int, with bytes: UnsafeRawBufferPointer) {
        precondition(offset >= 0 && bytes.count <= count - offset, "overwrite past the end of the buffer")
        guard let source = bytes.baseAddress else { return }
        UnsafeMutableRawPointer(base + offset).copyMemory(from: source, byteCount: bytes.count)
    }

    /// Empties the buffer, keeping its memory.
    package func removeAll() { count = 0 }

    package func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withExtendedLifetime(self) { try body(UnsafeRawBufferPointer(start: base, count: count)) }
    }

    package var string: String { withUnsafeBytes { String(decoding: $0, as: UTF8.self) } }
}
