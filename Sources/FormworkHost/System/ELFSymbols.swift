import FormworkCore
import Glibc

/// Reads the exported (defined, global or weak, default-visibility) symbols of an
/// ELF64 little-endian shared library from its `.dynsym` section.
enum ELFSymbols {
    struct ReadError: Error, CustomStringConvertible {
        var description: String
    }

    static func exported(path: String) throws(ReadError) -> [String] {
        let bytes: [UInt8]
        do { bytes = try FileBytes.read(path, limit: Int.max) } catch {
            throw ReadError(description: "cannot read the file: \(error.reason)")
        }
        return try exported(bytes)
    }

    static func exported(_ b: [UInt8]) throws(ReadError) -> [String] {
        func u16(_ o: Int) throws(ReadError) -> Int {
            guard o >= 0, o <= b.count - 2 else { throw ReadError(description: "truncated ELF file") }
            return Int(b[o]) | Int(b[o + 1]) << 8
        }
        func u32(_ o: Int) throws(ReadError) -> Int {
            let low = try u16(o), high = try u16(o + 2)
            return low | high << 16
        }
        func u64(_ o: Int) throws(ReadError) -> Int {
            let low = try u32(o), high = try u32(o + 4)
            return low | high << 32
        }

        guard b.count >= 64, b[0] == 0x7F, b[1] == 0x45, b[2] == 0x4C, b[3] == 0x46 else { throw ReadError(description: "not an ELF file") }
        guard b[4] == 2, b[5] == 1 else { throw ReadError(description: "not a 64-bit little-endian ELF file") }
        let sectionOffset = try u64(0x28)
        let sectionSize = try u16(0x3A)
        let sectionCount = try u16(0x3C)
        guard sectionSize >= 64, sectionCount < 65_536 else { throw ReadError(description: "bad section header table") }
        struct Section { var type: Int; var offset: Int; var size: Int; var link: Int; var entrySize: Int }
        var sections: [Section] = []
        for i in 0..<sectionCount {
            let o = sectionOffset &+ i &* sectionSize  // wrapping: a hostile offset fails the bounds check, never traps
            sections.append(
                Section(
                    type: try u32(o + 4), offset: try u64(o + 0x18), size: try u64(o + 0x20),
                    link: try u32(o + 0x28), entrySize: try u64(o + 0x38)))
        }
        guard let dynsym = sections.first(where: { $0.type == 11 }), dynsym.link < sections.count, dynsym.entrySize >= 24 else {
            return []
        }
        let strtab = sections[dynsym.link]
        var names: [String] = []
        // At most as many entries as the file can hold: a hostile size cannot make this loop long.
        for i in 0..<min(dynsym.size / dynsym.entrySize, b.count / 24) {
            let o = dynsym.offset &+ i &* dynsym.entrySize
            let nameOffset = try u32(o)
            guard o >= 0, o <= b.count - 6 else { throw ReadError(description: "truncated symbol table") }
            let info = Int(b[o + 4]), other = Int(b[o + 5])
            let sectionIndex = try u16(o + 6)
            let binding = info >> 4, visibility = other & 3
            guard sectionIndex != 0, binding == 1 || binding == 2, visibility == 0 || visibility == 3 else { continue }
            var end = strtab.offset &+ nameOffset
            guard end >= 0, end < b.count else { continue }
            let start = end
            while end < b.count, b[end] != 0 { end += 1 }
            if end > start { names.append(String(decoding: b[start..<end], as: UTF8.self)) }
        }
        return names.sorted()
    }
}
