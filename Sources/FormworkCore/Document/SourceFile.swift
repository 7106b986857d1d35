import Glibc

/// Reads a JSON or YAML file into a node tree, with clear errors for missing,
/// unreadable, oversized and malformed input.
package enum SourceFile {
    enum Format { case json, yaml }

    /// The name errors use for standard input (`-` on the command line).
    static let standardInputName = "<stdin>"

    /// `path`, or standard input for `-`; errors name it `<stdin>`.
    package static func displayName(_ path: String) -> String { path == "-" ? standardInputName : path }

    static func read(_ path: String) throws(FormError) -> SourceNode {
        if path == "-" { return try readStandardInput() }
        var info = stat()
        guard stat(path, &info) == 0 else { throw .missingFile(path) }
        if info.st_mode & S_IFMT == S_IFDIR { throw .notAFile(path) }
        let bytes: [UInt8]
        do { bytes = try FileBytes.read(path, limit: InputLimits.maxBytes) } catch {
            if case .tooLarge(let size) = error { throw .tooLarge(path, size) }
            throw .unreadable(path, error.reason)
        }
        return try parse(bytes, name: path, what: "the file")
    }

    /// Checks the encoding once and parses the bytes in place (no `String` of the whole document).
    private static func parse(_ bytes: [UInt8], name: String, what: String) throws(FormError) -> SourceNode {
        try bytes.withUnsafeBufferPointer { (buffer) throws(FormError) -> SourceNode in
            guard UTF8Validation.isValid(buffer) else {
                throw .parse(name, ParseError(line: nil, message: "\(what) is not valid UTF-8"))
            }
            do throws(ParseError) {
                switch format(of: name, bytes: buffer) {
                case .json: return try JSONParser.parse(bytes: buffer)
                case .yaml: return try YAMLReader.parse(bytes: buffer)
                }
            } catch {
                throw .parse(name, error)
            }
        }
    }

    /// Reads standard input to its end (at most the size limit). The corresponding C function is `read`.
    static func readStandardInput() throws(FormError) -> SourceNode {
        let name = standardInputName
        let bytes: [UInt8]
        do { bytes = try FileBytes.read(fd: 0, limit: InputLimits.maxBytes) } catch {
            if case .tooLarge(let size) = error { throw .tooLarge(name, size) }
            throw .unreadable(name, error.reason)
        }
        return try parse(bytes, name: name, what: "the input")
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
}
