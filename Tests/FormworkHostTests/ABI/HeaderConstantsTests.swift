import CFormwork
import FormworkCore
import Testing

/// The core spells the header's constants out (it never imports the header); this
/// compares them with the header the host is compiled against.
@Suite("Core enums against formwork.h")
struct HeaderConstantsTests {
    @Test("field types, kinds, traits, canvas enums and flags equal the header's values")
    func constants() {
        #expect(
            FieldType.allCases.map(\.abiValue)
                == [
                    FW_FIELD_STRING, FW_FIELD_TEXT, FW_FIELD_BOOL, FW_FIELD_INTEGER, FW_FIELD_NUMBER,
                    FW_FIELD_DATE, FW_FIELD_CHOICE, FW_FIELD_STRING_LIST, FW_FIELD_CHOICE_LIST,
                ].map { UInt32($0) })
        #expect(
            TextInputKind.allCases.map(\.abiValue)
                == [
                    FW_TEXT_INPUT_NONE, FW_TEXT_INPUT_TEXT_FIELD, FW_TEXT_INPUT_TEXT_VIEW,
                    FW_TEXT_INPUT_PICKER, FW_TEXT_INPUT_DATE_PICKER,
                ].map { UInt32($0) })
        #expect(
            DatePickerMode.allCases.map(\.abiValue)
                == [
                    FW_DATE_PICKER_DEFAULT, FW_DATE_PICKER_TIME, FW_DATE_PICKER_DATE,
                    FW_DATE_PICKER_DATE_AND_TIME, FW_DATE_PICKER_COUNTDOWN,
                ].map { UInt32($0) })
        #expect(KeyboardType.email.abiValue == UInt32(FW_KEYBOARD_EMAIL))
        #expect(KeyboardType.webSearch.abiValue == UInt32(FW_KEYBOARD_WEB_SEARCH))
        #expect(ReturnKey.continue.abiValue == UInt32(FW_RETURN_KEY_CONTINUE))
        #expect(ClearButtonMode.unlessEditing.abiValue == UInt32(FW_CLEAR_BUTTON_UNLESS_EDITING))
        #expect(Autocapitalization.allCharacters.abiValue == UInt32(FW_AUTOCAPITALIZATION_ALL_CHARACTERS))
        #expect(KeyboardAppearance.dark.abiValue == UInt32(FW_KEYBOARD_APPEARANCE_DARK))
        #expect(DataDetector.calendarEvent.abiValue == UInt32(FW_DATA_DETECTOR_CALENDAR_EVENT))
        #expect(LabelStyle.emphasis.abiValue == UInt32(FW_LABEL_EMPHASIS))
        #expect(ButtonRole.destructive.abiValue == UInt32(FW_BUTTON_DESTRUCTIVE))
        #expect(ChoiceStyle.segments.abiValue == UInt32(FW_CHOICE_SEGMENTS))
        #expect(MessageKind.warning.abiValue == UInt32(FW_MESSAGE_WARNING))
        #expect(
            CellCapabilities.known.rawValue
                == UInt32(
                    FW_CELL_SELECTABLE | FW_CELL_HIGHLIGHTABLE | FW_CELL_TYPED_CONFIGURE | FW_CELL_THREAD_SAFE | FW_CELL_TYPED_PRESENCE))
        #expect(CellCapabilities.typedPresence.rawValue == UInt32(FW_CELL_TYPED_PRESENCE))
    }
}
