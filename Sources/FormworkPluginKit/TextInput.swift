import CFormwork

/// A cell type's text-input configuration (AirCollection's TextInputConfiguration).
public struct TextInput: Sendable {
    public enum Kind: UInt32, Sendable { case none = 0, textField = 1, textView = 2, picker = 3, datePicker = 4 }

    public var kind: Kind
    /// The model field the input edits.
    public var field: String?
    public var traits: TextTraits

    public static let none = TextInput(kind: .none, field: nil, traits: TextTraits())
    public static func textField(_ field: String, _ traits: TextTraits = TextTraits()) -> TextInput {
        TextInput(kind: .textField, field: field, traits: traits)
    }
    public static func textView(_ field: String, _ traits: TextTraits = TextTraits()) -> TextInput {
        TextInput(kind: .textView, field: field, traits: traits)
    }
    public static func picker(_ field: String) -> TextInput { TextInput(kind: .picker, field: field, traits: TextTraits()) }
    public static func datePicker(_ field: String, _ traits: TextTraits = TextTraits()) -> TextInput {
        TextInput(kind: .datePicker, field: field, traits: traits)
    }
}

/// Default text-input traits; `nil` leaves a trait to the platform.
public struct TextTraits: Sendable {
    public enum Autocapitalization: UInt32, Sendable { case none = 1, words, sentences, allCharacters }
    public enum Keyboard: UInt32, Sendable {
        case ascii = 1, numbersAndPunctuation, url, numberPad, phonePad, namePhonePad, email, decimalPad, webSearch
    }
    public enum Appearance: UInt32, Sendable { case light = 1, dark }
    public enum ReturnKey: UInt32, Sendable { case go = 1, next, done, search, send, join, `continue` }
    public enum ClearButton: UInt32, Sendable { case never = 1, whileEditing, unlessEditing, always }
    public enum DateMode: UInt32, Sendable { case time = 1, date, dateAndTime, countdown }
    public struct DataDetectors: OptionSet, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        public static let phoneNumber = DataDetectors(rawValue: 1)
        public static let link = DataDetectors(rawValue: 2)
        public static let address = DataDetectors(rawValue: 4)
        public static let calendarEvent = DataDetectors(rawValue: 8)
    }

    public var autocapitalization: Autocapitalization?
    public var autocorrection: Bool?
    public var spellChecking: Bool?
    public var smartDashes: Bool?
    public var smartQuotes: Bool?
    public var smartInsertDelete: Bool?
    public var keyboard: Keyboard?
    public var keyboardAppearance: Appearance?
    public var returnKey: ReturnKey?
    public var clearButton: ClearButton?
    public var secureEntry: Bool?
    public var contentType: String?
    public var dataDetectors: DataDetectors = []
    public var selectable: Bool?
    public var dateMode: DateMode?
    public var minimumField: String?
    public var maximumField: String?

    public init(
        autocapitalization: Autocapitalization? = nil, autocorrection: Bool? = nil, spellChecking: Bool? = nil,
        smartDashes: Bool? = nil, smartQuotes: Bool? = nil, smartInsertDelete: Bool? = nil,
        keyboard: Keyboard? = nil, keyboardAppearance: Appearance? = nil, returnKey: ReturnKey? = nil,
        clearButton: ClearButton? = nil, secureEntry: Bool? = nil, contentType: String? = nil,
        dataDetectors: DataDetectors = [], selectable: Bool? = nil, dateMode: DateMode? = nil,
        minimumField: String? = nil, maximumField: String? = nil
    ) {
        self.autocapitalization = autocapitalization
        self.autocorrection = autocorrection
        self.spellChecking = spellChecking
        self.smartDashes = smartDashes
        self.smartQuotes = smartQuotes
        self.smartInsertDelete = smartInsertDelete
        self.keyboard = keyboard
        self.keyboardAppearance = keyboardAppearance
        self.returnKey = returnKey
        self.clearButton = clearButton
        self.secureEntry = secureEntry
        self.contentType = contentType
        self.dataDetectors = dataDetectors
        self.selectable = selectable
        self.dateMode = dateMode
        self.minimumField = minimumField
        self.maximumField = maximumField
    }
}
