import FormworkCore

import Glibc

/// The compact binary encoding spoken between the host and its child processes: `WireWriter`
/// (System/WireWriter.swift) writes it, `WireReader` reads it; this file has both ends of every message.

/// A message that does not decode: truncated, or a tag this build does not know.
/// The last few choice lists a run of responses decoded, each with its encoded bytes: a list that repeats from field to
/// field (every picker's options, every rating's labels, with other cell types between them) is decoded once and
/// shared by the views, not made again for each (a 100k-field render held 2 MB of copies). A list is matched by its
/// bytes (its count and length-prefixed strings: equal bytes are an equal list), against at most `capacity` lists.
final class RecentChoices {
    private(set) var lists: [(bytes: [UInt8], choices: [Choice])] = []
    static let capacity = 4

    /// The index of the kept list whose bytes `bytes` has at `offset` (before `end`), nil when none.
    func match(_ bytes: [UInt8], at offset: Int, end: Int) -> Int? {
        bytes.withUnsafeBufferPointer { b -> Int? in
            for (k, list) in lists.enumerated() {
                let n = list.bytes.count
                guard n <= end - offset else { continue }
                let equal = list.bytes.withUnsafeBufferPointer { memcmp($0.baseAddress!, b.baseAddress! + offset, n) == 0 }
                if equal { return k }
            }
            return nil
        }
    }

    /// Keeps `choices`, read from `bytes`, in place of the list kept longest (an empty list is not worth keeping).
    func keep(_ bytes: [UInt8], _ choices: [Choice]) {
        guard !choices.isEmpty else { return }
        if lists.count == Self.capacity { lists.removeFirst() }
        lists.append((bytes, choices))
    }
}

struct WireError: Error, CustomStringConvertible {
    let offset: Int
    var description: String { "malformed message at byte \(offset)" }
}

struct WireReader {
    let bytes: [UInt8]
    var offset = 0
    /// Where the message ends: `bytes.count`, or a frame's end in a buffer of several.
    let end: Int
    /// The choice lists decoded last, for a reader of views (`choices()`): nil, every list is decoded.
    var recentChoices: RecentChoices?

    init(_ bytes: [UInt8], offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
        end = bytes.count
    }

    /// The message at `range` of `bytes` (a frame read in place from a channel's buffer, not copied out of it).
    init(_ bytes: [UInt8], range: Range<Int>) {
        precondition(range.lowerBound >= 0 && range.upperBound <= bytes.count)
        self.bytes = bytes
        offset = range.lowerBound
        end = range.upperBound
    }

    var atEnd: Bool { offset >= end }

