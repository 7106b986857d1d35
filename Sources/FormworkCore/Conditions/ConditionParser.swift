/// A condition that does not parse or does not fit the form: the column (1-based, in
/// characters) and what is wrong.
public struct ConditionError: Error, Sendable, Equatable {
    public let column: Int
    public let message: String
}

/// Parses the condition language (see `Condition`) and checks it against the fields it
/// names: unknown fields and comparisons between different kinds of value are refused.
public struct ConditionParser {
    enum Token: Equatable {
        case number(Double, isInteger: Bool)
        case string(String)
        case word(String)
        case symbol(String)
        case end
    }

    private var tokens: [(token: Token, column: Int)] = []
    private var position = 0
    /// The kind of each field's value, by field id; nil accepts any id (for tests of the syntax alone).
    let fields: [String: ConditionType]?

    /// Longest accepted expression, in characters, and deepest nesting.
    static let maxLength = 2000
    static let maxDepth = 64

    public static func parse(_ text: String, fields: [String: ConditionType]?) throws(ConditionError) -> Condition {
        var parser = ConditionParser(fields: fields)
        try parser.tokenize(text)
        let (condition, _) = try parser.expression(depth: 0)
        guard parser.current.token == .end else { throw parser.error("unexpected \(parser.describe(parser.current.token))") }
        return condition
    }

    init(fields: [String: ConditionType]?) { self.fields = fields }

    /// The kind of value a parsed expression makes (`bool` for a test, `number` for arithmetic).
    static func kind(of c: Condition, fields: [String: ConditionType]) -> ConditionType {
        switch c {
        case .literal(let v?):
            switch v {
            case .string: .text
            case .integer, .number: .number
            case .bool: .bool
            case .stringList: .list
            }
        case .literal(nil): .null
        case .list: .list
        case .field(let id): fields[id] ?? .any
        case .arithmetic: .number
        case .not, .and, .or, .compare, .isIn, .isEmpty: .bool
        }
    }

    var current: (token: Token, column: Int) { tokens[position] }

    func error(_ message: String, at column: Int? = nil) -> ConditionError {
        ConditionError(column: column ?? current.column, message: message)
    }

    func describe(_ token: Token) -> String {
        switch token {
        case .number(let d, _): "number \(NumberText.format(d))"
        case .string(let s): "string '\(s)'"
        case .word(let w): "'\(w)'"
        case .symbol(let s): "'\(s)'"
        case .end: "end of the expression"
        }
    }

    mutating func tokenize(_ text: String) throws(ConditionError) {
        let chars = Array(text)
        guard chars.count <= Self.maxLength else {
            throw ConditionError(column: Self.maxLength, message: "the expression is longer than \(Self.maxLength) characters")
        }
        var i = 0
        // A '-' right after a value is a subtraction (`a -1`); elsewhere, before a digit, it is a number's sign.
        var followsOperand: Bool {
            switch tokens.last?.token {
            case .number?, .string?: true
            case .word(let w)?: !["and", "or", "not", "in", "is"].contains(w)
            case .symbol(let s)?: s == ")" || s == "]"
            default: false
            }
        }
        func isWordStart(_ c: Character) -> Bool { c.isASCII && (c.isLetter || c == "_") }
        func isWord(_ c: Character) -> Bool { c.isASCII && (c.isLetter || c.isNumber || c == "_" || c == "-") }
        while i < chars.count {
            let c = chars[i]
            let column = i + 1
            if c == " " || c == "\t" || c == "\n" || c == "\r" {
                i += 1
            } else if c == "'" || c == "\"" {
                var s = ""
                i += 1
                var closed = false
                while i < chars.count {
                    if chars[i] == "\\" && i + 1 < chars.count {
                        s.append(chars[i + 1])
                        i += 2
                    } else if chars[i] == c {
                        closed = true
                        i += 1
                        break
                    } else {
                        s.append(chars[i])
                        i += 1
                    }
                }
                guard closed else { throw ConditionError(column: column, message: "the string is not closed; end it with \(c)") }
                tokens.append((.string(s), column))
            } else if c.isASCII
                && (c.isNumber || (c == "-" && !followsOperand && i + 1 < chars.count && chars[i + 1].isASCII && chars[i + 1].isNumber))
            {
                var j = i + 1
                while j < chars.count && chars[j].isASCII && (chars[j].isNumber || chars[j] == "." || chars[j] == "e" || chars[j] == "E") {
                    j += 1
                }
                let literal = String(chars[i..<j])
                guard let value = Double(literal), value.isFinite else {
                    throw ConditionError(column: column, message: "'\(literal)' is not a number")
                }
                tokens.append((.number(value, isInteger: !literal.contains(where: { $0 == "." || $0 == "e" || $0 == "E" })), column))
                i = j
            } else if isWordStart(c) {
                var j = i + 1
                // `address.city`: a field of an object is named by its object and its id.
                while j < chars.count && (isWord(chars[j]) || (chars[j] == "." && j + 1 < chars.count && isWordStart(chars[j + 1]))) {
                    j += 1
                }
                tokens.append((.word(String(chars[i..<j])), column))
                i = j
            } else {
                let two = i + 1 < chars.count ? String(chars[i...i + 1]) : ""
                if ["==", "!=", "<=", ">="].contains(two) {
                    tokens.append((.symbol(two), column))
                    i += 2
                } else if "<>()[],+-*/".contains(c) {
                    tokens.append((.symbol(String(c)), column))
                    i += 1
                } else if c == "=" {
                    throw ConditionError(column: column, message: "'=' is not an operator; compare with '=='")
                } else if c == "&" || c == "|" || c == "!" {
                    let word = c == "&" ? "and" : c == "|" ? "or" : "not"
                    throw ConditionError(column: column, message: "'\(c)' is not an operator; write '\(word)'")
                } else {
                    throw ConditionError(column: column, message: "unexpected character '\(c)'")
                }
            }
        }
        tokens.append((.end, chars.count + 1))
    }

