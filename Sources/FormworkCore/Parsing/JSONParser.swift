/// A strict JSON parser (RFC 8259) that records line numbers and bounds nesting.
struct JSONParser {
    /// The document's UTF-8, borrowed from its `String` for the parse (no copy of the whole text).
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var line = 1
    /// Keys and indices from the root to the value being read, for the pointers of errors
    /// (an index is kept as a number: no string is made for it unless an error is reported).
    private enum Step {
        case key(String)
        case index(Int)
    }
    private var path: [Step] = []
    /// The members and items of the composites still open (see `ScratchStack`), and the short strings made so far.
    private let memberStack: ScratchStack<(key: String, value: SourceNode)>
    private let itemStack: ScratchStack<SourceNode>
    private let strings: ShortStrings

    /// What parsers on one thread share, one after another: their stacks and the short strings they made. A parser
    /// of one field at a time made two stacks (four allocations) per field, and every key of every field again.
    final class Workspace {
        fileprivate let members = ScratchStack<(key: String, value: SourceNode)>()
        fileprivate let items = ScratchStack<SourceNode>()
        fileprivate let strings = ShortStrings()
        init() {}
    }

    /// Strings of at most 15 bytes (a Swift string holds them inline, with no storage to count references to)
    /// already made, by their bytes: a document repeats its keys, and many of its values, on every field. Made
    /// again, each would be a validation and a copy.
    ///
    /// Longer strings, up to 64 bytes, are kept too, fewer of them: a cell id (`org.formwork.text-field`) is
    /// repeated by every field of its type, and made again each was an allocation, a validation and a copy, and
    /// a free when the parsed nodes went.
    final class ShortStrings {
        private static let slots = 256
        /// Each slot's bytes as two words, the length in the top byte of the second; `unused` in the second: the
        /// slot's string was never made (no string of at most 15 bytes has that length byte).
        private let words = UnsafeMutablePointer<UInt64>.allocate(capacity: 2 * ShortStrings.slots)
        private let made = UnsafeMutablePointer<String>.allocate(capacity: ShortStrings.slots)
        private static let longSlots = 64
        /// Each long slot's hash (0: empty, its string never made) and string.
        private let longHashes = UnsafeMutablePointer<UInt64>.allocate(capacity: ShortStrings.longSlots)
        private let longMade = UnsafeMutablePointer<String>.allocate(capacity: ShortStrings.longSlots)

        /// The second word of a slot whose string was never made.
        private static let unused = UInt64.max

        // The strings are made in a slot when it is first written, not all at the start: a parser of a small document
        // (a submission's body) made and destroyed 320 empty strings, more than the rest of its parse.
        init() {
            for slot in 0..<Self.slots {
                words[2 * slot] = 0
                words[2 * slot + 1] = Self.unused
            }
            longHashes.initialize(repeating: 0, count: Self.longSlots)
        }

        deinit {
            for slot in 0..<Self.slots where words[2 * slot + 1] != Self.unused { (made + slot).deinitialize(count: 1) }
            made.deallocate()
            words.deallocate()
            for slot in 0..<Self.longSlots where longHashes[slot] != 0 { (longMade + slot).deinitialize(count: 1) }
            longMade.deallocate()
            longHashes.deallocate()
        }

        /// Whether `long` strings (16 to 64 bytes) are looked up here.
        static func keepsLong(_ count: Int) -> Bool { count >= 16 && count <= 64 }

        /// The string of the `count` bytes at `start` (16 to 64, valid UTF-8): the one made before when it had
        /// the same bytes. Found by a hash of its first and last eight bytes and its length, then compared whole.
        func long(_ start: UnsafePointer<UInt8>, count: Int) -> String {
            let raw = UnsafeRawPointer(start)
            let head = raw.loadUnaligned(as: UInt64.self), tail = raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            let hash = ((head &* 0x9E37_79B9_7F4A_7C15) ^ (tail &* 0xC2B2_AE3D_27D4_EB4F) ^ UInt64(count)) | 1
            let slot = Int(truncatingIfNeeded: hash >> 58)
            if longHashes[slot] == hash {
                let same =
                    longMade[slot].utf8.withContiguousStorageIfAvailable { kept -> Bool in
                        guard kept.count == count, let base = kept.baseAddress else { return false }
                        for i in 0..<count where base[i] != start[i] { return false }
                        return true
                    } ?? false
                if same { return longMade[slot] }
            }
            let s = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
            if longHashes[slot] == 0 { (longMade + slot).initialize(to: s) } else { longMade[slot] = s }
            longHashes[slot] = hash
            return s
        }