    private mutating func take(_ n: Int) throws(WireError) -> Int {
        guard n >= 0, n <= end - offset else { throw WireError(offset: offset) }
        defer { offset += n }
        return offset
    }
    /// Passes over `n` bytes (a length-prefixed part read later, or never).
    mutating func skip(_ n: Int) throws(WireError) { _ = try take(n) }
    mutating func u8() throws(WireError) -> UInt8 { bytes[try take(1)] }
    mutating func bool() throws(WireError) -> Bool { try u8() != 0 }
    mutating func u32() throws(WireError) -> UInt32 {
        let at = try take(4)
        return bytes.withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: at, as: UInt32.self)) }
    }
    mutating func u64() throws(WireError) -> UInt64 {
        let at = try take(8)
        return bytes.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: at, as: UInt64.self)) }
    }
    mutating func i64() throws(WireError) -> Int64 { Int64(bitPattern: try u64()) }
    mutating func int() throws(WireError) -> Int {
        let v = try i64()
        guard let n = Int(exactly: v) else { throw WireError(offset: offset) }
        return n
    }
    mutating func f64() throws(WireError) -> Double { Double(bitPattern: try u64()) }
    mutating func string() throws(WireError) -> String {
        let count = Int(try u32())
        let at = try take(count)
        return bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[at..<at + count]), as: UTF8.self) }
    }
    /// A string written by `WireWriter.string(_:orSame:)`: `same` itself when the writer marked it equal.
    mutating func string(orSame same: String) throws(WireError) -> String {
        let count = try u32()
        if count == .max { return same }
        let at = try take(Int(count))
        return bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[at..<at + Int(count)]), as: UTF8.self) }
    }
    mutating func optional<T>(_ read: (inout WireReader) throws(WireError) -> T) throws(WireError) -> T? {
        try u8() == 0 ? nil : try read(&self)
    }
    mutating func optionalString() throws(WireError) -> String? { try optional { (r) throws(WireError) in try r.string() } }
    /// `optionalString()`, but `last` itself when the bytes are its (no string made); else `last` becomes the
    /// string read. A value that repeats from message to message (a cell type's value field) is made once.
    mutating func optionalString(reusing last: inout String?) throws(WireError) -> String? {
        guard try u8() != 0 else { return nil }
        if let old = last, skipString(equalTo: old) { return old }
        let s = try string()
        last = s
        return s
    }
    mutating func optionalF64() throws(WireError) -> Double? { try optional { (r) throws(WireError) in try r.f64() } }
    mutating func optionalBool() throws(WireError) -> Bool? {
        switch try u8() {
        case 0: return nil
        case 1: return true
        default: return false
        }
    }
    mutating func array<T>(_ read: (inout WireReader) throws(WireError) -> T) throws(WireError) -> [T] {
        let count = Int(try u32())
        // Every element takes at least one byte: a count larger than what is left is corrupt.
        guard count <= end - offset else { throw WireError(offset: offset) }
        var out: [T] = []
        guard count > 0 else { return out }  // reserving 0 still made a buffer: the empty array is shared, not unique
        // One element (most of a field's views, a group's child): an array literal, which allocates the buffer
        // directly; `reserveCapacity` goes through the general growth path.
        if count == 1 { return [try read(&self)] }
        out.reserveCapacity(count)
        for _ in 0..<count { out.append(try read(&self)) }
        return out
    }
    mutating func strings() throws(WireError) -> [String] { try array { (r) throws(WireError) in try r.string() } }
    mutating func rawEnum<E: RawRepresentable>(_: E.Type) throws(WireError) -> E where E.RawValue == String {
        let at = offset
        guard let e = E(rawValue: try string()) else { throw WireError(offset: at) }
        return e
    }
}

// MARK: values, schemas, cell types, packs

/// Sizes and stores of the encoding into memory already made room for (`ByteBuffer.write`): the same bytes
/// `WireWriter` writes a call at a time, for a message whose size is counted first. Each `store` returns the
/// bytes it stored.
enum PackedWire {
    @inline(__always)
    static func store(_ v: UInt32, _ p: UnsafeMutablePointer<UInt8>) -> Int {
        UnsafeMutableRawPointer(p).storeBytes(of: v.littleEndian, as: UInt32.self)
        return 4
    }

    @inline(__always)
    static func store(_ v: UInt64, _ p: UnsafeMutablePointer<UInt8>) -> Int {
        UnsafeMutableRawPointer(p).storeBytes(of: v.littleEndian, as: UInt64.self)
        return 8
    }

    /// A length-prefixed string (`WireWriter.string`).
    @inline(__always)
    static func store(_ s: String, _ p: UnsafeMutablePointer<UInt8>) -> Int {
        func body(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
            _ = store(UInt32(bytes.count), p)
            if let base = bytes.baseAddress { (p + 4).update(from: base, count: bytes.count) }
            return 4 + bytes.count
        }
        if let n = s.utf8.withContiguousStorageIfAvailable(body) { return n }
        var copy = s
        return copy.withUTF8(body)
    }

    /// The bytes of `WireWriter.value(v)`.
    static func size(of v: Value?) -> Int {
        withUnsafePointer(to: v) { size(of: $0) }
    }

    /// `size(of:)` of the value at `v`, read in place (a `Value?` passed by value was copied: a retain and a release).
    static func size(of v: UnsafePointer<Value?>) -> Int {
        switch v.pointee {
        case nil: 1
        case .string(let s)?: 1 + 4 + s.utf8.count
        case .bool?: 2
        case .integer?, .number?: 9
        case .stringList(let items)?: items.reduce(1 + 4) { $0 + 4 + $1.utf8.count }
        }
    }

    /// `WireWriter.value(v)`'s bytes, stored at `p` (`size(of: v)` of them).
    static func store(_ v: Value?, _ p: UnsafeMutablePointer<UInt8>) -> Int {
        withUnsafePointer(to: v) { store($0, p) }
    }

