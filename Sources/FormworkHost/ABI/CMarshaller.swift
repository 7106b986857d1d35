import CFormwork
import FormworkCore
import Glibc

/// The one converter from `Value`s to C memory, for the generic configure
/// (`fw_value` arrays), the typed configure (a model struct) and `value_changed`.
///
/// Every string and list it makes is owned by the marshaller and freed when it is
/// released: pointers handed to a pack live only for the call, as formwork.h says.
final class CMarshaller {
    /// Strings and lists are bump-allocated in chunks that `reset` keeps for the next call: no
    /// malloc and free per string (they were most of a configure's cost beside the call itself).
    private var chunks: [(pointer: UnsafeMutableRawPointer, size: Int)] = []
    /// The chunk being filled (the last in `chunks`), its size and how much of it is used: the bump
    /// allocation reads these three, not the array.
    private var current: UnsafeMutableRawPointer?
    private var capacity = 0
    private var used = 0
    /// `check`'s marshallers only: chunks that become unreadable instead of reused (see `PoisonedChunks`).
    private let poisoning: PoisonedChunks?

    init(poisoning: PoisonedChunks? = nil) { self.poisoning = poisoning }

    deinit {
        if let poisoning { return poisoning.poison(chunks) }
        for c in chunks { free(c.pointer) }
    }

    /// Frees what the last call used, keeping the marshaller (and its first chunk) for the next.
    @inline(__always)
    func reset() {
        used = 0
        if let poisoning { return poisonAll(poisoning) }
        if chunks.count > 1 { keepFirstChunk() }
    }

    private func poisonAll(_ poisoning: PoisonedChunks) {
        poisoning.poison(chunks)
        chunks = []
        current = nil
        capacity = 0
    }

    private func keepFirstChunk() {
        for c in chunks.dropFirst() { free(c.pointer) }
        chunks.removeSubrange(1...)
        current = chunks[0].pointer
        capacity = chunks[0].size
    }

    /// Runs `body` with a marshaller whose memory is freed afterwards.
    static func with<R>(_ body: (CMarshaller) throws -> R) rethrows -> R {
        let marshaller = CMarshaller()
        return try withExtendedLifetime(marshaller) { try body(marshaller) }
    }

    /// `count` bytes aligned to `alignment`, valid until the next `reset`.
    @inline(__always)
    private func allocate(_ count: Int, alignment: Int) -> UnsafeMutableRawPointer {
        let offset = (used + alignment - 1) & ~(alignment - 1)
        if let current, offset + count <= capacity {
            used = offset + count
            return current + offset
        }
        return allocateChunk(count)
    }

    private func allocateChunk(_ count: Int) -> UnsafeMutableRawPointer {
        let size = max(4096, count)
        let pointer = poisoning?.chunk(size) ?? malloc(size)!
        chunks.append((pointer, size))
        current = pointer
        capacity = size
        used = count
        return pointer
    }

    /// A NUL-terminated copy of `s`, valid until the marshaller is reset or released.
    func cString(_ s: String) -> UnsafePointer<CChar> {
        // Read in place when contiguous (native and small strings): no mutable copy to make contiguous.
        if let copied = s.utf8.withContiguousStorageIfAvailable({ copy($0) }) { return copied }
        var s = s
        return s.withUTF8 { copy($0) }
    }