    mutating func advance() -> (token: Token, column: Int) {
        defer { position += 1 }
        return tokens[position]
    }

    func isWord(_ w: String) -> Bool { current.token == .word(w) }

    mutating func expression(depth: Int) throws(ConditionError) -> (Condition, ConditionType) {
        guard depth < Self.maxDepth else { throw error("the expression nests deeper than \(Self.maxDepth) levels") }
        var (left, type) = try and(depth: depth)
        while isWord("or") {
            _ = advance()
            let (right, _) = try and(depth: depth)
            left = .or(left, right)
            type = .bool
        }
        return (left, type)
    }

    mutating func and(depth: Int) throws(ConditionError) -> (Condition, ConditionType) {
        var (left, type) = try not(depth: depth)
        while isWord("and") {
            _ = advance()
            let (right, _) = try not(depth: depth)
            left = .and(left, right)
            type = .bool
        }
        return (left, type)
    }

    mutating func not(depth: Int) throws(ConditionError) -> (Condition, ConditionType) {
        if isWord("not") {
            _ = advance()
            guard depth < Self.maxDepth else { throw error("the expression nests deeper than \(Self.maxDepth) levels") }
            let (inner, _) = try not(depth: depth + 1)
            return (.not(inner), .bool)
        }
        return try comparison(depth: depth)
    }

    mutating func comparison(depth: Int) throws(ConditionError) -> (Condition, ConditionType) {
        let leftColumn = current.column
        let (left, leftType) = try sum(depth: depth)
        // `is empty` applies to every kind: a number or true/false is empty when absent.
        if case .symbol(let s) = current.token, let op = Condition.Comparison(rawValue: s) {
            _ = advance()
            let rightColumn = current.column
            let (right, rightType) = try sum(depth: depth)
            try checkComparable(leftType, rightType, op: op, column: rightColumn, left: left, right: right)
            return (.compare(left, op, right), .bool)
        }
        if isWord("is") {
            _ = advance()
            var negate = false
            if isWord("not") {
                _ = advance()
                negate = true
            }
            guard isWord("empty") else { throw error("expected 'empty' after 'is'") }
            _ = advance()
            let test = Condition.isEmpty(left)
            return (negate ? .not(test) : test, .bool)
        }
        var negate = false
        if isWord("not"), position + 1 < tokens.count, tokens[position + 1].token == .word("in") {
            _ = advance()
            negate = true
        }
        if isWord("in") {
            _ = advance()
            let rightColumn = current.column
            let (right, rightType) = try operand(depth: depth)
            guard rightType == .list || rightType == .any else {
                throw error(
                    "'in' needs a list on its right, such as ['a', 'b'] or a list field, not \(describeType(rightType, right))",
                    at: rightColumn)
            }
            guard leftType != .bool else { throw error("'in' tests text, numbers or lists, not true/false", at: leftColumn) }
            let test = Condition.isIn(left, right)
            return (negate ? .not(test) : test, .bool)
        }
        return (left, leftType)
    }

    mutating func sum(depth: Int) throws(ConditionError) -> (Condition, ConditionType) {
        let column = current.column
        var (left, type) = try product(depth: depth)
        while case .symbol(let s) = current.token, s == "+" || s == "-" {
            let opColumn = advance().column
            let (right, rightType) = try product(depth: depth)
            try checkArithmetic(type, rightType, s, column: column, opColumn: opColumn, left: left, right: right)
            left = .arithmetic(left, s == "+" ? .add : .subtract, right)
            type = .number
        }
        return (left, type)
    }

