import CFormwork

/// How a cell takes text input (AirCollection's `TextInputConfiguration` kinds).
public enum TextInputKind: String, Sendable, CaseIterable, Codable {
    case none, textField, textView, picker, datePicker

    init?(cValue: UInt32) {
        guard cValue <= 4 else { return nil }
        self = Self.allCases[Int(cValue)]
    }
}

/// Field types each text-input kind can bind to.
extension TextInputKind {
    var bindableTypes: [FieldType] {
        switch self {
        case .none: []
        case .textField: [.string]
        case .textView: [.string, .text]
        case .picker: [.choice, .string]
        case .datePicker: [.date]
        }
    }
}

public enum Autocapitalization: String, Sendable, CaseIterable, Codable { case `default`, none, words, sentences, allCharacters }
public enum KeyboardType: String, Sendable, CaseIterable, Codable {
    case `default`, ascii, numbersAndPunctuation, url, numberPad, phonePad, namePhonePad, email, decimalPad, webSearch
}
public enum KeyboardAppearance: String, Sendable, CaseIterable, Codable { case `default`, light, dark }
public enum ReturnKey: String, Sendable, CaseIterable, Codable { case `default`, go, next, done, search, send, join, `continue` }
public enum ClearButtonMode: String, Sendable, CaseIterable, Codable { case `default`, never, whileEditing, unlessEditing, always }
public enum DataDetector: String, Sendable, CaseIterable, Codable { case phoneNumber, link, address, calendarEvent }
public enum DatePickerMode: String, Sendable, CaseIterable, Codable { case `default`, time, date, dateAndTime, countdown }

/// Text-input traits. `nil` means "the platform default" (FW_TRAIT_DEFAULT and friends).
public struct TextInputTraits: Sendable, Equatable {
    public var autocapitalization: Autocapitalization?
    public var autocorrection: Bool?
    public var spellChecking: Bool?
    public var smartDashes: Bool?
    public var smartQuotes: Bool?
    public var smartInsertDelete: Bool?
    public var keyboard: KeyboardType?
    public var keyboardAppearance: KeyboardAppearance?
    public var returnKey: ReturnKey?
    public var clearButton: ClearButtonMode?
    public var secureEntry: Bool?
    public var contentType: String?
    public var dataDetectors: [DataDetector] = []
    public var selectable: Bool?
    public var dateMode: DatePickerMode?
    public var minimumField: String?
    public var maximumField: String?

    public init() {}
}

/// A cell type's text-input configuration: its kind, the model field it binds, its default traits.
public struct TextInputConfiguration: Sendable, Equatable {
    public var kind: TextInputKind
    public var field: String?
    public var traits: TextInputTraits
}

/// Which traits apply to which kind; used to validate document overrides.
extension TextInputTraits {
    /// Trait keys (document spelling) that make sense for `kind`.
    static func keys(for kind: TextInputKind) -> [String] {
        let text = ["autocapitalization", "autocorrection", "spellChecking", "smartDashes", "smartQuotes",
                    "smartInsertDelete", "keyboard", "keyboardAppearance", "returnKey", "contentType"]
        switch kind {
        case .none: return []
        case .textField: return text + ["clearButton", "secure"]
        case .textView: return text + ["dataDetectors", "selectable"]
        case .picker: return []
        case .datePicker: return ["datePickerMode"]
        }
    }
}
