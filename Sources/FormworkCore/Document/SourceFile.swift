import Foundation

/// Reads a JSON or YAML file into a node tree, with clear errors for missing,
/// unreadable, oversized and malformed input.
enum SourceFile {
    enum Format { case json, yaml }

    static func read(_ path: String) throws(FormError) -> SourceNode {
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