    /// `store(_:_:)` of the value at `v`, read in place.
    static func store(_ v: UnsafePointer<Value?>, _ p: UnsafeMutablePointer<UInt8>) -> Int {
        switch v.pointee {
        case nil:
            p[0] = 0
            return 1
        case .string(let s)?:
            p[0] = 1
            return 1 + store(s, p + 1)
        case .bool(let b)?:
            p[0] = 2
            p[1] = b ? 1 : 0
            return 2
        case .integer(let n)?:
            p[0] = 3
            return 1 + store(UInt64(bitPattern: n), p + 1)
        case .number(let d)?:
            p[0] = 4
            return 1 + store(d.bitPattern, p + 1)
        case .stringList(let items)?:
            p[0] = 5
            var at = 1 + store(UInt32(items.count), p + 1)
            for item in items { at += store(item, p + at) }
            return at
        }
    }
}

extension WireWriter {
    /// A tag (0 absent, 1 string, 2 bool, 3 integer, 4 number, 5 list of strings) and the value, sized and stored
    /// by `PackedWire` (which a request's model is written with too).
    mutating func value(_ v: Value?) {
        buffer.write(PackedWire.size(of: v)) { _ = PackedWire.store(v, $0) }
    }

    mutating func abi(_ v: ABIVersion) {
        u32(v.major)
        u32(v.minor)
        u32(v.patch)
    }

    mutating func field(_ f: FieldSchema) {
        string(f.name)
        string(f.type.rawValue)
        string(f.label)
        string(f.doc)
        bool(f.required)
        array(f.choices) {
            $0.string($1.value)
            $0.string($1.label)
        }
        value(f.defaultValue)
        f64(f.minimum)
        f64(f.maximum)
        optional(f.minLength) { $0.int($1) }
        optional(f.maxLength) { $0.int($1) }
        string(f.optionsField)
        f64(f.step)
        bool(f.exclusiveMinimum)
        bool(f.exclusiveMaximum)
    }

    mutating func traits(_ t: TextInputTraits) {
        string(t.autocapitalization?.rawValue)
        bool(t.autocorrection)
        bool(t.spellChecking)
        bool(t.smartDashes)
        bool(t.smartQuotes)
        bool(t.smartInsertDelete)
        string(t.keyboard?.rawValue)
        string(t.keyboardAppearance?.rawValue)
        string(t.returnKey?.rawValue)
        string(t.clearButton?.rawValue)
        bool(t.secureEntry)
        string(t.contentType)
        strings(t.dataDetectors.map(\.rawValue))
        bool(t.selectable)
        string(t.dateMode?.rawValue)
        string(t.minimumField)
        string(t.maximumField)
    }

    mutating func cellType(_ c: CellType) {
        string(c.id)
        string(c.name)
        string(c.summary)
        array(c.fields) { $0.field($1) }
        string(c.textInput.kind.rawValue)
        string(c.textInput.field)
        traits(c.textInput.traits)
        u32(c.capabilities.rawValue)
        switch c.configure {
        case .generic: u8(0)
        case .typed(let convention, let size, let alignment):
            u8(convention == .byValue ? 1 : 2)
            int(size)
            int(alignment)
        }
        array(c.modelOffsets) { $0.int($1) }
        string(c.roles.value)
        string(c.roles.required)
        string(c.roles.title)
        string(c.roles.maxLength)
        string(c.roles.placeholder)
    }

    mutating func pack(_ p: Pack) {
        string(p.path)
        string(p.id)
        string(p.name)
        string(p.version)
        string(p.vendor)
        string(p.license)
        string(p.description)
        abi(p.abi)
        array(p.cellTypes) { $0.cellType($1) }
        array(p.choiceSources) { $0.string($1) }
        u32(p.choicesCacheSeconds)
    }

    mutating func packError(_ e: PackError) {
        string(e.path)
        switch e.reason {
        case .fileNotFound: u8(1)
        case .notARegularFile: u8(2)
        case .unreadable: u8(3)
        case .notELF: u8(4)
        case .openFailed(let text):
            u8(5)
            string(text)
        case .missingEntry(let majors):
            u8(6)
            array(majors) { $0.u32($1) }
        case .entryReturnedNull: u8(7)
        case .mangledEntry: u8(8)
        case .incompatibleABI(let pack, let host):
            u8(9)
            abi(pack)
            abi(host)
        case .invalidDescriptor(let text):
            u8(10)
            string(text)
        case .initFailed(let status, let log):
            u8(11)
            i64(Int64(status))
            string(log)
        case .untrusted(let text):
            u8(12)
            string(text)
        case .quarantined(let text):
            u8(13)
            string(text)
        case .notScanned(let text):
            u8(14)
            string(text)
        }
    }
}

