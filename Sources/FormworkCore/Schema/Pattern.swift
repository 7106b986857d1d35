/// A `pattern` rule's regular expression, matched in time linear in the value's length whatever the pattern:
/// compiled to an automaton and run as a Pike VM (every state at once, one step per character), never by
/// backtracking. The dialect is the part of ECMAScript's that such an engine can run (docs/forms.md, "Patterns"):
/// literals, `.`, escapes (`\d \D \w \W \s \S`, `\t \n \r`, `\uXXXX`, an escaped punctuation character),
/// classes (`[a-z]`, `[^…]`, with those escapes), groups `( )` and `(?: )`, alternation `|`, quantifiers
/// `* + ? {n} {n,} {n,m}` (a lazy `?` after one is accepted: it changes no whole match), and `^` / `$` at the
/// ends. Back-references and look-arounds cannot be run in linear time and are refused with a message. Like
/// HTML's `pattern`, the whole value must match, and matching is by Unicode scalar.
public struct Pattern: Sendable {
    /// Why a pattern is refused: a sentence that names the problem and its place.
    public struct Problem: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// The largest automaton a pattern may compile to (counted repetitions are expanded).
    static let maximumStates = 20_000

    private let program: [Instruction]
    /// Whether a browser's `pattern` attribute (an ECMAScript regular expression with the `v` flag) reads the
    /// pattern as this engine does: false for a pattern whose classes hold characters the `v` flag requires to be
    /// escaped, which a browser would refuse (and so not check at all).
    public let isBrowserCompatible: Bool

    public init(_ source: String) throws(Problem) {
        var parser = Parser(Array(source.unicodeScalars))
        let node = try parser.parseWhole()
        var compiler = Compiler()
        try compiler.emit(node)
        compiler.program.append(.match)
        program = compiler.program
        isBrowserCompatible = parser.browserCompatible
    }

    /// Whether all of `s` matches.
    public func matchesWhole(_ s: String) -> Bool {
        let count = program.count
        var current = StateSet(count), next = StateSet(count)
        var stack: [Int] = []
        let scalars = Array(s.unicodeScalars)
        add(0, at: 0, length: scalars.count, to: &current, stack: &stack)
        for (position, scalar) in scalars.enumerated() {
            next.clear()
            for k in 0..<current.count {
                let pc = current.dense[k]
                switch program[pc] {
                case .scalar(let v) where v == scalar.value: add(pc + 1, at: position + 1, length: scalars.count, to: &next, stack: &stack)
                case .set(let set) where set.contains(scalar.value):
                    add(pc + 1, at: position + 1, length: scalars.count, to: &next, stack: &stack)
                case .any where scalar.value != 0x0A && scalar.value != 0x0D && scalar.value != 0x2028 && scalar.value != 0x2029:
                    add(pc + 1, at: position + 1, length: scalars.count, to: &next, stack: &stack)
                default: break
                }
            }
            swap(&current, &next)
            if current.count == 0 { return false }
        }
        for k in 0..<current.count where program[current.dense[k]] == .match { return true }
        return false
    }

    /// Adds `pc` and every state reached from it without reading a character (following splits, jumps and the
    /// anchors that hold at `position`).
    private func add(_ pc: Int, at position: Int, length: Int, to set: inout StateSet, stack: inout [Int]) {
        stack.append(pc)
        while let pc = stack.popLast() {
            guard set.insert(pc) else { continue }
            switch program[pc] {
            case .jump(let to): stack.append(to)
            case .split(let a, let b):
                stack.append(b)
                stack.append(a)
            case .start: if position == 0 { stack.append(pc + 1) }
            case .end: if position == length { stack.append(pc + 1) }
            default: break
            }
        }
    }

    enum Instruction: Equatable, Sendable {
        case scalar(UInt32), set(ScalarSet), any, split(Int, Int), jump(Int), start, end, match
    }

