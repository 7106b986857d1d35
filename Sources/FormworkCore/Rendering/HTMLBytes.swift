/// HTML written as UTF-8 bytes: Formwork's own markup from static strings, and text from a document or a pack
/// escaped on its way in (`text`). A field's HTML used to be built by string interpolation, a `String` per
/// attribute and per escaped value appended to another: about a sixth of an HTML render's CPU went to growing
/// and joining strings.
///
/// A handle on a `ByteBuffer`: a copy writes to the same bytes (a writer makes its own with `init`).
struct HTMLBytes {
    let bytes: ByteBuffer

    init(capacity: Int = 1 << 12) { bytes = ByteBuffer(capacity: capacity) }

    /// Markup of Formwork's own, as it is.
    @inline(__always)
    mutating func raw(_ markup: StaticString) { bytes.append(markup) }

    /// Text that is already HTML (the output of `RichText.html`) or cannot hold anything to escape (a
    /// number, a date): as it is.
    mutating func html(_ html: String) { bytes.append(html) }

    /// Text, escaped as `HTML.escape` escapes it.
    mutating func text(_ s: String) { UTF8Bytes.with(s) { HTML.appendEscaped($0, to: bytes) } }

    /// Text, escaped, with each line feed written as `<br>`.
    mutating func lines(_ s: String) { UTF8Bytes.with(s) { HTML.appendEscaped($0, to: bytes, lineBreaks: true) } }

    /// A decimal integer.
    mutating func int(_ value: Int) {
        guard value >= 0 && value < 10 else { return html(String(value)) }
        bytes.byte(0x30 &+ UInt8(truncatingIfNeeded: value))
    }

    mutating func append(_ other: HTMLBytes) { bytes.append(other.bytes) }

    var isEmpty: Bool { bytes.isEmpty }

    var string: String { bytes.string }

    /// Hands the bytes to `sink` and empties the buffer (keeping its capacity).
    mutating func flush(to sink: (UnsafeRawBufferPointer) -> Void) {
        guard !bytes.isEmpty else { return }
        bytes.withUnsafeBytes { sink($0) }
        bytes.removeAll()
    }
}

extension HTML {
    /// Appends `text` escaped: `&`, `<`, `>`, `"` and `'` as entities; C0 controls as their Control Pictures
    /// (U+2400 + the byte), DEL as U+2421 and the C1 controls (U+0080–U+009F, `C2 80`–`C2 9F` in UTF-8) as
    /// U+FFFD, as `TerminalText.safe` does; tabs, line feeds and carriage returns kept, or each line feed
    /// written as `<br>` when `lineBreaks`. `text` is valid UTF-8 (a Swift string's), so every other byte is
    /// copied as it is.
    static func appendEscaped(_ text: UnsafeBufferPointer<UInt8>, to out: ByteBuffer, lineBreaks: Bool = false) {
        // Most text has nothing to escape: copied whole.
        if !UTF8Bytes.mayNeedHTMLEscape(text) {
            out.append(text)
            return
        }
        var i = 0
        let count = text.count
        func put(_ s: StaticString) { out.append(s) }
        while i < count {
            let b = text[i]
            switch b {
            case 0x26: put("&amp;")
            case 0x3C: put("&lt;")
            case 0x3E: put("&gt;")
            case 0x22: put("&quot;")
            case 0x27: put("&#39;")
            case 0x0A: if lineBreaks { put("<br>") } else { out.byte(b) }
            case 0x09, 0x0D: out.byte(b)
            case 0x00..<0x20:
                // U+2400 + b: E2 90 (80 + b).
                out.byte(0xE2)
                out.byte(0x90)
                out.byte(0x80 &+ b)
            case 0x7F: put("\u{2421}")
            case 0xC2 where i + 1 < count && (0x80...0x9F).contains(text[i + 1]):
                put("\u{FFFD}")
                i += 2
                continue
            default: out.byte(b)
            }
            i += 1
        }
    }
}
