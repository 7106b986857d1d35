import CYaml

/// Reads a YAML text's events with libyaml before anything is composed, and refuses
/// what a form document never needs and an attacker would use: anchors, aliases
/// and merge keys (a 400-byte "billion laughs" expands to gigabytes once composed),
/// tags (`!!binary`, `!secret`), NUL characters, duplicate keys and nesting past
/// `InputLimits.maxDepth`. Each problem names its JSON pointer and line.
///
/// The scan is one pass over the events: linear time, memory bounded by nesting depth
/// and the keys of the open mappings.
enum YAMLGuard {
    private enum Frame {
        case mapping(expectingKey: Bool, key: String?, keys: Set<String>)
        case sequence(index: Int)
    }

    static func check(_ text: String) throws(ParseError) {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { throw ParseError(line: nil, message: "the YAML parser could not start") }
        defer { yaml_parser_delete(&parser) }
        var bytes = Array(text.utf8)
        try bytes.withUnsafeMutableBufferPointer { (buffer) throws(ParseError) in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            var stack: [Frame] = []

            /// The pointer of the node being read (RFC 6901), built only when a problem is reported.
            func pointer(includingKey: Bool = true) -> String {
                var out = ""
                for frame in stack {
                    switch frame {
                    case .mapping(_, let key?, _): out += "/" + Pointer.escape(key)
                    case .mapping: break
                    case .sequence(let index): out += "/\(index)"
                    }
                }
                return out
            }
            func fail(_ message: String, _ mark: yaml_mark_t) -> ParseError {
                let at = pointer()
                return ParseError(line: Int(mark.line) + 1, message: (at.isEmpty ? "" : at + ": ") + message)
            }
            /// A value (scalar or whole collection) was read: the parent moves on.
            func advance() {
                guard let last = stack.indices.last else { return }
                switch stack[last] {
                case .mapping(_, _, let keys): stack[last] = .mapping(expectingKey: true, key: nil, keys: keys)
                case .sequence(let index): stack[last] = .sequence(index: index + 1)
                }
            }
            func checkNode(anchor: UnsafeMutablePointer<yaml_char_t>?, tag: UnsafeMutablePointer<yaml_char_t>?, mark: yaml_mark_t) throws(ParseError) {
                if let anchor {
                    throw fail("YAML anchors (&\(String(cString: anchor))) are not allowed in form documents; write the value out", mark)
                }
                if let tag {
                    var name = String(cString: tag)
                    if name.hasPrefix("tag:yaml.org,2002:") { name = "!!" + name.dropFirst("tag:yaml.org,2002:".count) }
                    throw fail("YAML tags (\(name)) are not allowed in form documents; write the value plainly", mark)
                }
            }
            var event = yaml_event_t()
            while true {
                guard yaml_parser_parse(&parser, &event) == 1 else {
                    // Syntax errors are left to the composer, which words them with context.
                    return
                }
                defer { yaml_event_delete(&event) }
                let mark = event.start_mark
                switch event.type {
                case YAML_STREAM_END_EVENT:
                    return
                case YAML_ALIAS_EVENT:
                    let name = event.data.alias.anchor.map { String(cString: $0) } ?? ""
                    throw fail("YAML aliases (*\(name)) are not allowed in form documents; write the value out", mark)
                case YAML_SCALAR_EVENT:
                    let s = event.data.scalar
                    try checkNode(anchor: s.anchor, tag: s.tag, mark: mark)
                    let value = UnsafeRawBufferPointer(start: s.value, count: s.length)
                    if value.contains(0) {
                        throw fail("a NUL character is not allowed in a string; remove it", mark)
                    }
                    if let last = stack.indices.last, case .mapping(true, _, var keys) = stack[last] {
                        let key = String(decoding: value, as: UTF8.self)
                        if key == "<<" && s.style == YAML_PLAIN_SCALAR_STYLE {
                            stack[last] = .mapping(expectingKey: false, key: key, keys: keys)
                            throw fail("YAML merge keys (<<) are not allowed in form documents; write the keys out", mark)
                        }
                        guard keys.insert(key).inserted else {
                            stack[last] = .mapping(expectingKey: false, key: key, keys: keys)
                            throw fail("duplicate key '\(key)'", mark)
                        }
                        stack[last] = .mapping(expectingKey: false, key: key, keys: keys)
                    } else {
                        advance()
                    }
                case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
                    let isMapping = event.type == YAML_MAPPING_START_EVENT
                    if isMapping { try checkNode(anchor: event.data.mapping_start.anchor, tag: event.data.mapping_start.tag, mark: mark) }
                    else { try checkNode(anchor: event.data.sequence_start.anchor, tag: event.data.sequence_start.tag, mark: mark) }
                    if let last = stack.indices.last, case .mapping(true, _, let keys) = stack[last] {
                        // A collection used as a key: the reader refuses it later with its own message.
                        stack[last] = .mapping(expectingKey: false, key: "?", keys: keys)
                    }
                    guard stack.count < InputLimits.maxDepth else {
                        throw fail("nesting deeper than \(InputLimits.maxDepth) levels", mark)
                    }
                    stack.append(isMapping ? .mapping(expectingKey: true, key: nil, keys: []) : .sequence(index: 0))
                case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                    if !stack.isEmpty { stack.removeLast() }
                    advance()
                default:
                    break
                }
            }
        }
    }
}