        /// The string of the `count` (at most 15) bytes at `start`, which must be valid UTF-8; `end` is where
        /// the readable bytes end.
        @inline(__always)
        func string(_ start: UnsafePointer<UInt8>, count: Int, end: UnsafePointer<UInt8>) -> String {
            var first: UInt64 = 0, second: UInt64 = 0
            if end - start >= 16 {
                let raw = UnsafeRawPointer(start)
                first = raw.loadUnaligned(as: UInt64.self)
                second = raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
                if count < 8 {
                    first &= (1 << (UInt64(count) * 8)) &- 1
                    second = 0
                } else {
                    second &= (1 << (UInt64(count - 8) * 8)) &- 1
                }
            } else {
                for i in 0..<count {
                    if i < 8 { first |= UInt64(start[i]) << (UInt64(i) * 8) } else { second |= UInt64(start[i]) << (UInt64(i - 8) * 8) }
                }
            }
            second |= UInt64(count) << 56
            let slot = Int(truncatingIfNeeded: ((first &* 0x9E37_79B9_7F4A_7C15) ^ (second &* 0xC2B2_AE3D_27D4_EB4F)) >> 56)
            if words[2 * slot] == first && words[2 * slot + 1] == second { return made[slot] }
            let s = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
            if words[2 * slot + 1] == Self.unused { (made + slot).initialize(to: s) } else { made[slot] = s }
            words[2 * slot] = first
            words[2 * slot + 1] = second
            return s
        }
    }

    static func parse(_ text: String) throws(ParseError) -> SourceNode {
        var text = text
        return try text.withUTF8 { bytes in Result { () throws(ParseError) in try parse(bytes: bytes) } }.get()
    }

    /// Parses UTF-8 that is known to be well formed (`UTF8Validation`), read in place.
    static func parse(bytes: UnsafeBufferPointer<UInt8>) throws(ParseError) -> SourceNode {
        if bytes.count >= parallelThreshold && Parallel.threads > 1, let node = parseSectionsInParallel(bytes) { return node }
        return try parseSequentially(bytes: bytes)
    }

    /// The parse on this thread alone (what `parse` does below the threshold, and after a parallel parse gave up).
    static func parseSequentially(bytes: UnsafeBufferPointer<UInt8>) throws(ParseError) -> SourceNode {
        var parser = JSONParser(bytes: bytes)
        parser.skipSpace()
        let node = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.index == parser.bytes.count else { throw parser.error("unexpected text after the end of the document") }
        return node
    }

    /// Documents from this size up have their sections parsed on several cores.
    static let parallelThreshold = 1 << 20

    /// A large form document's `sections` items parsed on several cores: the document is read once with
    /// each item only skipped over (its bounds and first line noted), then the items are parsed from their
    /// bytes in parallel, each by a parser of its own that starts at the item's line and pointer, so nodes,
    /// lines and messages are those of the sequential parse. A section much larger than its share (a form of
    /// one section of 10,000 fields was parsed on one core), and a document of pages, have their fields shared
    /// out instead (`parseFieldsInParallel`). Nil when anything is not as expected (an error anywhere, another
    /// shape): the caller then parses sequentially and reports exactly as it always does.
    static func parseSectionsInParallel(_ bytes: UnsafeBufferPointer<UInt8>) -> SourceNode? {
        guard let first = sectionsSkipped(bytes) else { return nil }
        guard !first.sections.isEmpty else {
            var whole = JSONParser(bytes: bytes)
            whole.skipSpace()
            return parseFieldsInParallel(whole, depth: 0, end: nil)
        }
        let deferred = first.sections
        guard case .object(var members) = first.root.kind,
            let at = members.firstIndex(where: { $0.key == "sections" }), case .array(var items) = members[at].value.kind
        else { return nil }
        let share = sectionShare(count: bytes.count)
        func isLarge(_ k: Int) -> Bool { deferred[k].end - deferred[k].start > share }
        let parsed = Parallel.map(deferred.count, worthIt: true) { k -> SourceNode? in
            if isLarge(k) { return SourceNode(kind: .null, line: nil) }  // below, a run of its fields at a time
            return section(deferred[k], in: bytes)
        }
        for k in deferred.indices {
            var node = parsed[k]
            if isLarge(k) {
                var p = JSONParser(bytes: bytes)
                p.index = deferred[k].start
                p.line = deferred[k].line
                p.path = [.key("sections"), .index(deferred[k].position)]
                node = parseFieldsInParallel(p, depth: 2, end: deferred[k].end)
            }
            guard let node else { return nil }
            items[deferred[k].position] = node
        }
        members[at].value = SourceNode(kind: .array(items), line: members[at].value.line)
        return SourceNode(kind: .object(members), line: first.root.line)
    }