    /// A set of scalars: ranges, possibly negated.
    struct ScalarSet: Equatable, Sendable {
        var ranges: [ClosedRange<UInt32>] = []
        var negated = false
        func contains(_ v: UInt32) -> Bool {
            var inside = false
            for r in ranges where r.contains(v) {
                inside = true
                break
            }
            return inside != negated
        }
        static let digits = ScalarSet(ranges: [0x30...0x39])
        static let word = ScalarSet(ranges: [0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A])
        static let space = ScalarSet(ranges: [
            0x09...0x0D, 0x20...0x20, 0xA0...0xA0, 0x1680...0x1680, 0x2000...0x200A, 0x2028...0x2029, 0x202F...0x202F,
            0x205F...0x205F, 0x3000...0x3000, 0xFEFF...0xFEFF,
        ])
    }

    /// States in a set, in the order they were added, with constant-time membership (a sparse set).
    private struct StateSet {
        var dense: [Int], sparse: [Int], count = 0
        init(_ n: Int) {
            dense = Array(repeating: 0, count: n)
            sparse = Array(repeating: 0, count: n)
        }
        mutating func clear() { count = 0 }
        mutating func insert(_ v: Int) -> Bool {
            let i = sparse[v]
            if i < count && dense[i] == v { return false }
            sparse[v] = count
            dense[count] = v
            count += 1
            return true
        }
    }

    indirect enum Node {
        case empty, scalar(UInt32), set(ScalarSet), any, start, end
        case concat([Node]), alternation([Node])
        case repeated(Node, min: Int, max: Int?)
    }

    struct Parser {
        let s: [Unicode.Scalar]
        var i = 0
        var browserCompatible = true
        init(_ s: [Unicode.Scalar]) { self.s = s }

        func problem(_ text: String) -> Problem { Problem(description: "\(text) at character \(i + 1)") }

        mutating func parseWhole() throws(Problem) -> Node {
            let node = try alternation(depth: 0)
            if i < s.count { throw problem("unmatched ')'") }
            return node
        }

        mutating func alternation(depth: Int) throws(Problem) -> Node {
            guard depth < 100 else { throw problem("groups nested more than 100 deep") }
            var branches = [try concatenation(depth: depth)]
            while i < s.count && s[i] == "|" {
                i += 1
                branches.append(try concatenation(depth: depth))
            }
            return branches.count == 1 ? branches[0] : .alternation(branches)
        }

        mutating func concatenation(depth: Int) throws(Problem) -> Node {
            var items: [Node] = []
            while i < s.count && s[i] != "|" && s[i] != ")" {
                let atom = try self.atom(depth: depth)
                items.append(try quantified(atom))
            }
            return items.count == 1 ? items[0] : (items.isEmpty ? .empty : .concat(items))
        }

        mutating func quantified(_ atom: Node) throws(Problem) -> Node {
            guard i < s.count else { return atom }
            var node = atom
            switch s[i] {
            case "*": node = .repeated(atom, min: 0, max: nil); i += 1
            case "+": node = .repeated(atom, min: 1, max: nil); i += 1
            case "?": node = .repeated(atom, min: 0, max: 1); i += 1
            case "{":
                guard let (low, high) = try counts() else { return atom }
                node = .repeated(atom, min: low, max: high)
            default: return atom
            }
            if case .start = atom { throw problem("nothing to repeat") }
            if case .end = atom { throw problem("nothing to repeat") }
            if i < s.count && s[i] == "?" { i += 1 }  // lazy: the same whole matches
            if i < s.count && "*+?{".unicodeScalars.contains(s[i]) { throw problem("a quantifier cannot follow a quantifier") }
            return node
        }

