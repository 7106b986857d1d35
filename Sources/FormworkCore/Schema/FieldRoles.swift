/// The model fields the host gives a meaning to.
///
/// ABI 1.0 does not let a pack declare them, so they are name conventions of the
/// first-party packs, kept here and nowhere else (formwork.h and docs/abi.md point
/// to this type):
///
/// | role | model field | used for |
/// | --- | --- | --- |
/// | value | the text-input field, else a field named `value` | what a values file sets, `fill` asks for and a submitted HTML form carries |
/// | required | a `bool` field named `required` | receives the document's `required: true` |
/// | title | a `string` field named `title` | the label `fill` shows |
/// | maxLength | an `integer` field named `maxLength` | a document-level length limit (HTML `maxlength`) |
public struct FieldRoles: Sendable, Equatable {
    /// The conventional names.
    public enum Name {
        public static let value = "value"
        public static let required = "required"
        public static let title = "title"
        public static let maxLength = "maxLength"
    }

    public let value: String?
    public let required: String?
    public let title: String?
    public let maxLength: String?

    public init(value: String?, required: String?, title: String?, maxLength: String?) {
        self.value = value
        self.required = required
        self.title = title
        self.maxLength = maxLength
    }

    /// The roles ABI 1.0 packs get: the conventions in the table above.
    public init(conventionsFor fields: [FieldSchema], textInputField: String?) {
        func named(_ name: String, _ type: FieldType) -> String? {
            fields.contains { $0.name == name && $0.type == type } ? name : nil
        }
        value = textInputField ?? (fields.contains { $0.name == Name.value } ? Name.value : nil)
        required = named(Name.required, .bool)
        title = named(Name.title, .string)
        maxLength = named(Name.maxLength, .integer)
    }
}
