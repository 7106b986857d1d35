/// An ordered JSON value, as read from documents and written by every `--json` output.
/// Object keys keep their order so output is stable and diff-friendly.
package enum JSON: Sendable, Equatable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSON])
    case object([(String, JSON)])

    package static func == (a: JSON, b: JSON) -> Bool {
        switch (a, b) {
        case (.null, .null): true
        case (.bool(let x), .bool(let y)): x == y
        case (.integer(let x), .integer(let y)): x == y
        case (.number(let x), .number(let y)): x == y
        case (.string(let x), .string(let y)): x == y
        case (.array(let x), .array(let y)): x == y
        case (.object(let x), .object(let y)): x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    package subscript(key: String) -> JSON? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    /// Serializes with two-space indentation (`pretty`) or compactly; always ends without a newline.
    package func serialized(pretty: Bool = true) -> String {
        var out = JSONBytes()
        write(to: &out, indent: pretty ? 0 : nil)
        return out.string
    }

    /// This object as pretty JSON text with a final newline and one more member at its end: `key`, a list
    /// of `count` items, each written by `item` (its text at the indent of an item of that list: two levels
    /// in) and handed over one at a time (a window of items at a time, on several cores when `parallel`),
    /// then the end — never the whole text at once. The bytes are those of `serialized()` of the whole.
    ///
    /// With `continues`, an item may come in several pieces: `continues(k)` says that the `k`th piece goes on
    /// with the item before (no separator before it).
    func writeLine(
        appending key: String, count: Int, parallel: Bool, perThread: Int = 4, continues: ((Int) -> Bool)? = nil,
        item: (Int) -> JSONBytes, to sink: (UnsafeRawBufferPointer) -> Void
    ) {
        var out = JSONBytes(capacity: 1 << 16)
        guard case .object(let members) = self else {
            out.append(serialized() + "\n")
            out.flush(to: sink)
            return
        }
        out.byte(0x7B)
        for i in 0..<members.count {
            if i > 0 { out.byte(0x2C) }
            out.newline(1)
            JSON.writeString(members[i].0, to: &out)
            out.append(": ")
            members[i].1.write(to: &out, indent: 1)
        }
        if !members.isEmpty { out.byte(0x2C) }
        out.newline(1)
        JSON.writeString(key, to: &out)
        out.append(": ")
        if count == 0 {
            out.append("[]")
        } else {
            out.byte(0x5B)
            Parallel.stream(count, worthIt: parallel, perThread: perThread, item) { k, piece in
                if continues?(k) != true {
                    if k > 0 { out.byte(0x2C) }
                    out.newline(2)
                }
                out.flush(to: sink)
                piece.write(to: sink)
            }
            out.newline(1)
            out.byte(0x5D)
        }
        out.newline(0)
        out.byte(0x7D)
        out.byte(0x0A)
        out.flush(to: sink)
    }

    /// Written as UTF-8 bytes into one buffer: appending a string's bytes is a copy, where appending
    /// small strings to a large `String` re-checks it every time.
    func write(to out: inout JSONBytes, indent: Int?) {
        switch self {
        case .null: out.append("null")
        case .bool(let b): out.append(b ? "true" : "false")
        case .integer(let i): out.append(String(i))
        case .number(let d):
            if !d.isFinite { out.append("null") } else { out.append(NumberText.format(d)) }
        case .string(let s): JSON.writeString(s, to: &out)
        case .array(let items):
            if items.isEmpty {
                out.append("[]")
                return
            }
            out.byte(0x5B)
            for i in items.indices {
                if i > 0 { out.byte(0x2C) }
                if let indent { out.newline(indent + 1) }
                items[i].write(to: &out, indent: indent.map { $0 + 1 })
            }
            if let indent { out.newline(indent) }
            out.byte(0x5D)
        case .object(let members):
            if members.isEmpty {
                out.append("{}")
                return
            }
            out.byte(0x7B)
            for i in members.indices {
                if i > 0 { out.byte(0x2C) }
                if let indent { out.newline(indent + 1) }
                JSON.writeString(members[i].0, to: &out)
                if indent == nil { out.byte(0x3A) } else { out.append(": ") }
                members[i].1.write(to: &out, indent: indent.map { $0 + 1 })
            }
            if let indent { out.newline(indent) }
            out.byte(0x7D)
        }
    }

    static func writeString(_ s: String, to out: inout JSONBytes) {
        // Most strings need no escape: appended whole between quotes (0xE2 may start U+2028/U+2029, 0xC2 a C1 control).
        UTF8Bytes.with(s) { bytes in
            if UTF8Bytes.mayNeedJSONEscape(bytes) { writeEscaped(bytes, to: &out) } else { out.quoted(bytes) }
        }
    }

    /// `bytes` (valid UTF-8) between quotes, with `"`, the backslash, line feed, carriage return and tab
    /// escaped as `\"`, `\\`, `\n`, `\r` and `\t`, U+2028 and U+2029 as `\u2028` and `\u2029`, and every other
    /// control — C0, DEL and the C1 controls — as `\u00xx`: JSON printed to a terminal carries none of them.
    /// Read a byte at a time, the runs between escapes copied whole (a text with a star or a euro sign in it,
    /// whose lead byte `mayNeedJSONEscape` stops at, was written a Unicode scalar at a time, a string made for each).
    static func writeEscaped(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout JSONBytes) {
        out.byte(0x22)
        let n = bytes.count
        var run = 0, i = 0
        func flush(to end: Int) {
            if end > run { out.append(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[run..<end]))) }
        }
        while i < n {
            let b = bytes[i]
            let escape: StaticString?, control: UInt8?, width: Int
            switch b {
            case 0x22: (escape, control, width) = ("\\\"", nil, 1)
            case 0x5C: (escape, control, width) = ("\\\\", nil, 1)
            case 0x0A: (escape, control, width) = ("\\n", nil, 1)
            case 0x0D: (escape, control, width) = ("\\r", nil, 1)
            case 0x09: (escape, control, width) = ("\\t", nil, 1)
            case 0x00..<0x20, 0x7F: (escape, control, width) = (nil, b, 1)
            case 0xC2 where i + 1 < n && bytes[i + 1] >= 0x80 && bytes[i + 1] <= 0x9F: (escape, control, width) = (nil, bytes[i + 1], 2)
            case 0xE2 where i + 2 < n && bytes[i + 1] == 0x80 && (bytes[i + 2] == 0xA8 || bytes[i + 2] == 0xA9):
                (escape, control, width) = (bytes[i + 2] == 0xA8 ? "\\u2028" : "\\u2029", nil, 3)
            default:
                i += 1
                continue
            }
            flush(to: i)
            if let escape {
                out.append(escape)
            } else if let control {
                let hex: StaticString = "0123456789abcdef"
                out.append("\\u00")
                out.byte(hex.utf8Start[Int(control >> 4)])
                out.byte(hex.utf8Start[Int(control & 0xF)])
            }
            i += width
            run = i
        }
        flush(to: n)
        out.byte(0x22)
    }
}