extension WireReader {
    mutating func value() throws(WireError) -> Value? {
        let at = offset
        switch try u8() {
        case 0: return nil
        case 1: return .string(try string())
        case 2: return .bool(try bool())
        case 3: return .integer(try i64())
        case 4: return .number(try f64())
        case 5: return .stringList(try strings())
        default: throw WireError(offset: at)
        }
    }

    /// A list of `value()`s read into `values`, whose elements are overwritten in place (the cell host keeps one
    /// list per cell type of a batch): no array is made and freed per request, and each old value is released
    /// by code made for `Value?`, not by the runtime's generic destroy of a whole array.
    ///
    /// A string (or list of strings) whose bytes are those of the value it replaces is left as it is: from request
    /// to request of a cell type most of a model's strings repeat (labels, choices, a currency), and reading them
    /// again made a string of each, in the cell host's hottest loop.
    mutating func values(into values: inout [Value?]) throws(WireError) {
        let count = Int(try u32())
        guard count <= end - offset else { throw WireError(offset: offset) }
        if values.count > count { values.removeSubrange(count...) }
        for i in 0..<count {
            if i < values.count {
                // An absent value where one was absent before (most of a model's fields): its tag read past.
                if offset < end, bytes[offset] == 0, case .none = values[i] {
                    offset += 1
                    continue
                }
                if skipValue(equalTo: values[i]) { continue }
                values[i] = try value()
            } else {
                values.append(try value())
            }
        }
    }

    /// Whether the next value is a string or a list of strings with the bytes of `old`'s; when it is, it is read
    /// past. Anything else (another value, another kind, a malformed message) leaves the reader where it was.
    private mutating func skipValue(equalTo old: Value?) -> Bool {
        let start = offset
        guard offset < end else { return false }
        let tag = bytes[offset]
        offset += 1
        switch (tag, old) {
        case (1, .string(let s)?):
            if skipString(equalTo: s) { return true }
        case (5, .stringList(let list)?):
            if let count = peekU32(), count == list.count {
                offset += 4
                var k = 0
                while k < count && skipString(equalTo: list[k]) { k += 1 }
                if k == count { return true }
            }
        default: break
        }
        offset = start
        return false
    }