    /// An item of the root's `sections` list that the first pass skipped: its place in the list, its bytes
    /// and its first line.
    struct SkippedSection {
        let position: Int, start: Int, end: Int, line: Int

        /// The same item with its bytes counted from `base` (the first byte of a part of the document read again).
        func relative(to base: Int) -> SkippedSection {
            SkippedSection(position: position, start: start - base, end: end - base, line: line)
        }
    }

    /// The first pass of a parallel parse: the whole document parsed except the objects of its root's
    /// `sections` list, each skipped over (a null in its place) and noted (none when the root has no such
    /// list); nil when the document does not parse (the caller then parses it whole and reports the error).
    static func sectionsSkipped(_ bytes: UnsafeBufferPointer<UInt8>) -> (root: SourceNode, sections: [SkippedSection])? {
        var parser = JSONParser(bytes: bytes)
        parser.deferSections = true
        parser.skipSpace()
        guard let root = try? parser.value(depth: 0) else { return nil }
        parser.skipSpace()
        guard parser.index == bytes.count else { return nil }
        return (root, parser.deferredSections)
    }

    /// The size past which a section is parsed a run of its fields at a time rather than whole on one core.
    static func sectionShare(count: Int) -> Int { count / (2 * max(1, Parallel.threads)) }

    /// A section the first pass skipped, parsed from its bytes by a parser that starts at its line and pointer
    /// (nodes, lines and messages are those of the sequential parse); nil when it does not parse.
    /// With `flatFields`, the section's fields are read flat and offered to it (`JSONParser.flatFields`).
    static func section(
        _ item: SkippedSection, in bytes: UnsafeBufferPointer<UInt8>, workspace: Workspace = Workspace(), flatFields: FlatFieldSink? = nil
    ) -> SourceNode? {
        var p = JSONParser(bytes: bytes, workspace: workspace)
        p.flatFields = flatFields
        p.index = item.start
        p.line = item.line
        p.path = [.key("sections"), .index(item.position)]
        guard let node = try? p.value(depth: 2), p.index == item.end else { return nil }
        return node
    }

    /// A section the first pass skipped, parsed with the objects of its `fields` list only skipped over: the
    /// section's node (a null in its list for each field) and each field's place, bytes and first line. Nil when
    /// it does not parse, or its `fields` list is not one list of objects only (the usual path then reports).
    static func sectionFieldsSkipped(
        _ item: SkippedSection, in bytes: UnsafeBufferPointer<UInt8>
    ) -> (section: SourceNode, fields: [SkippedSection])? {
        var p = JSONParser(bytes: bytes)
        p.index = item.start
        p.line = item.line
        p.path = [.key("sections"), .index(item.position)]
        p.deferFields = true
        guard let node = try? p.value(depth: 2), p.index == item.end, p.deferredLists.count == 1 else { return nil }
        let fields = p.deferred.map { SkippedSection(position: $0.position, start: $0.start, end: $0.end, line: $0.line) }
        guard case .array(let items)? = node["fields"]?.kind, items.count == fields.count else { return nil }
        return (node, fields)
    }

    /// A field that `sectionFieldsSkipped` skipped in the section at `section`, parsed from its bytes by a parser
    /// that starts at its line and pointer (nodes, lines and messages are those of the sequential parse); nil
    /// when it does not parse.
    static func field(
        _ item: SkippedSection, section: Int, in bytes: UnsafeBufferPointer<UInt8>, workspace: Workspace
    ) -> SourceNode? {
        var p = JSONParser(bytes: bytes, workspace: workspace)
        p.index = item.start
        p.line = item.line
        p.path = [.key("sections"), .index(section), .key("fields"), .index(item.position)]
        guard let node = try? p.value(depth: 4), p.index == item.end else { return nil }
        return node
    }

    /// A field that `sectionFieldsSkipped` skipped, read flat (`FlatField`) into `field`: false when it is not a
    /// field that can be read so (it is then parsed as a node, by `field`).
    static func readFlatField(
        _ item: SkippedSection, in bytes: UnsafeBufferPointer<UInt8>, workspace: Workspace, into field: inout FlatField
    ) -> Bool {
        var p = JSONParser(bytes: bytes, workspace: workspace)
        p.index = item.start
        p.line = item.line
        return p.index < bytes.count && bytes[p.index] == UInt8(ascii: "{") && p.readFlat(into: &field) && p.index == item.end
    }

