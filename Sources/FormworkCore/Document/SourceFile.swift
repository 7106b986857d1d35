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
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw .parse(path, ParseError(line: nil, message: "the file is not valid UTF-8"))
        }
        do { return try parse(text, format: format(of: path, text: text)) } catch { throw .parse(path, error) }
    }

    /// Reads standard input to its end (at most the size limit). The corresponding C function is `read`.
    static func readStandardInput() throws(FormError) -> SourceNode {
        let name = standardInputName
        let bytes: [UInt8]
        do { bytes = try FileBytes.read(fd: 0, limit: InputLimits.maxBytes) } catch {
            if case .tooLarge(let size) = error { throw .tooLarge(name, size) }
            throw .unreadable(name, error.reason)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw .parse(name, ParseError(line: nil, message: "the input is not valid UTF-8"))
        }
        do { return try parse(text, format: format(of: name, text: text)) } catch { throw .parse(name, error) }
    }

    static func parse(_ text: String, format: Format) throws(ParseError) -> SourceNode {
        switch format {
        case .json: return try JSONParser.parse(text)
        case .yaml: return try YAMLReader.parse(text)
        }
    }

    /// By extension; otherwise JSON when the text starts with `{` or `[`.
    static func format(of path: String, text: String) -> Format {
        let lower = path.lowercased()
        if lower.hasSuffix(".json") { return .json }
        if lower.hasSuffix(".yaml") || lower.hasSuffix(".yml") { return .yaml }
        let first = text.unicodeScalars.first { !$0.isBlankOrNewline }
        return first == "{" || first == "[" ? .json : .yaml
    }
}
