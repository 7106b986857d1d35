import FormworkCore

/// A model's values in their wire bytes (`PackedWire.store` of each), read in place: what the cell host lays out
/// for a pack's configure (`ConfigurePlan.layTyped(wire:…)`) without making a `Value` or a Swift string of any.
/// Made only over bytes `WireReader.skipValues` has checked, so reading them needs no bounds check of its own;
/// valid while those bytes are.
struct WireValues {
    /// The first value's tag.
    let start: UnsafeRawPointer
    let count: Int

    /// One value as it lies in the bytes.
    enum Item {
        case absent
        case string(UnsafeBufferPointer<UInt8>)
        case bool(Bool)
        case integer(Int64)
        case number(Double)
        /// `count` strings, each a length then its bytes, from `first`.
        case list(count: Int, first: UnsafeRawPointer)
    }

    /// The value at `p`, with `p` moved past it.
    @inline(__always)
    static func next(_ p: inout UnsafeRawPointer) -> Item {
        let tag = p.load(as: UInt8.self)
        p += 1
        switch tag {
        case 1:
            let n = Int(UInt32(littleEndian: p.loadUnaligned(as: UInt32.self)))
            let bytes = UnsafeBufferPointer(start: (p + 4).assumingMemoryBound(to: UInt8.self), count: n)
            p += 4 + n
            return .string(bytes)
        case 2:
            defer { p += 1 }
            return .bool(p.load(as: UInt8.self) != 0)
        case 3:
            defer { p += 8 }
            return .integer(Int64(bitPattern: UInt64(littleEndian: p.loadUnaligned(as: UInt64.self))))
        case 4:
            defer { p += 8 }
            return .number(Double(bitPattern: UInt64(littleEndian: p.loadUnaligned(as: UInt64.self))))
        case 5:
            let count = Int(UInt32(littleEndian: p.loadUnaligned(as: UInt32.self)))
            let first = p + 4
            p += 4
            for _ in 0..<count { p += 4 + Int(UInt32(littleEndian: p.loadUnaligned(as: UInt32.self))) }
            return .list(count: count, first: first)
        default:
            return .absent
        }
    }

    /// The bytes of the string at `p` (a length, then the bytes), with `p` moved past it.
    @inline(__always)
    static func string(_ p: inout UnsafeRawPointer) -> UnsafeBufferPointer<UInt8> {
        let n = Int(UInt32(littleEndian: p.loadUnaligned(as: UInt32.self)))
        defer { p += 4 + n }
        return UnsafeBufferPointer(start: (p + 4).assumingMemoryBound(to: UInt8.self), count: n)
    }

    /// The values made (the general paths take them when the plan's fast path does not).
    func decoded() -> [Value?] {
        var p = start
        var out: [Value?] = []
        out.reserveCapacity(count)
        for _ in 0..<count {
            switch Self.next(&p) {
            case .absent: out.append(nil)
            case .string(let bytes): out.append(.string(String(decoding: bytes, as: UTF8.self)))
            case .bool(let b): out.append(.bool(b))
            case .integer(let n): out.append(.integer(n))
            case .number(let d): out.append(.number(d))
            case .list(let n, let first):
                var q = first
                out.append(.stringList((0..<n).map { _ in String(decoding: Self.string(&q), as: UTF8.self) }))
            }
        }
        return out
    }
}
