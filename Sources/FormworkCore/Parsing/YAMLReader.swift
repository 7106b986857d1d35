import Yams

/// Reads YAML (through Yams / libyaml) into the same node tree as JSON.
enum YAMLReader {
    static func parse(_ text: String) throws(ParseError) -> SourceNode {
        // libyaml's composer recurses per level: refuse pathological nesting before it does.
        if let line = excessiveFlowNesting(text) {
            throw ParseError(line: line, message: "nesting deeper than \(InputLimits.maxDepth) levels")
        }
        // Anchors, aliases, merge keys, tags, NUL characters and duplicate keys are refused from
        // the parser's events, before Yams composes (and would expand) anything.
        try YAMLGuard.check(text)
        let node: Yams.Node?
        do {
            node = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw describe(error)
        } catch {
            throw ParseError(line: nil, message: "\(error)")
        }
        guard let node else { return SourceNode(kind: .null, line: 1) }
        return try convert(node, depth: 0)
    }

    private static func describe(_ error: YamlError) -> ParseError {
        switch error {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
             .composer(let context, let problem, let mark, _):
            let text = [context?.text, problem].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ": ")
            return ParseError(line: mark.line, message: text)
        case .reader(let problem, _, _, _):
            return ParseError(line: nil, message: problem)
        case .duplicatedKeysInMapping(let duplicates, let context):
            return ParseError(line: context.mark.line, message: "duplicate key " + duplicates.map { "'\($0)'" }.joined(separator: ", "))
        default:
            return ParseError(line: nil, message: "\(error)")
        }
    }

    private static func convert(_ node: Yams.Node, depth: Int) throws(ParseError) -> SourceNode {
        let line = node.mark?.line
        guard depth <= InputLimits.maxDepth else {
            throw ParseError(line: line, message: "nesting deeper than \(InputLimits.maxDepth) levels")
        }
        switch node {
        case .scalar(let scalar):
            if scalar.style != .plain { return SourceNode(kind: .string(scalar.string), line: line) }
            if node.null != nil { return SourceNode(kind: .null, line: line) }
            if let b = node.bool { return SourceNode(kind: .bool(b), line: line, plainText: scalar.string) }
            if let i = node.int { return SourceNode(kind: .integer(Int64(i)), line: line, plainText: scalar.string) }
            if let d = node.float, scalar.string.first.map({ $0.isNumber || $0 == "-" || $0 == "+" || $0 == "." }) == true, d.isFinite {
                return SourceNode(kind: .number(d), line: line, plainText: scalar.string)
            }
            return SourceNode(kind: .string(scalar.string), line: line)
        case .sequence(let sequence):
            var items: [SourceNode] = []
            for item in sequence { items.append(try convert(item, depth: depth + 1)) }
            return SourceNode(kind: .array(items), line: line)
        case .mapping(let mapping):
            var members: [(key: String, value: SourceNode)] = []
            var seen: Set<String> = []
            for (key, value) in mapping {
                guard case .scalar(let k) = key else {
                    throw ParseError(line: key.mark?.line, message: "keys must be plain strings")
                }
                guard seen.insert(k.string).inserted else {
                    throw ParseError(line: key.mark?.line, message: "duplicate key '\(k.string)'")
                }
                members.append((k.string, try convert(value, depth: depth + 1)))
            }
            return SourceNode(kind: .object(members), line: line)
        case .alias:
            throw ParseError(line: line, message: "aliases are not supported in form documents")
        }
    }

    /// The line where `[`/`{` nesting exceeds the limit, ignoring quoted text; nil if it never does.
    private static func excessiveFlowNesting(_ text: String) -> Int? {
        var depth = 0, line = 1
        var quote: UInt8? = nil
        for b in text.utf8 {
            if b == 0x0A { line += 1 }
            if let q = quote { if b == q { quote = nil }; continue }
            switch b {
            case 0x22, 0x27: quote = b
            case 0x5B, 0x7B: depth += 1; if depth > InputLimits.maxDepth { return line }
            case 0x5D, 0x7D: depth = max(0, depth - 1)
            default: break
            }
        }
        return nil
    }
}