    /// The value that `start` is at (its position, line and pointer), ending at `end` (or at the end of the
    /// document, after spaces, when nil), with the objects of its field lists parsed on several cores: it is
    /// read once with each field only skipped over (the rest — the form's and sections' own keys — parsed),
    /// the fields are parsed from their bytes in parallel, a run of them by each parser, and it is read again
    /// with each field taken as parsed and its bytes jumped over.
    private static func parseFieldsInParallel(_ start: JSONParser, depth: Int, end: Int?) -> SourceNode? {
        let bytes = start.bytes
        func value(_ parser: inout JSONParser) -> SourceNode? {
            guard let node = try? parser.value(depth: depth) else { return nil }
            if let end { return parser.index == end ? node : nil }
            parser.skipSpace()
            return parser.index == bytes.count ? node : nil
        }
        var parser = start
        parser.deferFields = true
        guard value(&parser) != nil, !parser.deferred.isEmpty else { return nil }
        let deferred = parser.deferred, lists = parser.deferredLists
        let runs = max(1, min(deferred.count / 64, Parallel.threads * 8))
        let pieces = Parallel.map(runs, worthIt: true) { r -> [(node: SourceNode, line: Int)]? in
            var p = JSONParser(bytes: bytes)
            var nodes: [(node: SourceNode, line: Int)] = []
            let range = r * deferred.count / runs..<(r + 1) * deferred.count / runs
            nodes.reserveCapacity(range.count)
            var list = -1
            for k in range {
                let item = deferred[k]
                p.index = item.start
                p.line = item.line
                // The pointer of the item: its list's, set once per list, and its index.
                if item.list != list {
                    list = item.list
                    p.path = lists[list]
                    p.path.append(.index(item.position))
                } else {
                    p.path[p.path.count - 1] = .index(item.position)
                }
                guard let node = try? p.value(depth: p.path.count), p.index == item.end else { return nil }
                nodes.append((node, p.line))
            }
            return nodes
        }
        // Read again with each field taken as parsed: the tree is built once, in order, no list copied.
        var filler = start
        filler.parsed.reserveCapacity(deferred.count)
        for piece in pieces {
            guard let piece else { return nil }
            filler.parsed += piece
        }
        filler.deferred = deferred
        filler.fillFields = true
        guard let filled = value(&filler), filler.filledCount == deferred.count else { return nil }
        return filled
    }

    /// Whether `path` is a section's field list: `/sections/i/fields` or `/pages/p/sections/i/fields`.
    private static func isFieldList(_ path: [Step]) -> Bool {
        func key(_ k: Int, _ name: String) -> Bool { if case .key(let s) = path[k], s == name { true } else { false } }
        switch path.count {
        case 3: return key(0, "sections") && key(2, "fields")
        case 5: return key(0, "pages") && key(2, "sections") && key(4, "fields")
        default: return false
        }
    }

    /// When set, each object of a field list is first read flat (`FlatField`) and offered to it; one it takes is
    /// a null node in the list, one it does not is read again as a node.
    var flatFields: FlatFieldSink?
    /// The flat field being read (its model's storage kept from field to field), and the strings of a list in it.
    private var flat = FlatField()
    private var flatList = FlatListScratch()

    /// Set for `parseSectionsInParallel`: the items of the root's `sections` list are skipped, not parsed.
    private var deferSections = false
    /// The skipped sections: their place in the list, their bytes and first line.
    private var deferredSections: [SkippedSection] = []
    /// Set for `parseFieldsInParallel`: the objects in field lists are skipped, not parsed.
    private var deferFields = false
    /// Set for the second pass of `parseSectionsInParallel`: the objects in field lists are taken from `parsed`
    /// (with the line after each), in order, where `deferred` says they start, and their bytes jumped over.
    private var fillFields = false
    private var parsed: [(node: SourceNode, line: Int)] = []
    private var filledCount = 0
    /// The skipped fields: their list (an index into `deferredLists`), their place in it, their bytes and first line.
    private var deferred: [(list: Int, position: Int, start: Int, end: Int, line: Int)] = []
    /// The path of each field list met with a field to skip, in the order they were met.
    private var deferredLists: [[Step]] = []