/// The output buffer of JSON serialisation: UTF-8 bytes, turned into a `String` once.
///
/// A handle on a `ByteBuffer`: a copy writes to the same bytes (a writer makes its own with `init`).
struct JSONBytes {
    private let bytes: ByteBuffer

    init(capacity: Int = 1 << 12) { bytes = ByteBuffer(capacity: capacity) }

    /// Bytes written into `buffer`, emptied first (a writer that reuses its memory).
    init(reusing buffer: ByteBuffer) {
        buffer.removeAll()
        bytes = buffer
    }

    @inline(__always)
    mutating func byte(_ b: UInt8) { bytes.byte(b) }

    mutating func append(_ s: String) { bytes.append(s) }

    @inline(__always)
    mutating func append(_ s: StaticString) { bytes.append(s) }

    mutating func append(_ other: JSONBytes) { bytes.append(other.bytes) }

    var count: Int { bytes.count }

    /// A line feed and `level` indents of two spaces.
    @inline(__always)
    mutating func newline(_ level: Int) {
        bytes.byte(0x0A)
        bytes.append(repeating: 0x20, count: 2 * level)
    }

    /// What starts a member or an item: `,` unless it is the first, then (when pretty) a line feed and `level`
    /// indents, then for a member `"key": ` (`"key":` when compact). One capacity check for all of it: written
    /// piece by piece it was eight calls, for each of the 150,000 members of a 10k-field view tree.
    @inline(__always)
    mutating func start(first: Bool, level: Int, key: StaticString?, pretty: Bool) {
        assert(key?.withUTF8Buffer { !UTF8Bytes.mayNeedJSONEscape($0) } ?? true, "a key that needs escaping")
        let indent = pretty ? 2 * level : 0
        let keyCount = key?.utf8CodeUnitCount ?? 0
        let n = (first ? 0 : 1) + (pretty ? 1 + indent : 0) + (key == nil ? 0 : keyCount + (pretty ? 4 : 3))
        bytes.write(n) { p in
            var i = 0
            if !first {
                p[0] = 0x2C
                i = 1
            }
            if pretty {
                p[i] = 0x0A
                (p + i + 1).update(repeating: 0x20, count: indent)
                i += 1 + indent
            }
            if let key {
                p[i] = 0x22
                (p + i + 1).update(from: key.utf8Start, count: keyCount)
                i += 1 + keyCount
                p[i] = 0x22
                p[i + 1] = 0x3A
                if pretty { p[i + 2] = 0x20 }
            }
        }
    }