    /// A NUL-terminated copy of `bytes`, valid until the marshaller is reset or released.
    func copy(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafePointer<CChar> {
        let copy = allocate(bytes.count + 1, alignment: 1)
        if bytes.count <= 16 {
            // A title or a short value: a loop costs less than the call to `memmove`.
            for i in 0..<bytes.count { copy.storeBytes(of: bytes[i], toByteOffset: i, as: UInt8.self) }
        } else if let base = bytes.baseAddress {
            copy.copyMemory(from: base, byteCount: bytes.count)
        }
        copy.storeBytes(of: 0, toByteOffset: bytes.count, as: UInt8.self)
        return UnsafePointer(copy.assumingMemoryBound(to: CChar.self))
    }

    /// An `fw_string_list` of copies of `items` (`items` is NULL when the list is empty).
    func list(_ items: [String]) -> fw_string_list {
        guard !items.isEmpty else { return fw_string_list(items: nil, count: 0) }
        let stride = MemoryLayout<UnsafePointer<CChar>?>.stride
        let raw = allocate(items.count * stride, alignment: MemoryLayout<UnsafePointer<CChar>?>.alignment)
        let array = raw.bindMemory(to: UnsafePointer<CChar>?.self, capacity: items.count)
        for (j, item) in items.enumerated() { array[j] = cString(item) }
        return fw_string_list(items: UnsafePointer(array), count: items.count)
    }

    /// An `fw_string_list` of copies of the `count` wire strings from `first` (see `WireValues`).
    func list(wire first: UnsafeRawPointer, count: Int) -> fw_string_list {
        guard count > 0 else { return fw_string_list(items: nil, count: 0) }
        let stride = MemoryLayout<UnsafePointer<CChar>?>.stride
        let raw = allocate(count * stride, alignment: MemoryLayout<UnsafePointer<CChar>?>.alignment)
        let array = raw.bindMemory(to: UnsafePointer<CChar>?.self, capacity: count)
        var p = first
        for j in 0..<count { array[j] = copy(WireValues.string(&p)) }
        return fw_string_list(items: UnsafePointer(array), count: count)
    }

    /// A tagged `fw_value` (type `FW_FIELD_NONE` when absent, or when `value` is not of a kind
    /// `type` can hold: a pack must never read a string's pointer out of an integer).
    func value(_ value: Value?, as type: FieldType) -> fw_value {
        guard let value else { return fw_value() }
        return self.value(value, as: type)
    }

    /// A tagged `fw_value` of a present value (see above).
    func value(_ value: Value, as type: FieldType) -> fw_value {
        var v = fw_value()
        switch value {
        case .string(let s) where type == .string || type == .text || type == .choice:
            v.as.string = cString(s)
        case .bool(let b) where type == .bool: v.as.boolean = b
        case .integer(let n) where type == .integer: v.as.integer = n
        case .integer(let n) where type == .number || type == .date: v.as.number = Double(n)
        case .number(let d) where type == .number || type == .date: v.as.number = d
        case .stringList(let items) where type == .stringList || type == .choiceList:
            // Generic lists keep a non-NULL items pointer even when empty (1.0 behaviour).
            if items.isEmpty {
                let raw = allocate(MemoryLayout<UnsafePointer<CChar>?>.stride, alignment: MemoryLayout<UnsafePointer<CChar>?>.alignment)
                v.as.list = fw_string_list(items: UnsafePointer(raw.bindMemory(to: UnsafePointer<CChar>?.self, capacity: 1)), count: 0)
            } else {
                v.as.list = list(items)
            }
        default:
            return v  // a kind the field cannot hold: absent
        }
        v.type = type.abiValue
        return v
    }

    /// Stores `value` as the C member of a typed model at `at` (zeroed memory: a value of a kind
    /// the member cannot hold is left absent — zero, or NaN for a date).
    func store(_ value: Value, as type: FieldType, at: UnsafeMutableRawPointer) {
        switch value {
        case .string(let s) where type == .string || type == .text || type == .choice:
            at.storeBytes(of: cString(s), as: UnsafePointer<CChar>?.self)
        case .bool(let b) where type == .bool:
            at.storeBytes(of: b, as: Bool.self)
        case .integer(let n) where type == .integer:
            at.storeBytes(of: n, as: Int64.self)
        case .integer(let n) where type == .number || type == .date:
            at.storeBytes(of: Double(n), as: Double.self)
        case .number(let d) where type == .number || type == .date:
            at.storeBytes(of: d, as: Double.self)
        case .stringList(let items) where type == .stringList || type == .choiceList:
            at.storeBytes(of: list(items), as: fw_string_list.self)
        default:
            if type == .date { at.storeBytes(of: Double.nan, as: Double.self) }  // absent
        }
    }
}

/// Memory for `check`'s calls into a pack that becomes unreadable once the call is over.
///
/// formwork.h says the strings and lists a pack is given live only for the call. A pack that keeps
/// such a pointer and reads it later reads freed memory, which goes unnoticed in a render (the bytes are
/// usually still there). `check` makes its calls with a marshaller whose chunks come from here: each
/// chunk is its own mapping, made `PROT_NONE` when the call returns and never unmapped, so its addresses
/// are never reused and a later read faults at once, in the checker's child, in the step that read it.
final class PoisonedChunks {
    /// A mapping of at least `size` bytes, readable and writable until `poison`.
    func chunk(_ size: Int) -> UnsafeMutableRawPointer? {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let length = (size + page - 1) / page * page
        let pointer = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        guard let pointer, pointer != MAP_FAILED else { return nil }
        return pointer
    }

    /// Makes `chunks` unreadable for the rest of the process (they stay mapped: their addresses stay taken).
    func poison(_ chunks: [(pointer: UnsafeMutableRawPointer, size: Int)]) {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        for c in chunks { mprotect(c.pointer, (c.size + page - 1) / page * page, PROT_NONE) }
    }
}
