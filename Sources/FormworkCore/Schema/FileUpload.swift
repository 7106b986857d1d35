/// A field that takes a file (`file:` on a field whose value is a string): which types it accepts and how large a
/// file may be. The field's value is the file's name (a path in a values file given to `validate`); the file itself
/// travels beside the values: a page posts it as `multipart/form-data` and the server stores it next to the
/// submission with its SHA-256.
///
/// A file's type is **sniffed from its first bytes**, never taken from its name or from what the browser says: a
/// page renamed `cv.pdf` is refused by a field that accepts PDF alone.
public struct FileUpload: Sendable, Equatable {
    /// Accepted media types (`application/pdf`, `image/*`); empty: any file.
    public let accept: [String]
    /// Most bytes a file may have.
    public let maxBytes: Int

    /// The largest `maxBytes` a document may ask for (the server's body limit is raised to fit a form's uploads).
    public static let largestMaxBytes = 64 << 20
    /// `maxBytes` when the document names none.
    public static let defaultMaxBytes = 10 << 20

    public init(accept: [String] = [], maxBytes: Int = FileUpload.defaultMaxBytes) {
        self.accept = accept
        self.maxBytes = maxBytes
    }

    /// The types a file of these bytes is, as sniffed: the media types of the signatures Formwork knows, `text/plain`
    /// for UTF-8 text without control characters other than tab and line breaks, `application/octet-stream`
    /// otherwise. Reads at most the first 4 KiB.
    public static func sniff(_ bytes: [UInt8]) -> String { sniff(head: Array(bytes.prefix(4096)), size: bytes.count) }

    /// `sniff` of a file of `size` bytes whose first bytes (up to 4 KiB) are `head`.
    public static func sniff(head: [UInt8], size: Int) -> String {
        func starts(_ signature: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + signature.count && Array(head[offset..<(offset + signature.count)]) == signature
        }
        for (type, signature, offset) in signatures where starts(signature, at: offset) {
            if type == "image/webp" && !starts(Array("RIFF".utf8)) { continue }
            return type
        }
        if head.isEmpty { return "application/octet-stream" }
        // Text: valid UTF-8 (a multi-byte character cut at 4 KiB is forgiven) without NUL or other controls.
        var text = head[...]
        var dropped = 0
        while size > head.count, dropped < 3, String(validating: text, as: UTF8.self) == nil {
            text = text.dropLast()
            dropped += 1
        }
        guard String(validating: text, as: UTF8.self) != nil,
            !text.contains(where: { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D || $0 == 0x7F })
        else { return "application/octet-stream" }
        return "text/plain"
    }

    /// (media type, signature, offset): PDF, PNG, JPEG, GIF, WebP, ZIP-based documents are `application/zip`.
    static let signatures: [(String, [UInt8], Int)] = [
        ("application/pdf", Array("%PDF-".utf8), 0),
        ("image/png", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], 0),
        ("image/jpeg", [0xFF, 0xD8, 0xFF], 0),
        ("image/gif", Array("GIF87a".utf8), 0),
        ("image/gif", Array("GIF89a".utf8), 0),
        ("image/webp", Array("WEBP".utf8), 8),
        ("application/zip", [0x50, 0x4B, 0x03, 0x04], 0),
    ]

    /// The media types `accept` may name, each with the extensions a file picker offers for it.
    public static let knownTypes: [(type: String, extensions: [String], words: String)] = [
        ("application/pdf", [".pdf"], "PDF"),
        ("image/png", [".png"], "PNG"),
        ("image/jpeg", [".jpg", ".jpeg"], "JPEG"),
        ("image/gif", [".gif"], "GIF"),
        ("image/webp", [".webp"], "WebP"),
        ("application/zip", [".zip"], "ZIP"),
        ("text/plain", [".txt"], "plain text"),  // translated where shown (`words`)
    ]

    /// Whether an `accept` entry is one Formwork can sniff: a known type, or `image/*`.
    public static func isKnown(_ entry: String) -> Bool {
        entry == "image/*" || knownTypes.contains { $0.type == entry }
    }

    /// Whether a file sniffed as `type` is accepted.
    public func accepts(_ type: String) -> Bool {
        accept.isEmpty || accept.contains { $0 == type || $0 == "image/*" && type.hasPrefix("image/") }
    }

    /// HTML's `accept`: the types and their extensions (a picker filters by either).
    public var htmlAccept: String {
        accept.flatMap { entry in [entry] + (Self.knownTypes.first { $0.type == entry }?.extensions ?? []) }.joined(separator: ",")
    }

    /// "PDF or PNG, at most 2 MB": what a person is told before choosing.
    public var summary: String {
        let words = accept.map { entry in
            entry == "image/*" ? loc("an image") : Self.knownTypes.first { $0.type == entry }.map { Self.words($0.words) } ?? entry
        }
        let kinds: String
        switch words.count {
        case 0: kinds = loc("Any file")
        case 1: kinds = words[0]
        default: kinds = loc("{0} or {1}", words.dropLast().joined(separator: ", "), words.last!)
        }
        return loc("{0}, at most {1}", kinds, Self.size(maxBytes))
    }

    /// `2 MB`, `512 KB`, `300 bytes` (decimal units, as file managers show them).
    public static func size(_ bytes: Int) -> String {
        if bytes >= 1_000_000 { return loc("{0} MB", NumberText.format((Double(bytes) / 100_000).rounded() / 10)) }
        if bytes >= 1000 { return loc("{0} KB", NumberText.format((Double(bytes) / 100).rounded() / 10)) }
        return locPlural(bytes, one: "{0} byte", other: "{0} bytes", bytes)
    }

    /// A known type's name in the current language (the names of formats are the same in every language but one).
    static func words(_ english: String) -> String {
        english == "plain text" ? loc("plain text") : english
    }

    /// `{"accept": [...], "maxBytes": n}`, as the JSON view tree and the values schema write it.
    package var json: JSON {
        .object([("accept", .array(accept.map(JSON.string))), ("maxBytes", .integer(Int64(maxBytes)))])
    }

    /// Why a file of `size` bytes sniffed as `type` is refused by this field (nil: accepted). `label` names the field.
    public func problem(size: Int, type: String, label: String) -> String? {
        if size > maxBytes { return loc("{0}: the file is {1}; this field takes {2}.", label, Self.size(size), summary) }
        if !accepts(type) {
            guard let known = Self.knownTypes.first(where: { $0.type == type }) else {
                return loc(
                    "{0}: the file is of a type Formwork does not recognise (read from its content, not its name); this field takes {1}.",
                    label, summary)
            }
            return loc(
                "{0}: the file is {1} (read from its content, not its name); this field takes {2}.", label, Self.words(known.words), summary
            )
        }
        return nil
    }

    /// A file name as it may be stored and shown: its last path component, control characters and path separators
    /// removed, at most 255 bytes; "file" when nothing is left.
    public static func safeName(_ name: String) -> String {
        let last = name.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        var out = ""
        for scalar in last.unicodeScalars where scalar.value >= 0x20 && scalar.value != 0x7F && !(0x80..<0xA0).contains(scalar.value) {
            if out.utf8.count + String(scalar).utf8.count > 255 { break }
            out.unicodeScalars.append(scalar)
        }
        if out == "." || out == ".." { out = "" }
        return out.isEmpty ? "file" : out
    }
}