    /// Skips the object or list at `index` (the parse of its bytes will check it), counting lines;
    /// false when it ends before closing.
    ///
    /// This pass runs on one core before the parallel parse, so it reads eight bytes at a time. A word with no
    /// bracket and no backslash (most of them) only flips the string state by its count of quotes and counts its
    /// line feeds. A word with brackets and no backslash finds which brackets are outside strings from the prefix
    /// parity of its quotes. A word with a backslash takes each byte that matters in turn. (Jumping to the first
    /// byte that matters and reading a word again from the next was twenty instructions a byte on an indented
    /// document, a quote or line feed every few bytes.)
    private mutating func skipComposite() -> Bool {
        guard let base = bytes.baseAddress else { return false }
        // The position and line are kept in locals (registers) and stored back once.
        var index = self.index, line = self.line
        defer {
            self.index = index
            self.line = line
        }
        var depth = 0
        var inString = false
        let n = bytes.count
        while index + 8 <= n {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            let quotes = UTF8Bytes.exactlyEqual(word, 0x22)
            let feeds = UTF8Bytes.exactlyEqual(word, 0x0A)
            // '{' and '[' differ only in bit 0x20, as do '}' and ']', and no other byte becomes them with it set.
            let folded = word | 0x2020_2020_2020_2020
            let anyBracket = UTF8Bytes.equal(folded, 0x7B) | UTF8Bytes.equal(folded, 0x7D)
            let anyEscape = UTF8Bytes.equal(word, 0x5C)
            if anyBracket | anyEscape == 0 {
                if UTF8Bytes.count(quotes) & 1 == 1 { inString.toggle() }
                line += UTF8Bytes.count(feeds)
                index += 8
                continue
            }
            let opens = UTF8Bytes.exactlyEqual(folded, 0x7B), closes = UTF8Bytes.exactlyEqual(folded, 0x7D)
            if anyEscape == 0 {
                // The mark of byte k in `inside`: in a string after byte k (a bracket is no quote: before it too),
                // from the parity of the quotes up to it.
                var inside = quotes
                inside ^= inside << 8
                inside ^= inside << 16
                inside ^= inside << 32
                if inString { inside ^= UTF8Bytes.highs }
                let structuralOpens = opens & ~inside, structuralCloses = closes & ~inside
                inString = inside >> 63 != 0
                // Fewer closing brackets than the depth: the composite cannot close in this word.
                if UTF8Bytes.count(structuralCloses) < depth {
                    depth += UTF8Bytes.count(structuralOpens) - UTF8Bytes.count(structuralCloses)
                    line += UTF8Bytes.count(feeds)
                    index += 8
                    continue
                }
                var marks = structuralOpens | structuralCloses
                while marks != 0 {
                    let mark = marks & (0 &- marks)
                    marks ^= mark
                    if mark & structuralOpens != 0 {
                        depth += 1
                    } else {
                        depth -= 1
                        if depth == 0 {
                            let used = mark.trailingZeroBitCount >> 3 + 1
                            line += UTF8Bytes.count(used == 8 ? feeds : feeds & ((1 << (UInt64(used) * 8)) &- 1))
                            index += used
                            return true
                        }
                    }
                }
                line += UTF8Bytes.count(feeds)
                index += 8
                continue
            }
            // A backslash: each byte that matters, in turn.
            let escapes = UTF8Bytes.exactlyEqual(word, 0x5C)
            var counted = feeds
            var marks = quotes | escapes | opens | closes
            var used = 8  // bytes of the word taken (9: the next word's first is escaped)
            var closed = false
            while marks != 0 {
                let mark = marks & (0 &- marks)
                marks ^= mark
                if inString {
                    if mark & escapes != 0 {
                        // The byte after a backslash is taken as it is: a quote or backslash there closes nothing,
                        // and a line feed there is not counted (as the parse of the bytes will not).
                        let next = mark << 8
                        if next == 0 {
                            used = 9
                            break
                        }
                        marks &= ~next
                        counted &= ~next
                    } else if mark & quotes != 0 {
                        inString = false
                    }
                } else if mark & quotes != 0 {
                    inString = true
                } else if mark & opens != 0 {
                    depth += 1
                } else if mark & closes != 0 {
                    depth -= 1
                    if depth == 0 {
                        used = mark.trailingZeroBitCount >> 3 + 1
                        closed = true
                        break
                    }
                }
            }
            line += UTF8Bytes.count(used >= 8 ? counted : counted & ((1 << (UInt64(used) * 8)) &- 1))
            index += used
            if closed { return true }
        }
        while index < n {
            let b = base[index]
            index += 1
            if inString {
                if b == 0x5C {
                    index += 1
                } else if b == 0x22 {
                    inString = false
                } else if b == 0x0A {
                    line += 1
                }
                continue
            }
            switch b {
            case 0x22: inString = true
            case 0x7B, 0x5B: depth += 1
            case 0x7D, 0x5D:
                depth -= 1
                if depth == 0 { return true }
            case 0x0A: line += 1
            default: break
            }
        }
        return false
    }

