import Testing

@testable import FormworkCore

/// The writers' output buffer: appends of every kind, across many growths from the smallest capacity, give
/// the bytes an array would hold; emptying keeps working; the JSON and HTML writers built on it write what
/// they wrote before.
@Suite("Byte buffer")
struct ByteBufferTests {
    @Test("appends of every kind, growing from the smallest capacity, give the same bytes as an array")
    func appendsMatchAnArray() {
        let buffer = ByteBuffer(capacity: 1)
        var expected: [UInt8] = []
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: seed >> 33)
        }
        for step in 0..<5000 {
            switch next() % 5 {
            case 0:
                let b = UInt8(truncatingIfNeeded: step)
                buffer.byte(b)
                expected.append(b)
            case 1:
                let text = String(repeating: "é", count: next() % 40)
                buffer.append(text)
                expected += Array(text.utf8)
            case 2:
                buffer.append("<static text>")
                expected += Array("<static text>".utf8)
            case 3:
                let n = next() % 300
                buffer.append(repeating: 0x20, count: n)
                expected += [UInt8](repeating: 0x20, count: n)
            default:
                let bytes = (0..<(next() % 50)).map { UInt8(truncatingIfNeeded: $0 &* 7) }
                bytes.withUnsafeBufferPointer { buffer.append($0) }
                expected += bytes
            }
            #expect(buffer.count == expected.count)
        }
        buffer.withUnsafeBytes { #expect(Array($0) == expected) }
        #expect(buffer.string == String(decoding: expected, as: UTF8.self))
    }

    @Test("empty appends change nothing; emptying keeps the buffer usable")
    func emptyAndRemoveAll() {
        let buffer = ByteBuffer(capacity: 4)
        buffer.append("")
        buffer.append(repeating: 0x41, count: 0)
        buffer.append(UnsafeBufferPointer<UInt8>(start: nil, count: 0))
        #expect(buffer.isEmpty)
        buffer.append("abcdefghijklmnopqrstuvwxyz")
        buffer.removeAll()
        #expect(buffer.isEmpty)
        buffer.append("xyz")
        let other = ByteBuffer()
        other.append("123")
        buffer.append(other)
        #expect(buffer.string == "xyz123")
    }

    @Test("the JSON writer on it writes what JSON.serialized writes, through every growth")
    func jsonWriterMatchesSerialized() {
        let value = JSON.object([
            ("id", .string("form \"quoted\" \u{1}\n")),
            ("items", .array((0..<200).map { .object([("n", .integer(Int64($0))), ("s", .string(String(repeating: "x", count: $0)))]) })),
            ("nested", .object([("deep", .array([.array([.bool(true), .null, .number(1.5)])]))])),
        ])
        var out = JSONBytes(capacity: 1)
        value.write(to: &out, indent: 0)
        #expect(out.string == value.serialized())
        var compact = JSONBytes(capacity: 1)
        value.write(to: &compact, indent: nil)
        #expect(compact.string == value.serialized(pretty: false))
        #expect(value.serialized().contains("\n      \"s\": \"xx\""))
    }

    @Test("the streaming writer's members and items (separator, indent and key in one write) match JSON.serialized, pretty and compact")
    func textWriterMatchesSerialized() {
        let value = JSON.object([
            ("id", .string("a")), ("empty", .array([])), ("none", .object([])),
            ("items", .array((0..<40).map { .object([("n", .integer(Int64($0))), ("s", .string(String(repeating: "é", count: $0)))]) })),
        ])
        for pretty in [true, false] {
            var w = JSONTextWriter(capacity: 1, pretty: pretty)
            w.object { w in
                w.member("id", "a")
                w.member("empty") { w in w.array { _ in } }
                w.member("none") { w in w.object { _ in } }
                w.member("items") { w in
                    w.array { w in
                        for n in 0..<40 {
                            w.item { w in
                                w.object { w in
                                    w.member("n", integer: Int64(n))
                                    w.member("s", String(repeating: "é", count: n))
                                }
                            }
                        }
                    }
                }
            }
            #expect(w.out.string == value.serialized(pretty: pretty), "pretty: \(pretty)")
        }
    }
}
