import Testing

@testable import FormworkServer

/// A media type (`Content-Type`, a form-data part's header) read as bytes, against the same rules read a character
/// at a time (the reading it replaced), over values a client may send.
@Suite("Media types")
struct MediaTypeTests {
    /// The character-at-a-time reading: parts split at semicolons outside quotes, spaces and tabs trimmed.
    static func referenceParts(_ text: String, backslashEscapes: Bool) -> [String] {
        var parts: [String] = []
        var current = ""
        var quoted = false
        var escaped = false
        for c in text {
            if escaped {
                escaped = false
            } else if quoted && backslashEscapes && c == "\\" {
                escaped = true
            } else if c == "\"" {
                quoted.toggle()
            } else if c == ";" && !quoted {
                parts.append(current)
                current = ""
                continue
            }
            current.append(c)
        }
        parts.append(current)
        return parts
    }

    static func referenceTrim(_ text: Substring) -> String {
        var s = text
        while let f = s.first, f == " " || f == "\t" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" { s = s.dropLast() }
        return String(s)
    }

    static let values = [
        "", ";", ";;", "application/json", " Application/JSON ; charset=UTF-8", "text/plain;charset=\"utf-8\"",
        "multipart/form-data; boundary=----WebKitFormBoundary7MA4YWxkTrZu0gW",
        "multipart/form-data; boundary=\"a;b\"; x=1", "form-data; name=\"a\\\"b\"; filename=\"c:\\\\dir\\\\f.txt\"",
        "form-data; name=\"unterminated", "x; =novalue; novalue; k = v ; k=second", "\t text/html \t;\tq=0.9\t",
        "form-data; name=\"résumé\"; filename=\"日本語.pdf\"", "a/b; emoji=\"😀;😀\"; after=é", "\\\";\"\\;\";x",
        "   ", "a/b;\u{0}=1", String(repeating: "a;\"b\\\";", count: 200),
    ]

    @Test("parts and trimmed values are those of the character-at-a-time reading, with and without backslash escapes")
    func sameParts() {
        for value in Self.values {
            for escapes in [true, false] {
                #expect(
                    MediaType.splitOutsideQuotes(value, backslashEscapes: escapes) == Self.referenceParts(value, backslashEscapes: escapes))
            }
            for part in Self.referenceParts(value, backslashEscapes: true) {
                #expect(part.trimmingSpaces == Self.referenceTrim(Substring(part)), "\(part.debugDescription)")
            }
        }
    }

    @Test("the essence is lower-cased and trimmed; the first of a repeated parameter wins; quotes and escapes are read")
    func parameters() {
        let json = MediaType(" Application/JSON ; Charset=UTF-8")
        #expect(json.essence == "application/json" && json.parameters == ["charset": "UTF-8"])
        let part = MediaType("form-data; name=\"a\\\"b\"; filename=\"x;y.txt\"; name=second")
        #expect(part.essence == "form-data" && part.parameters == ["name": "a\"b", "filename": "x;y.txt"])
        // A browser's form-data header writes a backslash as itself.
        let browser = MediaType("form-data; name=\"c:\\dir\"; filename=\"é.pdf\"", backslashEscapes: false)
        #expect(browser.parameters == ["name": "c:\\dir", "filename": "é.pdf"])
        // A mark followed by a combining accent is still the mark: a field's bytes, as RFC 9110 reads them.
        #expect(MediaType.splitOutsideQuotes("a;\u{301}b") == ["a", "\u{301}b"])
    }
}