    /// `skipComposite` from `start` on line 1: whether the composite closed, where the skip ended and on what line
    /// (tests compare it with a byte-at-a-time scan).
    static func skipped(from start: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (closed: Bool, end: Int, line: Int) {
        var p = JSONParser(bytes: bytes)
        p.index = start
        let closed = p.skipComposite()
        return (closed, p.index, p.line)
    }

    private init(bytes: UnsafeBufferPointer<UInt8>, workspace: Workspace = Workspace()) {
        self.bytes = bytes
        memberStack = workspace.members
        itemStack = workspace.items
        strings = workspace.strings
    }

    private func error(_ message: String) -> ParseError { ParseError(line: line, message: message) }

    /// An error that names the JSON pointer of the value being read (built only when reported).
    private func error(at key: String?, _ message: String) -> ParseError {
        let steps = path.map { step in
            switch step {
            case .key(let k): k
            case .index(let i): String(i)
            }
        }
        let pointer = (steps + (key.map { [$0] } ?? [])).map { "/" + Pointer.escape($0) }.joined()
        return ParseError(line: line, message: (pointer.isEmpty ? "" : pointer + ": ") + message)
    }

    private mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0D: index += 1
            case 0x0A: index += 1; line += 1
            default: return
            }
        }
    }

    private mutating func value(depth: Int) throws(ParseError) -> SourceNode {
        guard depth <= InputLimits.maxDepth else { throw error("nesting deeper than \(InputLimits.maxDepth) levels") }
        guard index < bytes.count else { throw error("unexpected end of the document") }
        let start = line
        switch bytes[index] {
        case UInt8(ascii: "{"):
            index += 1
            // The members are gathered on the parser's stack, then moved into an array of their count.
            let members = memberStack, first = members.count
            // Duplicate keys: a linear scan for the usual small object, a set past 16 keys.
            var keys: Set<String>? = nil
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return SourceNode(kind: .object([]), line: start) }
            while true {
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a quoted key") }
                let key = try string()
                let duplicate: Bool
                if members.count - first < 16 {
                    duplicate = (first..<members.count).contains { k in members.with(k) { $0.key == key } }
                } else {
                    if keys == nil { keys = Set((first..<members.count).map { k in members.with(k) { $0.key } }) }
                    duplicate = !keys!.insert(key).inserted
                }
                guard !duplicate else { throw error(at: key, "duplicate key '\(key)'") }
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':' after key '\(key)'") }
                index += 1
                skipSpace()
                path.append(.key(key))
                let member = try value(depth: depth + 1)
                members.push((key, member))
                path.removeLast()
                skipSpace()
                guard index < bytes.count else { throw error("unterminated object (missing '}')") }
                if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                if bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    return SourceNode(kind: .object(members.pop(from: first)), line: start)
                }
                throw error("expected ',' or '}' in an object")
            }
        case UInt8(ascii: "["):
            index += 1
            let items = itemStack, first = items.count
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return SourceNode(kind: .array([]), line: start) }
            let deferItems = (deferFields || fillFields) && Self.isFieldList(path)
            if deferItems && deferFields { deferredLists.append(path) }
            let flatItems = flatFields != nil && Self.isFieldList(path)
            let deferSectionItems =
                deferSections && depth == 1 && path.count == 1 && { if case .key("sections") = path[0] { true } else { false } }()
            while true {
                skipSpace()
                let position = items.count - first, itemLine = line
                path.append(.index(position))
                if deferSectionItems, index < bytes.count, bytes[index] == UInt8(ascii: "{") {
                    let (itemStart, itemLine) = (index, line)
                    guard skipComposite() else { throw error("unterminated object (missing '}')") }
                    deferredSections.append(SkippedSection(position: position, start: itemStart, end: index, line: itemLine))
                    items.push(SourceNode(kind: .null, line: itemLine))
                } else if deferItems && fillFields, filledCount < parsed.count, deferred[filledCount].start == index {
                    let field = parsed[filledCount]
                    index = deferred[filledCount].end
                    line = field.line
                    items.push(field.node)
                    filledCount += 1
                } else if deferItems && deferFields, index < bytes.count, bytes[index] == UInt8(ascii: "{") {
                    let (itemStart, itemLine) = (index, line)
                    guard skipComposite() else { throw error("unterminated object (missing '}')") }
                    deferred.append((deferredLists.count - 1, position, itemStart, index, itemLine))
                    items.push(SourceNode(kind: .null, line: itemLine))
                } else if flatItems, index < bytes.count, bytes[index] == UInt8(ascii: "{"), takeFlat(position: position) {
                    items.push(SourceNode(kind: .null, line: itemLine))
                } else {
                    let item = try value(depth: depth + 1)
                    items.push(item)
                }
                path.removeLast()
                skipSpace()
                guard index < bytes.count else { throw error("unterminated list (missing ']')") }
                if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                if bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    return SourceNode(kind: .array(items.pop(from: first)), line: start)
                }
                throw error("expected ',' or ']' in a list")
            }
        case UInt8(ascii: "\""):
            return SourceNode(kind: .string(try string()), line: start)
        case UInt8(ascii: "t"): try literal("true"); return SourceNode(kind: .bool(true), line: start)
        case UInt8(ascii: "f"): try literal("false"); return SourceNode(kind: .bool(false), line: start)
        case UInt8(ascii: "n"): try literal("null"); return SourceNode(kind: .null, line: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return SourceNode(kind: try number(), line: start)
        default:
            throw error("unexpected character '\(Character(Unicode.Scalar(bytes[index])))'")
        }
    }

    /// The field object at `index` read flat and offered to `flatFields`: true when taken (the object read past),
    /// false with the position and line as they were.
    private mutating func takeFlat(position: Int) -> Bool {
        let start = index, startLine = line
        var field = FlatField()
        swap(&field, &flat)
        defer { swap(&field, &flat) }
        if readFlat(into: &field), let sink = flatFields, sink.take(&field, position: position) { return true }
        index = start
        line = startLine
        return false
    }

    /// The object at `index` as a `FlatField`; false as soon as it is anything else (see `FlatField`), or does not parse.
    private mutating func readFlat(into field: inout FlatField) -> Bool {
        field.reset()
        index += 1  // {
        skipSpace()
        guard index < bytes.count, bytes[index] != UInt8(ascii: "}") else { return false }
        while true {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let key = try? string() else { return false }
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return false }
            index += 1
            skipSpace()
            guard index < bytes.count else { return false }
            switch key.utf8.count {
            case 2 where key == "id":
                guard field.id == nil, let s = flatString() else { return false }
                field.id = s
            case 4 where key == "cell":
                guard field.cell == nil, let s = flatString() else { return false }
                field.cell = s
            case 15 where key == "accessibilityId":
                guard field.accessibilityId == nil, let s = flatString() else { return false }
                field.accessibilityId = s
            case 8 where key == "required":
                guard field.required == nil, case .bool(let b)? = flatValue() else { return false }
                field.required = b
            case 5 where key == "model":
                guard !field.hasModel, bytes[index] == UInt8(ascii: "{"), readFlatModel(into: &field) else { return false }
                field.hasModel = true
            default: return false
            }
            switch separator(closing: UInt8(ascii: "}")) {
            case .more?: continue
            case .closed?: return true
            case nil: return false
            }
        }
    }

    /// The model object at `index`, its members appended to `field.model`; false as `readFlat`.
    private mutating func readFlatModel(into field: inout FlatField) -> Bool {
        index += 1  // {
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return true
        }
        while true {
            skipSpace()
            // A repeated key is the parser's error to report; a large model is left to the usual path.
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let key = try? string(), field.model.count < 16,
                !field.model.contains(where: { $0.key.utf8.count == key.utf8.count && $0.key == key })
            else { return false }
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return false }
            index += 1
            skipSpace()
            guard let value = flatValue(member: field.model.count) else { return false }
            field.model.append(FlatMember(key: key, value: value))
            switch separator(closing: UInt8(ascii: "}")) {
            case .more?: continue
            case .closed?: return true
            case nil: return false
            }
        }
    }

    private enum Separator { case more, closed }

    /// After a member or an item (spaces skipped first): `.more` past a `,`, `.closed` past `close`, nil at anything
    /// else.
    private mutating func separator(closing close: UInt8) -> Separator? {
        skipSpace()
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: ","):
            index += 1
            return .more
        case close:
            index += 1
            return .closed
        default: return nil
        }
    }

    /// The string at `index`, nil when there is none or it does not parse.
    private mutating func flatString() -> String? {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
        return try? string()
    }

    /// The scalar, or list of strings, at `index`; nil for anything else, or what does not parse.
    /// `member`: the value's place in its model, for a list (`FlatListScratch`).
    private mutating func flatValue(member: Int = .max) -> FlatValue? {
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "\""): return flatString().map(FlatValue.string)
        case UInt8(ascii: "t"): return (try? literal("true")) == nil ? nil : .bool(true)
        case UInt8(ascii: "f"): return (try? literal("false")) == nil ? nil : .bool(false)
        case UInt8(ascii: "n"): return (try? literal("null")) == nil ? nil : .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            switch try? number() {
            case .integer(let i)?: return .integer(i)
            case .number(let d)?: return .number(d)
            default: return nil
            }
        case UInt8(ascii: "["):
            index += 1
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .strings([])
            }
            // Gathered in the parser's scratch list, then copied into an array of their count (appended to a new
            // array, a list of three to eight strings was three or four allocations).
            flatList.start()
            while true {
                skipSpace()
                guard let s = flatString() else { return nil }
                flatList.append(s)
                switch separator(closing: UInt8(ascii: "]")) {
                case .more?: continue
                case .closed?: return .strings(flatList.take(member: member))
                case nil: return nil
                }
            }
        default: return nil
        }
    }

    private mutating func literal(_ word: StaticString) throws(ParseError) {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw error("invalid literal; expected '\(word)'") }
        for k in 0..<count where bytes[index + k] != word.utf8Start[k] { throw error("invalid literal; expected '\(word)'") }
        index += count
    }

    private mutating func number() throws(ParseError) -> SourceNode.Kind {
        let start = index
        var isInteger = true
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        func digits() -> Int {
            let s = index
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
            return index - s
        }
        guard digits() > 0 else { throw error("invalid number") }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1; isInteger = false
            guard digits() > 0 else { throw error("invalid number: digits expected after '.'") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1; isInteger = false
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw error("invalid number: digits expected in the exponent") }
        }
        // Integers of up to 18 digits (all that documents write) are read from the bytes, without a string.
        if isInteger && index - start <= 18 {
            var negative = false
            var k = start
            if bytes[k] == UInt8(ascii: "-") {
                negative = true
                k += 1
            }
            var n: Int64 = 0
            while k < index {
                n = n * 10 + Int64(bytes[k] - 0x30)
                k += 1
            }
            return .integer(negative ? -n : n)
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if isInteger, let i = Int64(text) { return .integer(i) }
        guard let d = Double(text), d.isFinite else { throw error("number \(text) is out of range") }
        return .number(d)
    }

    private mutating func string() throws(ParseError) -> String {
        index += 1  // opening quote
        // Most strings have no escape and no control character: made straight from the input bytes.
        var end = index
        // Eight bytes at a time to the first quote, backslash or control character (the lowest mark of each test
        // is exact, so the lowest of the three is), then a byte at a time.
        if let base = bytes.baseAddress {
            while end + 8 <= bytes.count {
                let word = UnsafeRawPointer(base + end).loadUnaligned(as: UInt64.self)
                let stops = UTF8Bytes.equal(word, 0x22) | UTF8Bytes.equal(word, 0x5C) | UTF8Bytes.below(word, 0x20)
                if stops != 0 {
                    end += stops.trailingZeroBitCount >> 3
                    break
                }
                end += 8
            }
        }
        while end < bytes.count, bytes[end] != 0x22, bytes[end] != 0x5C, bytes[end] >= 0x20 { end += 1 }
        if end < bytes.count, bytes[end] == 0x22 {
            // The input came from a String, so it is valid UTF-8, and so is any run between two quotes:
            // made from contiguous bytes (the specialised path, not the generic one).
            let base = bytes.baseAddress!
            let count = end - index
            let s =
                count <= 15
                ? strings.string(base + index, count: count, end: base + bytes.count)
                : ShortStrings.keepsLong(count)
                    ? strings.long(base + index, count: count)
                    : String(decoding: UnsafeBufferPointer(rebasing: bytes[index..<end]), as: UTF8.self)
            index = end + 1
            return s
        }
        var out: [UInt8] = []
        while true {
            guard index < bytes.count else { throw error("unterminated string") }
            let b = bytes[index]
            index += 1
            switch b {
            case UInt8(ascii: "\""):
                guard let s = String(validating: out, as: UTF8.self) else { throw error("string is not valid UTF-8") }
                return s
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { throw error("unterminated escape") }
                let e = bytes[index]
                index += 1
                switch e {
                case UInt8(ascii: "\""): out.append(0x22)
                case UInt8(ascii: "\\"): out.append(0x5C)
                case UInt8(ascii: "/"): out.append(0x2F)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800...0xDBFF).contains(scalar) {
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                            throw error("unpaired surrogate in \\u escape")
                        }
                        index += 2
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw error("invalid surrogate pair in \\u escape") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard scalar != 0 else { throw error(at: nil, "a NUL character (\\u0000) is not allowed in a string; remove it") }
                    guard let u = Unicode.Scalar(scalar) else { throw error("invalid \\u escape") }
                    out.append(contentsOf: Array(String(Character(u)).utf8))
                default: throw error("invalid escape '\\\(Character(Unicode.Scalar(e)))'")
                }
            case 0x0A: throw error("line break inside a string (write \\n)")
            case 0x00..<0x20: throw error("control character inside a string")
            default: out.append(b)
            }
        }
    }

    private mutating func hex4() throws(ParseError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("invalid \\u escape") }
        var v: UInt32 = 0
        for b in bytes[index..<index + 4] {
            v <<= 4
            switch b {
            case 0x30...0x39: v |= UInt32(b - 0x30)
            case 0x41...0x46: v |= UInt32(b - 0x41 + 10)
            case 0x61...0x66: v |= UInt32(b - 0x61 + 10)
            default: throw error("invalid \\u escape")
            }
        }
        index += 4
        return v
    }
}
