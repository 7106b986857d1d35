import Foundation
import Testing

@testable import FormworkCore
import FormworkTestSupport

/// FormworkCore does its own dates, whitespace and file reads (no Foundation in the command).
@Suite("Dates, blanks and file reads without Foundation")
struct FoundationFreeTests {
    @Test("ISO 8601 dates use the proleptic Gregorian calendar across the whole range")
    func dates() throws {
        #expect(DateFormat.parse("1970-01-01") == 0)
        #expect(DateFormat.parse("0001-01-01") == DateFormat.earliest)
        #expect(DateFormat.parse("9999-12-31T23:59:59Z") == DateFormat.latest)
        #expect(DateFormat.iso8601(DateFormat.earliest) == "0001-01-01")
        #expect(DateFormat.iso8601(DateFormat.latest) == "9999-12-31T23:59:59Z")
        // Before the Gregorian reform the calendar is still Gregorian (ISO 8601), not Julian.
        #expect(DateFormat.iso8601(try #require(DateFormat.parse("1582-10-10"))) == "1582-10-10")
        #expect(DateFormat.parse("1582-10-15")! - DateFormat.parse("1582-10-14")! == 86_400)
        #expect(DateFormat.parse("2000-02-29") != nil)
        #expect(DateFormat.parse("1900-02-29") == nil)
        #expect(DateFormat.parse("2026-04-31") == nil)
        #expect(DateFormat.parse("0000-01-01") == nil)
        #expect(DateFormat.parse("2026-11-22T10:15+02:00") == DateFormat.parse("2026-11-22T08:15Z"))
        #expect(DateFormat.iso8601(DateFormat.parse("1969-12-31T23:59:30Z")!) == "1969-12-31T23:59:30Z")
        #expect(DateFormat.iso8601(1.5) == "1970-01-01T00:00:01Z")
        #expect(DateFormat.iso8601(1e300) == "1e+300")
        // Every day of four centuries round-trips through the text.
        var day = DateFormat.parse("1600-01-01")!
        for _ in 0..<(146_097) {
            let text = DateFormat.iso8601(day)
            #expect(DateFormat.parse(text) == day, "\(text)")
            day += 86_400
        }
    }

    @Test("blanks trimmed as Foundation's whitespaces were: spaces, tabs and no-break spaces, not newlines")
    func blanks() {
        #expect("  a b\t".trimmingBlanks() == "a b")
        #expect("\u{A0}\u{3000}x\u{2009}".trimmingBlanks() == "x")
        #expect("\nx\n".trimmingBlanks() == "\nx\n")
        #expect(" \t ".trimmingBlanks() == "")
        #expect("e\u{301} ".trimmingBlanks() == "e\u{301}")
    }

    @Test("files are read whole, limits enforced, errors named by errno")
    func fileReads() throws {
        let path = Scratch.directory + "/bytes-\(UUID().uuidString)"
        let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        #expect(try FileBytes.read(path, limit: 1 << 20) == bytes)
        #expect(throws: FileBytes.Failure.self) { try FileBytes.read(path, limit: 1000) }
        #expect(throws: FileBytes.Failure.self) { try FileBytes.read(path + "-missing", limit: 1000) }
        do {
            _ = try FileBytes.read(path + "-missing", limit: 1000)
        } catch {
            #expect(error.reason == "No such file or directory")
        }
        // Not a regular file: a pipe of unknown size, read to its end in growing steps.
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let (readEnd, writeEnd) = (fds[0], fds[1])
        let writer = Thread {
            bytes.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    let n = write(writeEnd, buffer.baseAddress! + offset, buffer.count - offset)
                    if n <= 0 { break }
                    offset += n
                }
            }
            close(writeEnd)
        }
        writer.start()
        #expect(try FileBytes.read(fd: readEnd, limit: 1 << 20) == bytes)
        close(readEnd)
        // An empty file.
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        #expect(try FileBytes.read(path, limit: 10) == [])
    }
}

@Suite("UTF-8 validation")
struct UTF8ValidationTests {
    @Test("accepts and refuses exactly what String(validating:) does, on edge cases and random bytes")
    func agreesWithTheStandardLibrary() {
        func check(_ bytes: [UInt8]) {
            let ours = bytes.withUnsafeBufferPointer { UTF8Validation.isValid($0) }
            #expect(ours == (String(validating: bytes, as: UTF8.self) != nil), "\(bytes)")
        }
        let edges: [[UInt8]] = [
            [], [0x41], [0xC2, 0x80], [0xC1, 0xBF], [0xC0, 0x80], [0xE0, 0xA0, 0x80], [0xE0, 0x9F, 0xBF], [0xED, 0x9F, 0xBF],
            [0xED, 0xA0, 0x80], [0xEF, 0xBF, 0xBF], [0xF0, 0x90, 0x80, 0x80], [0xF0, 0x8F, 0xBF, 0xBF], [0xF4, 0x8F, 0xBF, 0xBF],
            [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xFF], [0x80], [0xE2, 0x82], [0xF0, 0x9F, 0x98],
            Array("0123456789abcdef‹ok›".utf8), Array("01234567".utf8) + [0xC3], Array("0123456".utf8) + [0xC3, 0xA9],
        ]
        for bytes in edges { check(bytes) }
        var rng = SystemRandomNumberGenerator()
        let alphabet: [UInt8] = [0x41, 0x7F, 0x80, 0xBF, 0xC2, 0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0x9F, 0xA0, 0x90, 0x8F]
        for _ in 0..<20_000 {
            let length = Int.random(in: 0...24, using: &rng)
            check(
                (0..<length).map { _ in
                    Bool.random(using: &rng) ? alphabet.randomElement(using: &rng)! : UInt8.random(in: 0...255, using: &rng)
                })
        }
    }
}
