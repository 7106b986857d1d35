import CLibYAML

/// Reads YAML into the same node tree as JSON, straight from libyaml's events:
/// one pass, no intermediate document, no regular expressions.
///
/// What a form document never needs and an attacker would use is refused as it is
/// met, before anything could be expanded: anchors, aliases and merge keys (a
/// 400-byte "billion laughs" file would otherwise compose into gigabytes), tags
/// (`!!binary`, `!secret`), NUL characters, duplicate keys, keys that are not
/// scalars, and nesting deeper than `InputLimits.maxDepth`. Each problem names its
/// JSON pointer and line. Time is linear in the input; memory is the tree itself.
///
/// Plain scalars are resolved like YAML 1.1's core schema, minus the surprises:
/// `~`, `null`, `Null`, `NULL` and nothing are null; `true`/`false`, `yes`/`no`,
/// `on`/`off` (lower, Capitalised or UPPER case) are booleans; decimal integers
/// (`-12`, `1_000`) and hexadecimal ones (`0x1F`) are integers; decimal fractions and
/// exponents (`1.5`, `2e3`) are numbers. Sexagesimal (`1:30`), octal (`017`) and binary
/// forms are not numbers here: they stay text. A plain scalar read as a boolean or a
/// number keeps its text for fields that want a string (`title: On`).
enum YAMLReader {
    static func parse(_ text: String) throws(ParseError) -> SourceNode {
        var text = text
        return try text.withUTF8 { bytes in Result { () throws(ParseError) in try parse(bytes: bytes) } }.get()
    }

    /// Parses UTF-8 read in place (libyaml checks the encoding itself).
    ///
    /// `takeSection(node, index)`, when given, is offered each collection of the root's `sections` list (at
    /// `/sections/index`) as soon as its last event is read; when it returns true the node is taken, and the tree
    /// keeps a null in its place (`FormDecoder.decodeSectionsAsRead` decodes it there and then, and its nodes are
    /// freed while they are still in the cache).
    ///
    /// `takeField(field, section, row)`, when given, is offered each field of a section of the root's `sections`
    /// list that reads flat (`FlatField`: an `id`, a `cell`, a model of plain values) as soon as it is read, before
    /// any node is made for it; when it returns true the field is taken, and the section's `fields` list keeps a
    /// null in its place (as `JSONParser.flatFields` does). A field that does not read flat, or is not taken, is
    /// read into nodes from the same events, which are kept until then: the tree, and every problem reported, are
    /// what they are without it.
    static func parse(
        bytes buffer: UnsafeBufferPointer<UInt8>, takeSection: ((SourceNode, Int) -> Bool)? = nil,
        takeField: ((inout FlatField, _ section: Int, _ row: Int) -> Bool)? = nil
    ) throws(ParseError) -> SourceNode {
        // libyaml's flow-collection parsing recurses per level: refuse pathological nesting before it runs.
        if let line = excessiveFlowNesting(buffer) {
            throw ParseError(line: line, message: "nesting deeper than \(InputLimits.maxDepth) levels")
        }
        // No input is an empty stream: no document, a null root.
        guard let base = buffer.baseAddress, buffer.count > 0 else { return SourceNode(kind: .null, line: 1) }
        return try parse(takeSection: takeSection, takeField: takeField) { yaml_parser_set_input_string(&$0, base, buffer.count) }
    }