    /// The next u32, not read past; nil at the end.
    private func peekU32() -> Int? {
        guard end - offset >= 4 else { return nil }
        return Int(bytes.withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self)) })
    }

    /// Whether the next string's bytes are `old`'s; when they are, it is read past.
    private mutating func skipString(equalTo old: String) -> Bool {
        guard let count = peekU32(), count == old.utf8.count, count <= end - offset - 4 else { return false }
        let at = offset + 4
        let same = bytes.withUnsafeBufferPointer { b -> Bool in
            let equal = old.utf8.withContiguousStorageIfAvailable { o -> Bool in
                count == 0 || memcmp(o.baseAddress!, b.baseAddress! + at, count) == 0
            }
            return equal ?? false
        }
        if same { offset = at + count }
        return same
    }

    /// Passes over a list of `value()`s (as `values(into:)` reads them), checking that every tag is known and
    /// every length within the message, without making any value: the model of `WireValues`, read later in place.
    mutating func skipValues() throws(WireError) -> (start: Int, count: Int) {
        let count = Int(try u32())
        guard count <= end - offset else { throw WireError(offset: offset) }
        let start = offset
        for _ in 0..<count {
            let at = offset
            switch try u8() {
            case 0: break
            case 1: try skip(Int(try u32()))
            case 2: try skip(1)
            case 3, 4: try skip(8)
            case 5:
                let items = Int(try u32())
                guard items <= end - offset else { throw WireError(offset: offset) }
                for _ in 0..<items { try skip(Int(try u32())) }
            default: throw WireError(offset: at)
            }
        }
        return (start, count)
    }

    mutating func abi() throws(WireError) -> ABIVersion {
        ABIVersion(major: try u32(), minor: try u32(), patch: try u32())
    }

    mutating func optionalEnum<E: RawRepresentable>(_: E.Type) throws(WireError) -> E? where E.RawValue == String {
        let at = offset
        guard let raw = try optionalString() else { return nil }
        guard let e = E(rawValue: raw) else { throw WireError(offset: at) }
        return e
    }

    mutating func optionalInt() throws(WireError) -> Int? { try optional { (r) throws(WireError) in try r.int() } }

    mutating func field() throws(WireError) -> FieldSchema {
        let name = try string()
        let type = try rawEnum(FieldType.self)
        let label = try string()
        let doc = try optionalString()
        let required = try bool()
        let choices = try array { (r) throws(WireError) in Choice(value: try r.string(), label: try r.string()) }
        let defaultValue = try value()
        let minimum = try optionalF64()
        let maximum = try optionalF64()
        let minLength = try optionalInt()
        let maxLength = try optionalInt()
        let optionsField = try optionalString()
        let step = try optionalF64()
        let exclusiveMinimum = try bool()
        let exclusiveMaximum = try bool()
        return FieldSchema(
            name: name, type: type, label: label, doc: doc, required: required, choices: choices, defaultValue: defaultValue,
            minimum: minimum, maximum: maximum, minLength: minLength, maxLength: maxLength, optionsField: optionsField,
            step: step, exclusiveMinimum: exclusiveMinimum, exclusiveMaximum: exclusiveMaximum)
    }

    mutating func traits() throws(WireError) -> TextInputTraits {
        var t = TextInputTraits()
        t.autocapitalization = try optionalEnum(Autocapitalization.self)
        t.autocorrection = try optionalBool()
        t.spellChecking = try optionalBool()
        t.smartDashes = try optionalBool()
        t.smartQuotes = try optionalBool()
        t.smartInsertDelete = try optionalBool()
        t.keyboard = try optionalEnum(KeyboardType.self)
        t.keyboardAppearance = try optionalEnum(KeyboardAppearance.self)
        t.returnKey = try optionalEnum(ReturnKey.self)
        t.clearButton = try optionalEnum(ClearButtonMode.self)
        t.secureEntry = try optionalBool()
        t.contentType = try optionalString()
        t.dataDetectors = try array { (r) throws(WireError) in try r.rawEnum(DataDetector.self) }
        t.selectable = try optionalBool()
        t.dateMode = try optionalEnum(DatePickerMode.self)
        t.minimumField = try optionalString()
        t.maximumField = try optionalString()
        return t
    }

    mutating func cellType(packID: String, packPath: String, packABI: ABIVersion) throws(WireError) -> CellType {
        let id = try string()
        let name = try string()
        let summary = try optionalString()
        let fields = try array { (r) throws(WireError) in try r.field() }
        let kind = try rawEnum(TextInputKind.self)
        let textField = try optionalString()
        let traits = try traits()
        let capabilities = CellCapabilities(rawValue: try u32())
        let configure: ConfigureStyle
        let at = offset
        switch try u8() {
        case 0: configure = .generic
        case 1: configure = .typed(convention: .byValue, size: try int(), alignment: try int())
        case 2: configure = .typed(convention: .byPointer, size: try int(), alignment: try int())
        default: throw WireError(offset: at)
        }
        let offsets = try array { (r) throws(WireError) in try r.int() }
        let roles = FieldRoles(
            value: try optionalString(), required: try optionalString(), title: try optionalString(),
            maxLength: try optionalString(), placeholder: try optionalString())
        return CellType(
            id: id, name: name, summary: summary, fields: fields,
            textInput: TextInputConfiguration(kind: kind, field: textField, traits: traits), capabilities: capabilities,
            configure: configure, modelOffsets: offsets, roles: roles, packID: packID, packPath: packPath, packABI: packABI)
    }

    mutating func pack() throws(WireError) -> Pack {
        let path = try string()
        let id = try string()
        let name = try string()
        let version = try string()
        let vendor = try optionalString()
        let license = try optionalString()
        let description = try optionalString()
        let abi = try abi()
        let cells = try array { (r) throws(WireError) in try r.cellType(packID: id, packPath: path, packABI: abi) }
        let sources = try array { (r) throws(WireError) in try r.string() }
        let cacheSeconds = try u32()
        return Pack(
            path: path, id: id, name: name, version: version, vendor: vendor, license: license, description: description, abi: abi,
            cellTypes: cells, choiceSources: sources, choicesCacheSeconds: cacheSeconds)
    }

    mutating func packError() throws(WireError) -> PackError {
        let path = try string()
        let at = offset
        let reason: PackError.Reason
        switch try u8() {
        case 1: reason = .fileNotFound
        case 2: reason = .notARegularFile
        case 3: reason = .unreadable
        case 4: reason = .notELF
        case 5: reason = .openFailed(try string())
        case 6: reason = .missingEntry(otherMajors: try array { (r) throws(WireError) in try r.u32() })
        case 7: reason = .entryReturnedNull
        case 8: reason = .mangledEntry
        case 9: reason = .incompatibleABI(pack: try abi(), host: try abi())
        case 10: reason = .invalidDescriptor(try string())
        case 11:
            let status = try i64()
            guard let status32 = Int32(exactly: status) else { throw WireError(offset: at) }
            reason = .initFailed(status: status32, log: try optionalString())
        case 12: reason = .untrusted(try string())
        case 13: reason = .quarantined(try string())
        case 14: reason = .notScanned(try string())
        default: throw WireError(offset: at)
        }
        return PackError(path: path, reason: reason)
    }
}

