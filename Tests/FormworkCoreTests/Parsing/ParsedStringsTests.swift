import Testing

@testable import FormworkCore

/// The JSON parser keeps the strings it made (short ones inline, long ones up to 64 bytes by a hash of their
/// ends): a string found there must be the one with the same bytes, never another that shares its hash.
@Suite("Parsed strings kept and reused")
struct ParsedStringsTests {
    /// Every string value of a parsed array, in order.
    func strings(_ json: String) throws -> [String] {
        let node = try JSONParser.parse(json)
        guard case .array(let items) = node.kind else { throw ParseError(line: 1, message: "not an array") }
        return items.map { $0.string ?? "<not a string>" }
    }

    @Test("long strings with the same first and last eight bytes and length are told apart")
    func sameEndsDiffer() throws {
        // Same head, tail and length: the same slot, so only comparing them whole tells them apart.
        let values = [
            "org.formwork.text-field", "org.formwork.text-field", "aaaaaaaa-X-bbbbbbbb", "aaaaaaaa-Y-bbbbbbbb",
            "aaaaaaaa-X-bbbbbbbb", "aaaaaaaa-Y-bbbbbbbb", "org.formwork.picker", "org.formwork.toggle",
        ]
        let json = "[" + values.map { "\"\($0)\"" }.joined(separator: ",") + "]"
        #expect(try strings(json) == values)
    }

    @Test("strings of every length from 0 to 80 bytes, ASCII and not, repeated and not, come back as written")
    func everyLength() throws {
        var values: [String] = []
        for n in 0...80 {
            let ascii = String((0..<n).map { Character(UnicodeScalar(UInt8(97 + ($0 * 7 + n) % 26))) })
            values.append(ascii)
            values.append(ascii)  // the kept one
            // Two-byte characters: the string is n bytes long for even n.
            values.append(String(repeating: "é", count: n / 2))
            values.append(String(repeating: "é", count: n / 2) + "x")
            values.append(ascii)
        }
        let json = "[" + values.map { "\"\($0)\"" }.joined(separator: ",") + "]"
        #expect(try strings(json) == values)
    }

    @Test("a kept long string is the same storage the second time")
    func keptIsShared() throws {
        let parsed = try strings(#"["org.formwork.text-field", "org.formwork.text-field"]"#)
        let first = parsed[0].utf8.withContiguousStorageIfAvailable { $0.baseAddress }
        let second = parsed[1].utf8.withContiguousStorageIfAvailable { $0.baseAddress }
        #expect(first != nil && first == second)
    }
}