        /// `{n}`, `{n,}`, `{n,m}` at `i`; nil (and `i` unchanged) when the brace is not one (then a literal `{`,
        /// which ECMAScript's Unicode mode refuses: so does this).
        mutating func counts() throws(Problem) -> (Int, Int?)? {
            let start = i
            i += 1
            func number() -> Int? {
                var n = 0, digits = 0
                while i < s.count, let d = Int(String(s[i])), s[i].isASCII {
                    n = min(n * 10 + d, 100_000)
                    digits += 1
                    i += 1
                }
                return digits > 0 ? n : nil
            }
            guard let low = number() else {
                i = start
                throw problem("'{' must begin a count such as {2,5}; write \\{ for the character")
            }
            var high: Int? = low
            if i < s.count && s[i] == "," {
                i += 1
                high = number()
            }
            guard i < s.count && s[i] == "}" else {
                i = start
                throw problem("'{' must begin a count such as {2,5}; write \\{ for the character")
            }
            i += 1
            if let high, high < low { throw problem("{\(low),\(high)}: the numbers are out of order") }
            if low > 1000 || (high ?? 0) > 1000 { throw problem("a count above 1000") }
            return (low, high)
        }

        mutating func atom(depth: Int) throws(Problem) -> Node {
            let c = s[i]
            switch c {
            case "(":
                i += 1
                if i + 1 < s.count && s[i] == "?" {
                    if s[i + 1] == ":" {
                        i += 2
                    } else if "=!<".unicodeScalars.contains(s[i + 1]) {
                        throw problem("look-arounds ((?= (?! (?<= (?<!) are not supported: they cannot be matched in linear time")
                    } else {
                        throw problem("unsupported group '(?\(s[i + 1])'")
                    }
                }
                let inner = try alternation(depth: depth + 1)
                guard i < s.count && s[i] == ")" else { throw problem("unclosed '('") }
                i += 1
                return inner
            case ")": throw problem("unmatched ')'")
            case "[": return try characterClass()
            case ".":
                i += 1
                return .any
            case "^":
                i += 1
                return .start
            case "$":
                i += 1
                return .end
            case "*", "+", "?": throw problem("nothing to repeat before '\(c)'")
            case "{": throw problem("'{' must begin a count such as {2,5}; write \\{ for the character")
            case "}", "]": throw problem("'\(c)' must be escaped: write \\\(c)")
            case "\\":
                i += 1
                let node = try escape(inClass: false)
                return node.map { .set($0) } ?? .scalar(lastEscaped)
            default:
                i += 1
                return .scalar(c.value)
            }
        }

        var lastEscaped: UInt32 = 0

        /// The escape after a backslash (at `i`): a set (`\d` …) or nil with `lastEscaped` set to the scalar.
        mutating func escape(inClass: Bool) throws(Problem) -> ScalarSet? {
            guard i < s.count else { throw problem("a pattern cannot end with '\\'") }
            let c = s[i]
            i += 1
            switch c {
            case "d": return .digits
            case "D": return negate(.digits)
            case "w": return .word
            case "W": return negate(.word)
            case "s": return .space
            case "S": return negate(.space)
            case "t": lastEscaped = 0x09
            case "n": lastEscaped = 0x0A
            case "r": lastEscaped = 0x0D
            case "f": lastEscaped = 0x0C
            case "v": lastEscaped = 0x0B
            case "0": lastEscaped = 0
            case "u":
                guard i + 4 <= s.count, let v = UInt32(String(String.UnicodeScalarView(s[i..<i + 4])), radix: 16) else {
                    throw problem("\\u needs four hexadecimal digits")
                }
                i += 4
                lastEscaped = v
            case "1"..."9": throw problem("back-references (\\\(c)) are not supported: they cannot be matched in linear time")
            case "b", "B":
                if inClass && c == "b" {
                    lastEscaped = 0x08
                } else {
                    throw problem("word boundaries (\\\(c)) are not supported")
                }
            case "k", "p", "P", "c", "x":
                throw problem("'\\\(c)' is not supported; see docs/forms.md, \"Patterns\"")
            default:
                guard c.isASCII, !c.properties.isAlphabetic, !("0"..."9").contains(c) else {
                    throw problem("unknown escape '\\\(c)'")
                }
                lastEscaped = c.value
            }
            return nil
        }