    /// `parse(bytes:takeSection:takeField:)` of a document read again from its file as libyaml asks for it (`count`
    /// bytes from its start), whose bytes `excessiveFlowNesting` passed when they were first read: the same tree and
    /// problems, with the document's bytes not in memory. A part that cannot be read (the file cut short) is a
    /// problem with no line; whether the file changed is the caller's to ask after (`ReopenableFile.isUnchanged`).
    static func parse(
        file: ReopenableFile, count: Int, takeSection: ((SourceNode, Int) -> Bool)? = nil,
        takeField: ((inout FlatField, _ section: Int, _ row: Int) -> Bool)? = nil
    ) throws(ParseError) -> SourceNode {
        guard count > 0 else { return SourceNode(kind: .null, line: 1) }
        let source = FileSource(file: file, count: count)
        return try withExtendedLifetime(source) { () throws(ParseError) -> SourceNode in
            try parse(takeSection: takeSection, takeField: takeField) { parser in
                yaml_parser_set_input(
                    &parser,
                    { data, buffer, size, sizeRead in
                        let source = Unmanaged<FileSource>.fromOpaque(data!).takeUnretainedValue()
                        let wanted = min(size, source.count - source.offset)
                        guard wanted > 0 else {
                            sizeRead!.pointee = 0  // the end
                            return 1
                        }
                        let n = source.file.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: wanted), at: source.offset)
                        guard n > 0 else { return 0 }  // an error, or the file is shorter now: libyaml reports a reader error
                        source.offset += n
                        sizeRead!.pointee = n
                        return 1
                    }, Unmanaged.passUnretained(source).toOpaque())
            }
        }
    }

    /// What libyaml's read handler reads from: the file, how much of it is the document, and how much was read.
    private final class FileSource {
        let file: ReopenableFile, count: Int
        var offset = 0
        init(file: ReopenableFile, count: Int) { (self.file, self.count) = (file, count) }
    }

    /// The tree from libyaml's events, its input set by `input`.
    private static func parse(
        takeSection: ((SourceNode, Int) -> Bool)?, takeField: ((inout FlatField, _ section: Int, _ row: Int) -> Bool)?,
        input: (inout yaml_parser_t) -> Void
    ) throws(ParseError) -> SourceNode {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { throw ParseError(line: nil, message: "the YAML parser could not start") }
        defer { yaml_parser_delete(&parser) }
        do {
            input(&parser)
            var builder = Builder()
            var event = yaml_event_t()
            var flat = FlatReader()
            defer { flat.clear() }
            while true {
                guard yaml_parser_parse(&parser, &event) == 1 else { throw syntaxError(parser) }
                if let takeField, event.type == YAML_MAPPING_START_EVENT, let (section, row) = builder.fieldListPosition {
                    // The events are kept (`flat.events`, the first one this one) until the field is taken or not.
                    let read = flat.read(first: event, from: &parser)
                    defer { flat.clear() }
                    if read == .field, takeField(&flat.field, section, row) {
                        builder.add(SourceNode(kind: .null, line: Int(event.start_mark.line) + 1))
                        continue
                    }
                    for k in flat.events.indices { try builder.handle(&flat.events[k], takeSection: takeSection) }
                    if read == .syntaxError { throw syntaxError(parser) }
                    continue
                }
                defer { yaml_event_delete(&event) }
                if event.type == YAML_STREAM_END_EVENT { break }
                if event.type == YAML_DOCUMENT_START_EVENT && builder.documents > 0 {
                    throw ParseError(
                        line: Int(event.start_mark.line) + 1, message: "a form file holds one YAML document; remove the second '---'")
                }
                try builder.handle(&event, takeSection: takeSection)
            }
            return builder.root ?? SourceNode(kind: .null, line: 1)
        }
    }

    /// libyaml's own words for a syntax error, with its line ("while parsing a flow sequence: did not find expected ',' or ']'").
    private static func syntaxError(_ parser: yaml_parser_t) -> ParseError {
        let problem = parser.problem.map { String(cString: $0) } ?? "invalid YAML"
        let context = parser.context.map { String(cString: $0) }
        let text = [context, problem].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ": ")
        let line = parser.error == YAML_READER_ERROR ? nil : Int(parser.problem_mark.line) + 1
        return ParseError(line: line, message: text)
    }

    /// Builds the tree from events with an explicit stack (no recursion). Frames are
    /// objects so that growing a collection never copies it.
    private struct Builder {
        final class Frame {
            let isMapping: Bool
            let line: Int
            // Only the builder's own thread touches a frame: no run-time exclusivity checks per append.
            @exclusivity(unchecked) var members: [(key: String, value: SourceNode)] = []
            @exclusivity(unchecked) var items: [SourceNode] = []
            @exclusivity(unchecked) var key: String?
            var keys: Set<String> = []
            init(isMapping: Bool, line: Int) {
                self.isMapping = isMapping
                self.line = line
                // Room for four from the start: a form's mappings and lists mostly hold two to six, and growing
                // from empty reallocated each of them two or three times.
                if isMapping { members.reserveCapacity(4) } else { items.reserveCapacity(4) }
            }
        }

        var stack: [Frame] = []
        var root: SourceNode?
        var documents = 0

        /// The pointer of the node being read, built only when a problem is reported.
        func pointer(key extra: String? = nil) -> String {
            var out = ""
            for frame in stack {
                if frame.isMapping { if let key = frame.key { out += "/" + Pointer.escape(key) } } else { out += "/\(frame.items.count)" }
            }
            if let extra { out += "/" + Pointer.escape(extra) }
            return out
        }

        func fail(_ message: String, line: Int, key: String? = nil) -> ParseError {
            let at = pointer(key: key)
            return ParseError(line: line, message: (at.isEmpty ? "" : at + ": ") + message)
        }

        func checkNode(anchor: UnsafeMutablePointer<yaml_char_t>?, tag: UnsafeMutablePointer<yaml_char_t>?, line: Int) throws(ParseError) {
            if let anchor {
                throw fail("YAML anchors (&\(String(cString: anchor))) are not allowed in form documents; write the value out", line: line)
            }
            if let tag {
                var name = String(cString: tag)
                if name.hasPrefix("tag:yaml.org,2002:") { name = "!!" + name.dropFirst("tag:yaml.org,2002:".count) }
                throw fail("YAML tags (\(name)) are not allowed in form documents; write the value plainly", line: line)
            }
        }

        /// The section and row of the next item of a section's `fields` list (`/sections/N/fields`), nil when the next
        /// node is anything else.
        var fieldListPosition: (section: Int, row: Int)? {
            guard stack.count == 4, documents == 1, stack[0].isMapping, stack[0].key == "sections", !stack[1].isMapping,
                stack[2].isMapping, stack[2].key == "fields", !stack[3].isMapping
            else { return nil }
            return (stack[1].items.count, stack[3].items.count)
        }

        var expectingKey: Bool {
            guard let last = stack.last else { return false }
            return last.isMapping && last.key == nil
        }

        /// Adds a finished node to its parent (or makes it the root).
        mutating func add(_ node: SourceNode) {
            guard let frame = stack.last else { root = node; return }
            if frame.isMapping, let key = frame.key {
                frame.members.append((key, node))
                frame.key = nil
            } else if !frame.isMapping {
                frame.items.append(node)
            }
        }

        mutating func handle(_ event: inout yaml_event_t, takeSection: ((SourceNode, Int) -> Bool)? = nil) throws(ParseError) {
            let line = Int(event.start_mark.line) + 1
            switch event.type {
            case YAML_DOCUMENT_START_EVENT:
                documents += 1
            case YAML_ALIAS_EVENT:
                let name = event.data.alias.anchor.map { String(cString: $0) } ?? ""
                throw fail("YAML aliases (*\(name)) are not allowed in form documents; write the value out", line: line)
            case YAML_SCALAR_EVENT:
                let s = event.data.scalar
                try checkNode(anchor: s.anchor, tag: s.tag, line: line)
                let raw = UnsafeRawBufferPointer(start: s.value, count: s.length)
                if raw.contains(0) {
                    throw fail("a NUL character is not allowed in a string; remove it", line: line)
                }
                let value = String(decoding: raw, as: UTF8.self)
                let plain = s.style == YAML_PLAIN_SCALAR_STYLE
                if expectingKey, let frame = stack.last {
                    if value == "<<" && plain {
                        throw fail("YAML merge keys (<<) are not allowed in form documents; write the keys out", line: line, key: value)
                    }
                    // Small mappings (nearly all) are searched; a set is built only for large ones.
                    let duplicate: Bool
                    if frame.members.count < 16 {
                        duplicate = frame.members.contains { $0.key == value }
                    } else {
                        if frame.keys.isEmpty { frame.keys = Set(frame.members.map(\.key)) }
                        duplicate = !frame.keys.insert(value).inserted
                    }
                    guard !duplicate else { throw fail("duplicate key '\(value)'", line: line, key: value) }
                    frame.key = value
                } else {
                    add(plain ? Self.resolve(value, line: line) : SourceNode(kind: .string(value), line: line))
                }
            case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
                let isMapping = event.type == YAML_MAPPING_START_EVENT
                if isMapping {
                    try checkNode(anchor: event.data.mapping_start.anchor, tag: event.data.mapping_start.tag, line: line)
                } else {
                    try checkNode(anchor: event.data.sequence_start.anchor, tag: event.data.sequence_start.tag, line: line)
                }
                if expectingKey { throw fail("keys must be plain strings", line: line) }
                guard stack.count < InputLimits.maxDepth else {
                    throw fail("nesting deeper than \(InputLimits.maxDepth) levels", line: line)
                }
                stack.append(Frame(isMapping: isMapping, line: line))
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                guard let frame = stack.popLast() else { return }
                let node = SourceNode(kind: frame.isMapping ? .object(frame.members) : .array(frame.items), line: frame.line)
                // An item of the root's `sections` list, offered to `takeSection`.
                if let takeSection, stack.count == 2, documents == 1, stack[0].isMapping, stack[0].key == "sections", !stack[1].isMapping,
                    takeSection(node, stack[1].items.count)
                {
                    stack[1].items.append(SourceNode(kind: .null, line: frame.line))
                    return
                }
                add(node)
            default:
                break
            }
        }

        /// A plain scalar: null, boolean, integer, number or text (see the type's documentation).
        static func resolve(_ s: String, line: Int) -> SourceNode {
            switch scalarKind(s) {
            case .string(let text): SourceNode(kind: .string(text), line: line)
            case .null: SourceNode(kind: .null, line: line)
            case let kind: SourceNode(kind: kind, line: line, plainText: s)
            }
        }

        /// What a plain scalar is read as: null, a boolean, an integer, a number or text (`resolve`, without the node).
        static func scalarKind(_ s: String) -> SourceNode.Kind {
            // The words below are at most five bytes and start with one of these letters: most text is not compared.
            let special: Bool
            if let first = s.utf8.first {
                special =
                    s.utf8.count <= 5
                    && [0x7E, 0x6E, 0x4E, 0x74, 0x54, 0x79, 0x59, 0x6F, 0x4F, 0x66, 0x46].contains(first)
            } else {
                special = true
            }
            if special {
                // Compared as one integer of its bytes, not string by string (a scalar that is none of the words
                // made a string comparison for each word, most through the runtime's slow path).
                let key = packedWord(s)
                if Self.nullWords.contains(key) { return .null }
                if Self.trueWords.contains(key) { return .bool(true) }
                if Self.falseWords.contains(key) { return .bool(false) }
            }
            guard let first = s.utf8.first, first == 0x2D || first == 0x2B || first == 0x2E || (0x30...0x39).contains(first) else {
                return .string(s)
            }
            if let n = integer(s) { return .integer(n) }
            if let d = number(s), d.isFinite { return .number(d) }
            return .string(s)
        }

        /// The bytes of a word of at most seven bytes as one integer, its length in the top byte (so that no two
        /// words share one); `UInt64.max` for a longer one.
        @inline(__always)
        static func packedWord(_ s: String) -> UInt64 {
            var key = UInt64(s.utf8.count) << 56
            guard s.utf8.count <= 7 else { return .max }
            var shift: UInt64 = 0
            for b in s.utf8 {
                key |= UInt64(b) << shift
                shift += 8
            }
            return key
        }
        static let nullWords = ["", "~", "null", "Null", "NULL"].map(packedWord)
        static let trueWords = ["true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON"].map(packedWord)
        static let falseWords = ["false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF"].map(packedWord)

        /// `[-+]?(0|[1-9][0-9_]*)` or `[-+]?0x[0-9a-fA-F_]+`, within Int64.
        static func integer(_ s: String) -> Int64? {
            var bytes = Substring(s).utf8[...]
            var negative = false
            if let sign = bytes.first, sign == 0x2D || sign == 0x2B { negative = sign == 0x2D; bytes = bytes.dropFirst() }
            guard !bytes.isEmpty else { return nil }
            var radix: Int64 = 10
            if bytes.starts(with: "0x".utf8) {
                radix = 16; bytes = bytes.dropFirst(2)
            } else if bytes.count > 1 && bytes.first == 0x30 {
                return nil
            }  // 017: not octal here
            guard !bytes.isEmpty, bytes.first != 0x5F else { return nil }
            var value: Int64 = 0
            for b in bytes {
                if b == 0x5F { continue }
                let digit: Int64
                switch b {
                case 0x30...0x39: digit = Int64(b - 0x30)
                case 0x61...0x66 where radix == 16: digit = Int64(b - 0x61 + 10)
                case 0x41...0x46 where radix == 16: digit = Int64(b - 0x41 + 10)
                default: return nil
                }
                let (m, o1) = value.multipliedReportingOverflow(by: radix)
                let (a, o2) = negative ? m.subtractingReportingOverflow(digit) : m.addingReportingOverflow(digit)
                if o1 || o2 { return nil }
                value = a
            }
            return value
        }

        /// Decimal fractions and exponents (`1.5`, `-2e3`, `.5`, `1_000.25`).
        static func number(_ s: String) -> Double? {
            var sawDigit = false
            for b in s.utf8 {
                switch b {
                case 0x30...0x39: sawDigit = true
                case 0x2B, 0x2D, 0x2E, 0x45, 0x65, 0x5F: break
                default: return nil
                }
            }
            guard sawDigit else { return nil }
            return Double(s.contains("_") ? String(s.filter { $0 != "_" }) : s)
        }
    }

    /// Reads a field's mapping flat from libyaml's events (`FlatField`), keeping each event it reads: what the JSON
    /// parser's `readFlat` takes, with YAML's scalars resolved as `Builder.resolve` resolves them. Anything else
    /// — another key, a repeated key, an anchor, an alias, a tag, a NUL, a model value that is a mapping, a list
    /// item that is not text, more than 16 model values — stops it at once: the events read so far then go to the
    /// builder, which reads the field into nodes (and reports what it reports).
    struct FlatReader {
        enum Outcome { case field, notFlat, syntaxError }

        /// The events read for the current field, the first one first; owned here until `clear()`.
        var events: [yaml_event_t] = []
        var field = FlatField()
        private var list = FlatListScratch()

        /// Deletes the events kept (each once).
        mutating func clear() {
            for k in events.indices { yaml_event_delete(&events[k]) }
            events.removeAll(keepingCapacity: true)
        }

        /// Reads on from `first` (a mapping's start, kept) until the mapping ends, or until it cannot be read flat.
        mutating func read(first: yaml_event_t, from parser: inout yaml_parser_t) -> Outcome {
            field.reset()
            events.append(first)
            guard first.data.mapping_start.anchor == nil, first.data.mapping_start.tag == nil else { return .notFlat }
            while true {
                guard let key = next(&parser) else { return outcome(parser) }
                if key.type == YAML_MAPPING_END_EVENT { return .field }
                guard let name = Self.keyText(key) else { return .notFlat }
                switch name.utf8.count {
                case 2 where name == "id":
                    guard field.id == nil, let s = string(&parser) else { return outcome(parser) }
                    field.id = s
                case 4 where name == "cell":
                    guard field.cell == nil, let s = string(&parser) else { return outcome(parser) }
                    field.cell = s
                case 15 where name == "accessibilityId":
                    guard field.accessibilityId == nil, let s = string(&parser) else { return outcome(parser) }
                    field.accessibilityId = s
                case 8 where name == "required":
                    guard field.required == nil, case .bool(let b)? = value(&parser) else { return outcome(parser) }
                    field.required = b
                case 5 where name == "model":
                    guard !field.hasModel, let start = next(&parser), start.type == YAML_MAPPING_START_EVENT,
                        start.data.mapping_start.anchor == nil, start.data.mapping_start.tag == nil, model(&parser)
                    else { return outcome(parser) }
                    field.hasModel = true
                default: return .notFlat
                }
            }
        }

        /// `.syntaxError` when the parser failed, else `.notFlat`.
        private func outcome(_ parser: yaml_parser_t) -> Outcome { parser.error == YAML_NO_ERROR ? .notFlat : .syntaxError }

        /// The next event, kept; nil when the parser fails.
        private mutating func next(_ parser: inout yaml_parser_t) -> yaml_event_t? {
            var event = yaml_event_t()
            guard yaml_parser_parse(&parser, &event) == 1 else { return nil }
            events.append(event)
            return event
        }

        /// The model's members, after its mapping's start, up to its end.
        private mutating func model(_ parser: inout yaml_parser_t) -> Bool {
            while true {
                guard let key = next(&parser) else { return false }
                if key.type == YAML_MAPPING_END_EVENT { return true }
                guard let name = Self.keyText(key), field.model.count < 16,
                    !field.model.contains(where: { $0.key.utf8.count == name.utf8.count && $0.key == name }),
                    let value = value(&parser)
                else { return false }
                field.model.append(FlatMember(key: name, value: value))
            }
        }

        /// A scalar, or a list of text, as `FlatValue`; nil for anything else.
        private mutating func value(_ parser: inout yaml_parser_t) -> FlatValue? {
            guard let event = next(&parser) else { return nil }
            if event.type == YAML_SEQUENCE_START_EVENT {
                guard event.data.sequence_start.anchor == nil, event.data.sequence_start.tag == nil else { return nil }
                list.start()
                while true {
                    guard let item = next(&parser) else { return nil }
                    if item.type == YAML_SEQUENCE_END_EVENT { return .strings(list.take(member: field.model.count)) }
                    guard let (text, plain) = Self.scalar(item), Self.isText(text, plain: plain) else { return nil }
                    list.append(text)
                }
            }
            guard let (text, plain) = Self.scalar(event) else { return nil }
            guard plain else { return .string(text) }
            switch Builder.scalarKind(text) {
            case .null: return .null
            case .bool(let b): return .bool(b)
            case .integer(let i): return .integer(i)
            case .number(let d): return .number(d)
            case .string(let s): return .string(s)
            default: return nil
            }
        }

        /// A scalar that is text (quoted, or plain and read as text); nil for anything else.
        private mutating func string(_ parser: inout yaml_parser_t) -> String? {
            guard let event = next(&parser), let (text, plain) = Self.scalar(event), Self.isText(text, plain: plain) else { return nil }
            return text
        }

        /// Whether a scalar is read as text: quoted, or plain and none of null, a boolean or a number.
        private static func isText(_ text: String, plain: Bool) -> Bool {
            guard plain else { return true }
            if case .string = Builder.scalarKind(text) { return true }
            return false
        }

        /// A scalar event's text and whether it is plain; nil for any other event, an anchor, a tag or a NUL.
        private static func scalar(_ event: yaml_event_t) -> (String, Bool)? {
            guard event.type == YAML_SCALAR_EVENT else { return nil }
            let s = event.data.scalar
            guard s.anchor == nil, s.tag == nil else { return nil }
            let raw = UnsafeRawBufferPointer(start: s.value, count: s.length)
            guard !raw.contains(0) else { return nil }
            return (String(decoding: raw, as: UTF8.self), s.style == YAML_PLAIN_SCALAR_STYLE)
        }

        /// A key's text; nil for anything but a scalar, and for a merge key (`<<`).
        private static func keyText(_ event: yaml_event_t) -> String? {
            guard let (text, plain) = scalar(event), !(plain && text == "<<") else { return nil }
            return text
        }
    }

    /// The line where `[`/`{` nesting exceeds the limit, ignoring quoted text; nil if it never does.
    ///
    /// Eight bytes at a time: a word with no bracket and no quote (outside quoted text), or without the closing
    /// quote (inside it), changes nothing and is passed over whole; in any other word only the marked bytes are
    /// taken, lowest first. The line is counted only when the limit is exceeded. (A byte at a time, this scan was
    /// three percent of a YAML render.)
    static func excessiveFlowNesting(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        var depth = 0
        var quote: UInt8 = 0  // 0: outside quoted text
        var index = 0
        let n = bytes.count
        func line(at end: Int) -> Int { 1 + UnsafeBufferPointer(rebasing: bytes[..<end]).reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) } }
        while index + 8 <= n {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            if quote != 0 && UTF8Bytes.equal(word, quote) == 0 {
                index += 8
                continue
            }
            // '{' and '[' differ only in bit 0x20, as do '}' and ']', and no other byte becomes them with it set.
            let folded = word | 0x2020_2020_2020_2020
            let doubles = UTF8Bytes.exactlyEqual(word, 0x22), singles = UTF8Bytes.exactlyEqual(word, 0x27)
            let opens = UTF8Bytes.exactlyEqual(folded, 0x7B), closes = UTF8Bytes.exactlyEqual(folded, 0x7D)
            var marks = doubles | singles | opens | closes
            while marks != 0 {
                let mark = marks & (0 &- marks)
                marks ^= mark
                if quote != 0 {
                    if mark & (quote == 0x22 ? doubles : singles) != 0 { quote = 0 }
                } else if mark & doubles != 0 {
                    quote = 0x22
                } else if mark & singles != 0 {
                    quote = 0x27
                } else if mark & opens != 0 {
                    depth += 1
                    if depth > InputLimits.maxDepth { return line(at: index + mark.trailingZeroBitCount >> 3 + 1) }
                } else {
                    depth = max(0, depth - 1)
                }
            }
            index += 8
        }
        while index < n {
            let b = base[index]
            index += 1
            if quote != 0 {
                if b == quote { quote = 0 }
                continue
            }
            switch b {
            case 0x22, 0x27: quote = b
            case 0x5B, 0x7B:
                depth += 1
                if depth > InputLimits.maxDepth { return line(at: index) }
            case 0x5D, 0x7D: depth = max(0, depth - 1)
            default: break
            }
        }
        return nil
    }
}
