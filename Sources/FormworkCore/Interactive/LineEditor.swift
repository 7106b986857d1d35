/// The text being edited in a field, with a cursor: the editing keys of a shell's line
/// editor (Emacs bindings) and, for text views, several lines.
///
/// The text is kept as characters (grapheme clusters), so the cursor never stops inside
/// an accented letter, an emoji or a flag.
struct LineEditor: Equatable {
    private(set) var characters: [Character]
    /// Index in `characters` the cursor stands before.
    private(set) var cursor: Int
    let multiline: Bool

    init(_ text: String, multiline: Bool = false) {
        characters = Array(text)
        cursor = characters.count
        self.multiline = multiline
    }

    var text: String { String(characters) }

    enum Outcome: Equatable {
        /// The text changed.
        case edited
        /// Only the cursor moved.
        case moved
        /// The key means nothing here (the form handles it).
        case ignored
    }

    /// Applies an editing key. `accept` decides whether typed text may go in (keyboard
    /// filters, maximum length); it gets the text that would be inserted.
    mutating func handle(_ key: Key, accept: (String) -> Bool = { _ in true }) -> Outcome {
        switch key {
        case .character(let c): return insert(String(c), accept: accept)
        case .paste(let text):
            let cleaned = multiline ? text.replacingCRLF() : text.split(whereSeparator: \.isNewline).joined(separator: " ")
            return insert(cleaned, accept: accept)
        case .enter where multiline: return insert("\n", accept: { _ in true })
        case .left, .control("b"): return move(to: cursor - 1)
        case .right, .control("f"): return move(to: cursor + 1)
        case .home, .control("a"): return move(to: lineStart(cursor))
        case .end, .control("e"): return move(to: lineEnd(cursor))
        case .wordLeft: return move(to: wordStart(before: cursor))
        case .wordRight: return move(to: wordEnd(after: cursor))
        case .backspace, .control("h"):
            guard cursor > 0 else { return .ignored }
            characters.remove(at: cursor - 1)
            cursor -= 1
            return .edited
        case .delete, .control("d"):
            guard cursor < characters.count else { return .ignored }
            characters.remove(at: cursor)
            return .edited
        case .control("k"):
            let end = lineEnd(cursor)
            guard end > cursor else { return .ignored }
            characters.removeSubrange(cursor..<end)
            return .edited
        case .control("u"):
            let start = lineStart(cursor)
            guard cursor > start else { return .ignored }
            characters.removeSubrange(start..<cursor)
            cursor = start
            return .edited
        case .control("w"):
            let start = wordStart(before: cursor)
            guard cursor > start else { return .ignored }
            characters.removeSubrange(start..<cursor)
            cursor = start
            return .edited
        case .up where multiline:
            guard let (line, column) = position(), line > 0 else { return .ignored }
            return move(to: index(line: line - 1, column: column))
        case .down where multiline:
            guard let (line, column) = position(), line < lines.count - 1 else { return .ignored }
            return move(to: index(line: line + 1, column: column))
        default: return .ignored
        }
    }

    /// Replaces the whole text (the cursor goes to its end).
    mutating func set(_ text: String) {
        characters = Array(text)
        cursor = characters.count
    }

    /// Applies `transform` to the text (capitalisation as typed), keeping the cursor.
    mutating func reshape(_ transform: (String) -> String) {
        let shaped = Array(transform(text))
        guard shaped.count == characters.count else { return }
        characters = shaped
    }

    private mutating func insert(_ text: String, accept: (String) -> Bool) -> Outcome {
        guard !text.isEmpty, accept(text) else { return .ignored }
        let new = Array(text)
        characters.insert(contentsOf: new, at: cursor)
        cursor += new.count
        return .edited
    }

    private mutating func move(to index: Int) -> Outcome {
        let clamped = max(0, min(characters.count, index))
        guard clamped != cursor else { return .ignored }
        cursor = clamped
        return .moved
    }

    private func lineStart(_ i: Int) -> Int {
        guard multiline else { return 0 }
        var j = i
        while j > 0 && characters[j - 1] != "\n" { j -= 1 }
        return j
    }

    private func lineEnd(_ i: Int) -> Int {
        guard multiline else { return characters.count }
        var j = i
        while j < characters.count && characters[j] != "\n" { j += 1 }
        return j
    }

    private func wordStart(before i: Int) -> Int {
        var j = i
        while j > 0 && !characters[j - 1].isWordCharacter { j -= 1 }
        while j > 0 && characters[j - 1].isWordCharacter { j -= 1 }
        return j
    }

    private func wordEnd(after i: Int) -> Int {
        var j = i
        while j < characters.count && !characters[j].isWordCharacter { j += 1 }
        while j < characters.count && characters[j].isWordCharacter { j += 1 }
        return j
    }

    /// The lines of the text (one for a single-line field).
    var lines: [String] { multiline ? text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) : [text] }

    /// The cursor as (line, column in characters).
    func position() -> (Int, Int)? {
        var line = 0, column = 0
        for c in characters[0..<cursor] {
            if c == "\n" {
                line += 1
                column = 0
            } else {
                column += 1
            }
        }
        return (line, column)
    }

    /// The cursor's terminal column within its line (wide characters count two).
    var cursorColumns: Int {
        characters[lineStart(cursor)..<cursor].reduce(0) { $0 + $1.columns }
    }

    private func index(line: Int, column: Int) -> Int {
        var start = 0, current = 0
        while current < line, start < characters.count {
            if characters[start] == "\n" { current += 1 }
            start += 1
        }
        return min(start + column, lineEnd(start))
    }
}

extension Character {
    fileprivate var isWordCharacter: Bool { isLetter || isNumber || self == "_" }
}

extension String {
    fileprivate func replacingCRLF() -> String {
        var out = ""
        var previousCR = false
        for scalar in unicodeScalars {
            if scalar == "\r" {
                out.append("\n")
                previousCR = true
                continue
            }
            if scalar == "\n" && previousCR {
                previousCR = false
                continue
            }
            previousCR = false
            out.unicodeScalars.append(scalar)
        }
        return out
    }
}