        func negate(_ set: ScalarSet) -> ScalarSet {
            var out = set
            out.negated.toggle()
            return out
        }

        mutating func characterClass() throws(Problem) -> Node {
            i += 1
            var set = ScalarSet()
            if i < s.count && s[i] == "^" {
                set.negated = true
                i += 1
            }
            var negatedParts: [ScalarSet] = []
            var first = true
            while true {
                guard i < s.count else { throw problem("unclosed '['") }
                let c = s[i]
                if c == "]" && !first { break }
                if c == "]" {  // "[]" matches nothing in ECMAScript
                    break
                }
                first = false
                // The `v` flag (browsers' `pattern`) requires these to be escaped inside a class.
                if "([{}/|".unicodeScalars.contains(c) || (c == "-" && i + 1 < s.count && s[i + 1] == "-") {
                    browserCompatible = false
                }
                var low: UInt32
                if c == "\\" {
                    i += 1
                    if let part = try escape(inClass: true) {
                        if part.negated { negatedParts.append(part) } else { set.ranges += part.ranges }
                        continue
                    }
                    low = lastEscaped
                } else {
                    low = c.value
                    i += 1
                }
                if i + 1 < s.count && s[i] == "-" && s[i + 1] != "]" {
                    i += 1
                    var high: UInt32
                    if s[i] == "\\" {
                        i += 1
                        if try escape(inClass: true) != nil { throw problem("a range cannot end in a class escape") }
                        high = lastEscaped
                    } else {
                        high = s[i].value
                        i += 1
                    }
                    guard low <= high else { throw problem("a range out of order") }
                    set.ranges.append(low...high)
                } else {
                    set.ranges.append(low...low)
                }
            }
            i += 1
            guard !negatedParts.isEmpty else { return .set(set) }
            // [\D…] and the like: the union of the positive part and each negated part, built as alternation.
            var branches: [Node] = [.set(set)]
            for part in negatedParts { branches.append(.set(part)) }
            if set.negated { throw problem("a negated class cannot hold \\D, \\W or \\S") }
            return .alternation(branches)
        }
    }

    struct Compiler {
        var program: [Instruction] = []

        mutating func emit(_ node: Node) throws(Problem) {
            guard program.count < Pattern.maximumStates else {
                throw Problem(
                    description: "the pattern is too large once its counts are expanded (at most \(Pattern.maximumStates) states)")
            }
            switch node {
            case .empty: break
            case .scalar(let v): program.append(.scalar(v))
            case .set(let set): program.append(.set(set))
            case .any: program.append(.any)
            case .start: program.append(.start)
            case .end: program.append(.end)
            case .concat(let items): for item in items { try emit(item) }
            case .alternation(let branches):
                var jumps: [Int] = []
                for (k, branch) in branches.enumerated() {
                    if k < branches.count - 1 {
                        let split = program.count
                        program.append(.split(split + 1, -1))
                        try emit(branch)
                        jumps.append(program.count)
                        program.append(.jump(-1))
                        program[split] = .split(split + 1, program.count)
                    } else {
                        try emit(branch)
                    }
                }
                for j in jumps { program[j] = .jump(program.count) }
            case .repeated(let inner, let low, let high):
                for _ in 0..<low { try emit(inner) }
                if let high {
                    // Up to high - low optional copies, each skipping to the end.
                    var splits: [Int] = []
                    for _ in low..<high {
                        splits.append(program.count)
                        program.append(.split(program.count + 1, -1))
                        try emit(inner)
                    }
                    for k in splits { program[k] = .split(k + 1, program.count) }
                } else {
                    let loop = program.count
                    program.append(.split(loop + 1, -1))
                    try emit(inner)
                    program.append(.jump(loop))
                    program[loop] = .split(loop + 1, program.count)
                }
            }
        }
    }
}
