import Glibc

/// Reads a JSON or YAML file into a node tree, with clear errors for missing,
/// unreadable, oversized and malformed input.
package enum SourceFile {
    enum Format { case json, yaml }

    /// The name errors use for standard input (`-` on the command line).
    static let standardInputName = "<stdin>"

    /// Where a file that the document at `documentPath` names as `relative` is (a translation file): relative to the
    /// document's folder (the working directory for standard input), unless absolute.
    package static func besides(_ documentPath: String, _ relative: String) -> String {
        if relative.hasPrefix("/") { return relative }
        guard documentPath != "-", let slash = documentPath.lastIndex(of: "/") else { return relative }
        return String(documentPath[...slash]) + relative
    }

    /// `path`, or standard input for `-`; errors name it `<stdin>`.
    package static func displayName(_ path: String) -> String { path == "-" ? standardInputName : path }

    static func read(_ path: String) throws(FormError) -> SourceNode {
        let bytes = try self.bytes(of: path)
        return try bytes.withUnsafeBufferPointer { (buffer) throws(FormError) -> SourceNode in
            try checkEncoding(buffer, of: path)
            return try parse(validated: buffer, of: path)
        }
    }

    /// The bytes of the file at `path`, or of standard input for `-` (at most the size limit).
    /// The corresponding C function is `read`.
    static func bytes(of path: String) throws(FormError) -> [UInt8] { try document(at: path, keepOpen: false).bytes }

    /// The bytes of the file at `path`, or of standard input for `-`, and with `keepOpen` the file kept open to be
    /// read again in parts (nil for standard input and anything that is not a regular file): the errors of `bytes(of:)`.
    static func document(at path: String, keepOpen: Bool) throws(FormError) -> (bytes: [UInt8], file: ReopenableFile?) {
        let name = displayName(path)
        if path != "-" {
            var info = stat()
            guard stat(path, &info) == 0 else { throw .missingFile(path) }
            if info.st_mode & S_IFMT == S_IFDIR { throw .notAFile(path) }
        }
        do {
            if path == "-" { return (try FileBytes.read(fd: 0, limit: InputLimits.maxBytes), nil) }
            if keepOpen { return try ReopenableFile.open(path, limit: InputLimits.maxBytes) }
            return (try FileBytes.read(path, limit: InputLimits.maxBytes), nil)
        } catch {
            if case .tooLarge(let size) = error { throw .tooLarge(name, size) }
            throw .unreadable(name, error.reason)
        }
    }

    /// Checks the encoding once, so that the parse can read the bytes in place (no `String` of the whole document).
    static func checkEncoding(_ buffer: UnsafeBufferPointer<UInt8>, of path: String) throws(FormError) {
        guard UTF8Validation.isValid(buffer) else {
            throw .parse(displayName(path), ParseError(line: nil, message: "\(path == "-" ? "the input" : "the file") is not valid UTF-8"))
        }
    }

    /// Parses bytes that `checkEncoding` accepted.
    static func parse(validated buffer: UnsafeBufferPointer<UInt8>, of path: String) throws(FormError) -> SourceNode {
        do throws(ParseError) {
            switch format(of: displayName(path), bytes: buffer) {
            case .json: return try JSONParser.parse(bytes: buffer)
            case .yaml: return try YAMLReader.parse(bytes: buffer)
            }
        } catch {
            throw .parse(displayName(path), error)
        }
    }

    static func parse(_ text: String, format: Format) throws(ParseError) -> SourceNode {
        switch format {
        case .json: return try JSONParser.parse(text)
        case .yaml: return try YAMLReader.parse(text)
        }
    }

    /// By extension; otherwise JSON when the text starts with `{` or `[` (the bytes are well-formed UTF-8).
    static func format(of path: String, bytes: UnsafeBufferPointer<UInt8>) -> Format {
        let lower = path.lowercased()
        if lower.hasSuffix(".json") { return .json }
        if lower.hasSuffix(".yaml") || lower.hasSuffix(".yml") { return .yaml }
        // The first scalar that is not a blank or a line break (decoded only past ASCII).
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b < 0x80 {
                if b == 0x20 || (0x09...0x0D).contains(b) {
                    i += 1
                    continue
                }
                return b == 0x7B || b == 0x5B ? .json : .yaml
            }
            var end = i + 1
            while end < bytes.count && bytes[end] & 0xC0 == 0x80 { end += 1 }
            let scalar = String(decoding: UnsafeBufferPointer(rebasing: bytes[i..<end]), as: UTF8.self).unicodeScalars.first!
            guard scalar.isBlankOrNewline else { return .yaml }
            i = end
        }
        return .yaml
    }

    /// Whether the document at `path` reads as YAML, by its name or else its first bytes (as `format(of:bytes:)`
    /// tells the two apart); false for standard input or a file that cannot be opened (its load reports that).
    /// Read before the document is: the command tunes its allocator by it.
    package static func isYAMLDocument(at path: String) -> Bool {
        guard path != "-" else { return false }
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: 512)
        let count = head.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        guard count >= 0 else { return false }
        return head.withUnsafeBufferPointer { format(of: path, bytes: UnsafeBufferPointer(rebasing: $0[..<count])) } == .yaml
    }
}