// MARK: cell requests and responses

// The views are written by `CanvasWireRecorder`, in the cell host, as a pack draws them; the tests keep the
// encoder of `ViewNode`s it must match (FormworkHostTests/Isolation/WireNodeEncoding.swift).

extension WireReader {
    mutating func control() throws(WireError) -> Control {
        let field = try optionalString()
        let id = try string()
        let label = try optionalString()
        let flags = try u8()
        return Control(field: field, id: id, label: label, disabled: flags & 1 != 0, required: flags & 2 != 0, multiline: flags & 4 != 0)
    }

    mutating func choices() throws(WireError) -> [Choice] {
        guard let recent = recentChoices else { return try choiceList() }
        if let same = recent.match(bytes, at: offset, end: end) {
            offset += recent.lists[same].bytes.count
            return recent.lists[same].choices
        }
        let start = offset
        let list = try choiceList()
        recent.keep(Array(bytes[start..<offset]), list)
        return list
    }

    private mutating func choiceList() throws(WireError) -> [Choice] {
        try array { (r) throws(WireError) in Choice(value: try r.string(), label: try r.string()) }
    }

    mutating func abiEnum<E: ABIEnum>(_: E.Type) throws(WireError) -> E {
        let at = offset
        guard let e = E(abiValue: try u32()) else { throw WireError(offset: at) }
        return e
    }

    mutating func node(depth: Int = 0) throws(WireError) -> ViewNode {
        let at = offset
        // The canvas recorder bounds nesting far below this; a deeper message is corrupt.
        guard depth < 256 else { throw WireError(offset: at) }
        switch try u8() {
        case 1:
            let role = try string()
            let title = try optionalString()
            return .group(role: role, title: title, children: try array { (r) throws(WireError) in try r.node(depth: depth + 1) })
        case 2: return .label(text: try string(), style: try abiEnum(LabelStyle.self))
        case 3: return .value(label: try string(), text: try string())
        case 4: return .textInput(try control(), text: try optionalString(), placeholder: try optionalString())
        case 5: return .toggle(try control(), isOn: try bool())
        case 6: return .button(try control(), role: try abiEnum(ButtonRole.self))
        case 7:
            return .choice(try control(), choices: try choices(), selected: try optionalString(), style: try abiEnum(ChoiceStyle.self))
        case 8: return .date(try control(), seconds: try optionalF64(), mode: try abiEnum(DatePickerMode.self))
        case 9: return .message(kind: try abiEnum(MessageKind.self), text: try string())
        case 10:
            return .number(
                try control(), value: try optionalF64(), minimum: try optionalF64(), maximum: try optionalF64(), step: try optionalF64(),
                style: try abiEnum(NumberStyle.self))
        case 11:
            return .multiChoice(try control(), choices: try choices(), selected: try strings(), style: try abiEnum(MultiChoiceStyle.self))
        default: throw WireError(offset: at)
        }
    }
}
