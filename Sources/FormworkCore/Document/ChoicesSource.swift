/// ABI 1.2: a registered pack's choices sources, as a catalog answers for `choicesFrom`.
public struct PackChoices: Sendable {
    public let path: String
    public let sources: [String]
    /// How long an answer may be reused for a render (`fw_choices_ext.cache_seconds`).
    public let cacheSeconds: UInt32
    public init(path: String, sources: [String], cacheSeconds: UInt32) {
        (self.path, self.sources, self.cacheSeconds) = (path, sources, cacheSeconds)
    }
}

/// ABI 1.2: where a field's choices come from — `choicesFrom: PACK_ID/SOURCE` in a document — and how a form's
/// fields are given them (`Form.resolveChoices`), at render and submit time.
public struct ChoicesSource: Sendable, Hashable, CustomStringConvertible {
    /// The pack's identifier, as registered.
    public let pack: String
    /// The pack's path when the document was decoded (the registry's answer for `pack`).
    public let packPath: String
    /// One of the pack's sources (`fw_choices_ext.sources`).
    public let source: String
    /// The model field the choices fill (the value field's `options_field`: a picker's `choices`).
    public let optionsField: String
    /// How long the pack lets an answer be reused for a render.
    public let cacheSeconds: UInt32

    public init(pack: String, packPath: String, source: String, optionsField: String, cacheSeconds: UInt32 = 0) {
        (self.pack, self.packPath, self.source, self.optionsField) = (pack, packPath, source, optionsField)
        self.cacheSeconds = cacheSeconds
    }

    public var description: String { "\(pack)/\(source)" }
}