    /// Text of Formwork's own, as it is (`true`, `null`, …).
    @inline(__always)
    mutating func raw(_ text: StaticString) { bytes.append(text) }

    /// `"`, the bytes, `"`.
    @inline(__always)
    mutating func quoted(_ text: UnsafeBufferPointer<UInt8>) {
        bytes.byte(0x22)
        bytes.append(text)
        bytes.byte(0x22)
    }

    var string: String { bytes.string }

    /// Hands the bytes to `sink` and empties the buffer (keeping its capacity).
    mutating func flush(to sink: (UnsafeRawBufferPointer) -> Void) {
        guard !bytes.isEmpty else { return }
        bytes.withUnsafeBytes { sink($0) }
        bytes.removeAll()
    }

    /// Hands the bytes to `sink`, keeping them.
    func write(to sink: (UnsafeRawBufferPointer) -> Void) { bytes.withUnsafeBytes { sink($0) } }

    mutating func append(_ raw: UnsafeRawBufferPointer) { bytes.append(raw) }
}

extension JSON {
    /// Builds an object, leaving out nil members.
    package static func object(_ members: [(String, JSON?)]) -> JSON {
        .object(members.compactMap { key, value in value.map { (key, $0) } })
    }

    package static func optional(_ s: String?) -> JSON { s.map(JSON.string) ?? .null }
}

/// JSON text written as it is made, laid out as `JSON.serialized(pretty:)` lays it out (two-space
/// indents, or compact), so that a large document is written without first building its `JSON`
/// values (an array of members per object, a box per value). Members whose value is nil are left
/// out, as `JSON.object(_:)` leaves them out.
struct JSONTextWriter {
    var out: JSONBytes
    let pretty: Bool
    /// The indent of the container being written.
    private var depth: Int
    /// Members or items written so far in the innermost open container.
    private var written = 0

    init(capacity: Int = 1 << 12, pretty: Bool = true, depth: Int = 0) {
        out = JSONBytes(capacity: capacity)
        self.pretty = pretty
        self.depth = depth
    }

    /// A writer into `buffer`, emptied first.
    init(reusing buffer: ByteBuffer, pretty: Bool = true, depth: Int = 0) {
        out = JSONBytes(reusing: buffer)
        self.pretty = pretty
        self.depth = depth
    }

    /// `{ … }`: `body` writes the members.
    mutating func object(_ body: (inout JSONTextWriter) -> Void) { container(0x7B, 0x7D, body) }

    /// `[ … ]`: `body` writes the items with `item`.
    mutating func array(_ body: (inout JSONTextWriter) -> Void) { container(0x5B, 0x5D, body) }

    private mutating func container(_ open: UInt8, _ close: UInt8, _ body: (inout JSONTextWriter) -> Void) {
        out.byte(open)
        let outer = written
        written = 0
        body(&self)
        if written > 0 && pretty { out.newline(depth) }
        written = outer
        out.byte(close)
    }

    /// One item of the array being written.
    mutating func item(_ value: (inout JSONTextWriter) -> Void) {
        out.start(first: written == 0, level: depth + 1, key: nil, pretty: pretty)
        written += 1
        nested(value)
    }

    /// One member of the object being written.
    /// Keys are Formwork's own (static text that needs no escape): written as they are, with the colon.
    mutating func member(_ key: StaticString, _ value: (inout JSONTextWriter) -> Void) {
        out.start(first: written == 0, level: depth + 1, key: key, pretty: pretty)
        written += 1
        nested(value)
    }

    /// Goes on with an array whose first `count` items were written elsewhere (a piece of a split array):
    /// the next `item` is preceded by its separator. The writer's depth is the array's.
    mutating func resume(afterItems count: Int) { written = count }

    private mutating func nested(_ value: (inout JSONTextWriter) -> Void) {
        depth += 1
        value(&self)
        depth -= 1
    }

    mutating func member(_ key: StaticString, _ string: String?) {
        if let string { member(key) { JSON.writeString(string, to: &$0.out) } }
    }
    mutating func member(_ key: StaticString, bool: Bool?) {
        if let bool { member(key) { $0.out.raw(bool ? "true" : "false") } }
    }
    mutating func member(_ key: StaticString, integer: Int64?) {
        if let integer { member(key) { $0.out.append(String(integer)) } }
    }
    mutating func member(_ key: StaticString, number: Double?) {
        if let number { member(key, json: .number(number)) }
    }
    mutating func member(_ key: StaticString, json: JSON?) {
        if let json { member(key) { $0.value(json) } }
    }
    /// A value made as `JSON` (small parts: traits, rules), at the current indent.
    mutating func value(_ json: JSON) { json.write(to: &out, indent: pretty ? depth : nil) }
    mutating func string(_ s: String) { JSON.writeString(s, to: &out) }
}
