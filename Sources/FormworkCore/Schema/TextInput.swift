/// How a cell takes text input (AirCollection's `TextInputConfiguration` kinds).
public enum TextInputKind: String, Sendable, CaseIterable, Codable, ABIEnum {
    case none, textField, textView, picker, datePicker

    public var abiValue: UInt32 {
        switch self {
        case .none: 0  // FW_TEXT_INPUT_NONE
        case .textField: 1  // FW_TEXT_INPUT_TEXT_FIELD
        case .textView: 2  // FW_TEXT_INPUT_TEXT_VIEW
        case .picker: 3  // FW_TEXT_INPUT_PICKER
        case .datePicker: 4  // FW_TEXT_INPUT_DATE_PICKER
        }
    }

    /// Field types each text-input kind can bind to.
    public var bindableTypes: [FieldType] {
        switch self {
        case .none: []
        case .textField: [.string]
        case .textView: [.string, .text]
        case .picker: [.choice, .string]
        case .datePicker: [.date]
        }
    }
}

/// `FW_AUTOCAPITALIZATION_*`
public enum Autocapitalization: String, Sendable, CaseIterable, Codable, ABIEnum {
    case `default`, none, words, sentences, allCharacters

    public var abiValue: UInt32 {
        switch self {
        case .default: 0
        case .none: 1
        case .words: 2
        case .sentences: 3
        case .allCharacters: 4
        }
    }
}

/// `FW_KEYBOARD_*`
public enum KeyboardType: String, Sendable, CaseIterable, Codable, ABIEnum {
    case `default`, ascii, numbersAndPunctuation, url, numberPad, phonePad, namePhonePad, email, decimalPad, webSearch

    public var abiValue: UInt32 {
        switch self {
        case .default: 0
        case .ascii: 1
        case .numbersAndPunctuation: 2
        case .url: 3
        case .numberPad: 4
        case .phonePad: 5
        case .namePhonePad: 6
        case .email: 7
        case .decimalPad: 8
        case .webSearch: 9
        }
    }
}

/// `FW_KEYBOARD_APPEARANCE_*`
public enum KeyboardAppearance: String, Sendable, CaseIterable, Codable, ABIEnum {
    case `default`, light, dark

    public var abiValue: UInt32 {
        switch self {
        case .default: 0
        case .light: 1
        case .dark: 2
        }
    }
}

/// `FW_RETURN_KEY_*`
public enum ReturnKey: String, Sendable, CaseIterable, Codable, ABIEnum {
    case `default`, go, next, done, search, send, join, `continue`

    public var abiValue: UInt32 {
        switch self {
        case .default: 0
        case .go: 1
        case .next: 2
        case .done: 3
        case .search: 4
        case .send: 5
        case .join: 6
        case .continue: 7
        }
    }
}

/// `FW_CLEAR_BUTTON_*`
public enum ClearButtonMode: String, Sendable, CaseIterable, Codable, ABIEnum {
    case `default`, never, whileEditing, unlessEditing, always

    public var abiValue: UInt32 {
        switch self {
        case .default: 0
        case .never: 1
        case .whileEditing: 2
        case .unlessEditing: 3
        case .always: 4
        }
    }
}

/// `FW_DATA_DETECTOR_*`: bits of a mask, not values.
public enum DataDetector: String, Sendable, CaseIterable, Codable, ABIEnum {
    case phoneNumber, link, address, calendarEvent

    public var abiValue: UInt32 {
        switch self {
        case .phoneNumber: 1 << 0
        case .link: 1 << 1
        case .address: 1 << 2
        case .calendarEvent: 1 << 3
        }
    }

    /// Every bit ABI 1.0 defines.
    public static let knownBits: UInt32 = allCases.reduce(0) { $0 | $1.abiValue }

    /// The detectors whose bits are set in `mask`, in declaration order.
    public static func from(mask: UInt32) -> [DataDetector] { allCases.filter { mask & $0.abiValue != 0 } }
}

/// `FW_DATE_PICKER_*`
public enum DatePickerMode: String, Sendable, CaseIterable, Codable, ABIEnum {
    case `default`, time, date, dateAndTime, countdown

    public var abiValue: UInt32 {
        switch self {
        case .default: 0
        case .time: 1
        case .date: 2
        case .dateAndTime: 3
        case .countdown: 4
        }
    }
}

/// Text-input traits. `nil` means "the platform default" (FW_TRAIT_DEFAULT and friends).
/// Their names in documents and JSON, and which kinds they apply to, are in `TraitKey`.
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
    /// A document's own (no pack declares them): a text view's height in lines, a text field's suggestions (HTML
    /// `datalist`, offered by `fill`), and the field that has the focus when the form opens.
    public var rows: Int?
    public var suggestions: [String] = []
    public var autofocus: Bool?

    public init() {}
}

/// A cell type's text-input configuration: its kind, the model field it binds, its default traits.
public struct TextInputConfiguration: Sendable, Equatable {
    public var kind: TextInputKind
    public var field: String?
    /// The traits, out of line and shared: every field and view carries its configuration, almost
    /// always its cell type's own (one shared buffer then), and default traits take no buffer at all.
    private var storedTraits: [TextInputTraits] = []

    public var traits: TextInputTraits {
        get { storedTraits.first ?? TextInputTraits() }
        set {
            if newValue == TextInputTraits() {
                storedTraits = []
            } else if storedTraits.isEmpty {
                storedTraits = [newValue]
            } else {
                storedTraits[0] = newValue
            }
        }
    }

    /// `traits.secureEntry`, `traits.minimumField` and `traits.maximumField` read in place: `traits` is a copy
    /// of every trait (a retain per text it holds), and these are asked for every field of a render.
    package var secureEntry: Bool? { storedTraits.isEmpty ? nil : storedTraits[0].secureEntry }
    package var minimumField: String? { storedTraits.isEmpty ? nil : storedTraits[0].minimumField }
    package var maximumField: String? { storedTraits.isEmpty ? nil : storedTraits[0].maximumField }
    /// Whether a date bound is named (`DateBounds` has something to check).
    package var hasDateBounds: Bool {
        !storedTraits.isEmpty && (storedTraits[0].minimumField != nil || storedTraits[0].maximumField != nil)
    }

    public init(kind: TextInputKind, field: String?, traits: TextInputTraits = TextInputTraits()) {
        self.kind = kind
        self.field = field
        self.traits = traits
    }

    /// An equal configuration whose traits' buffer and strings are its own (`CellType.copy`).
    func copy() -> TextInputConfiguration {
        var traits = self.traits
        traits.contentType = traits.contentType?.withOwnStorage
        traits.minimumField = traits.minimumField?.withOwnStorage
        traits.maximumField = traits.maximumField?.withOwnStorage
        traits.dataDetectors = traits.dataDetectors.map { $0 }
        return TextInputConfiguration(kind: kind, field: field?.withOwnStorage, traits: traits)
    }
}
