/// The model fields the host gives a meaning to.
///
/// A 1.1 cell type declares them (`fw_cell_type.value_field` …); for ABI 1.0 packs,
/// and for a 1.1 role left NULL, they are these name conventions, kept here and
/// nowhere else (formwork.h and docs/abi.md point to this type):
///
/// | role | model field | used for |
/// | --- | --- | --- |
/// | value | the text-input field, else a field named `value` | what a values file sets, `fill` asks for and a submitted HTML form carries |
/// | required | a `bool` field named `required` | receives the document's `required: true` |
/// | title | a `string` field named `title` | the label `fill` shows |
/// | maxLength | an `integer` field named `maxLength` | a document-level length limit (HTML `maxlength`) |
/// | placeholder | a `string` field named `placeholder` | example text (1.1) |
public struct FieldRoles: Sendable, Equatable {
    /// The conventional names.
    public enum Name {
        public static let value = "value"
        public static let required = "required"
        public static let title = "title"
        public static let maxLength = "maxLength"
        public static let placeholder = "placeholder"
    }

    public let value: String?
    public let required: String?
    public let title: String?
    public let maxLength: String?
    /// A string field with example text (ABI 1.1; convention `placeholder`).
    public let placeholder: String?

    public init(value: String?, required: String?, title: String?, maxLength: String?, placeholder: String? = nil) {
        self.value = value
        self.required = required
        self.title = title
        self.maxLength = maxLength
        self.placeholder = placeholder
    }

    /// Each role and the field that plays it, in the table's order; roles no field plays are left out.
    public var named: [(role: String, field: String)] {
        [(Name.value, value), (Name.title, title), (Name.required, required), (Name.maxLength, maxLength), (Name.placeholder, placeholder)]
            .compactMap { role, field in field.map { (role, $0) } }
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
        placeholder = named(Name.placeholder, .string)
    }
}