    mutating func product(depth: Int) throws(ConditionError) -> (Condition, ConditionType) {
        let column = current.column
        var (left, type) = try unary(depth: depth)
        while case .symbol(let s) = current.token, s == "*" || s == "/" {
            let opColumn = advance().column
            let (right, rightType) = try unary(depth: depth)
            try checkArithmetic(type, rightType, s, column: column, opColumn: opColumn, left: left, right: right)
            left = .arithmetic(left, s == "*" ? .multiply : .divide, right)
            type = .number
        }
        return (left, type)
    }

    mutating func unary(depth: Int) throws(ConditionError) -> (Condition, ConditionType) {
        guard current.token == .symbol("-") else { return try operand(depth: depth) }
        let column = advance().column
        guard depth < Self.maxDepth else { throw error("the expression nests deeper than \(Self.maxDepth) levels", at: column) }
        let (inner, type) = try unary(depth: depth + 1)
        try checkArithmetic(.number, type, "-", column: column, opColumn: column, left: .literal(.integer(0)), right: inner)
        return (.arithmetic(.literal(.integer(0)), .subtract, inner), .number)
    }

    /// Arithmetic takes numbers (or fields of any kind, checked when evaluated).
    func checkArithmetic(
        _ a: ConditionType, _ b: ConditionType, _ op: String, column: Int, opColumn: Int, left: Condition, right: Condition
    ) throws(ConditionError) {
        for (type, operand, at) in [(a, left, column), (b, right, opColumn + 1)] where type != .number && type != .any {
            throw error("'\(op)' works on numbers, not \(describeType(type, operand))", at: at)
        }
    }

    func describeType(_ type: ConditionType, _ c: Condition) -> String {
        let what: String =
            switch type {
            case .text: "text"
            case .number: "a number"
            case .bool: "true/false"
            case .list: "a list"
            case .null: "null"
            case .any: "a value"
            }
        if case .field(let id) = c { return "'\(id)' (\(what))" }
        return what
    }

    func checkComparable(
        _ a: ConditionType, _ b: ConditionType, op: Condition.Comparison, column: Int, left: Condition, right: Condition
    ) throws(ConditionError) {
        if a == .any || b == .any { return }
        let ordering = op != .equal && op != .notEqual
        if ordering {
            guard a == b && (a == .number || a == .text) else {
                throw error(
                    "'\(op.rawValue)' orders two numbers or two texts; it cannot compare \(describeType(a, left)) with \(describeType(b, right))",
                    at: column)
            }
            return
        }
        if a == .null || b == .null || a == b { return }
        throw error(
            "\(describeType(a, left)) is compared with \(describeType(b, right)); they can never be equal (quote text, leave numbers bare)",
            at: column)
    }

    mutating func operand(depth: Int) throws(ConditionError) -> (Condition, ConditionType) {
        let (token, column) = advance()
        switch token {
        case .number(let d, let isInteger):
            if isInteger, let n = Int64(exactly: d) { return (.literal(.integer(n)), .number) }
            return (.literal(.number(d)), .number)
        case .string(let s): return (.literal(.string(s)), .text)
        case .word("true"): return (.literal(.bool(true)), .bool)
        case .word("false"): return (.literal(.bool(false)), .bool)
        case .word("null"): return (.literal(nil), .null)
        case .word(let w) where ["and", "or", "not", "in", "is", "empty"].contains(w):
            throw error("expected a value or a field id, found '\(w)'", at: column)
        case .word(let id):
            guard let fields else { return (.field(id), .any) }
            guard let type = fields[id] else {
                var message = "unknown field '\(id)'"
                if let suggestion = EditDistance.suggestion(for: id, in: Array(fields.keys)) {
                    message += "; did you mean '\(suggestion)'?"
                }
                throw error(message, at: column)
            }
            return (.field(id), type)
        case .symbol("("):
            guard depth < Self.maxDepth else { throw error("the expression nests deeper than \(Self.maxDepth) levels", at: column) }
            let inner = try expression(depth: depth + 1)
            guard current.token == .symbol(")") else { throw error("expected ')' to close the '(' at column \(column)") }
            _ = advance()
            return inner
        case .symbol("["):
            var items: [Value] = []
            if current.token != .symbol("]") {
                while true {
                    let (item, itemColumn) = advance()
                    switch item {
                    case .string(let s): items.append(.string(s))
                    case .number(let d, let isInteger):
                        items.append(isInteger && Int64(exactly: d) != nil ? .integer(Int64(d)) : .number(d))
                    case .word("true"): items.append(.bool(true))
                    case .word("false"): items.append(.bool(false))
                    default: throw error("a list holds texts, numbers or true/false, not \(describe(item))", at: itemColumn)
                    }
                    if current.token == .symbol(",") {
                        _ = advance()
                        continue
                    }
                    break
                }
            }
            guard current.token == .symbol("]") else { throw error("expected ',' or ']' in the list that starts at column \(column)") }
            _ = advance()
            return (.list(items), .list)
        default:
            throw error("expected a value or a field id, found \(describe(token))", at: column)
        }
    }
}
