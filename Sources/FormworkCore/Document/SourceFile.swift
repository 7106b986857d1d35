import Foundation

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
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe) } catch {
            throw .unreadable(path, (error as NSError).localizedDescription)
        }
        guard data.count <= InputLimits.maxBytes else { throw .tooLarge(path, data.count) }
        guard let text = String(data: data, encoding: .utf8) else {
            throw .parse(path, ParseError(line: nil, message: "the file is not valid UTF-8"))
        }
        do { return try parse(text, format: format(of: path, text: text)) } catch { throw .parse(path, error) }
    }

    /// Reads standard input to its end (at most the size limit). The corresponding C function is `read`.
    static func readStandardInput() throws(FormError) -> SourceNode {
        let name = standardInputName
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(0, $0.baseAddress, $0.count) }
            if n < 0 { if errno == EINTR { continue }; throw .unreadable(name, String(cString: strerror(errno))) }
            if n == 0 { break }
            bytes += buffer[0..<n]
            if bytes.count > InputLimits.maxBytes { throw .tooLarge(name, bytes.count) }
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
        let first = text.unicodeScalars.first { !CharacterSet.whitespacesAndNewlines.contains($0) }
        return first == "{" || first == "[" ? .json : .yaml
    }
}
