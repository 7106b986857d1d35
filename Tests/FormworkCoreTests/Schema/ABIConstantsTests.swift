import Foundation
import Testing
@testable import FormworkCore
import FormworkTestSupport

/// Every enum that crosses the ABI maps by the header's explicit values: each case's
/// `abiValue` equals the constant of the same name in the frozen abi/constants-1.1.txt.
@Suite("ABI constants")
struct ABIConstantsTests {
    static let constants: [String: UInt32] = {
        let text = (try? String(contentsOfFile: "\(Source.root)/abi/constants-1.1.txt", encoding: .utf8)) ?? ""
        var out: [String: UInt32] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2 else { continue }
            let value = parts[1].replacingOccurrences(of: "};", with: "").trimmingCharacters(in: .whitespaces)
            if let shift = value.range(of: "1u << ") {
                out[parts[0]] = 1 << UInt32(value[shift.upperBound...])!
            } else if let n = UInt32(value) {
                out[parts[0]] = n
            }
        }
        return out
    }()

    /// `dateAndTime` → `DATE_AND_TIME`.
    static func constantName(_ prefix: String, _ name: String) -> String {
        var out = ""
        for c in name { if c.isUppercase { out += "_" }; out += c.uppercased() }
        return prefix + out
    }

    func check<E: ABIEnum & RawRepresentable>(_ type: E.Type, prefix: String) where E.RawValue == String {
        for c in E.allCases {
            let name = Self.constantName(prefix, c.rawValue)
            #expect(Self.constants[name] == c.abiValue, "\(name)")
            #expect(E(abiValue: c.abiValue)?.rawValue == c.rawValue)
        }
        // And no constant of the family lacks a case (flags and other families sharing the prefix excluded).
        let names = Set(E.allCases.map { Self.constantName(prefix, $0.rawValue) })
        let others = ["FW_KEYBOARD_APPEARANCE_", "FW_FIELD_NONE", "FW_FIELD_REQUIRED", "FW_FIELD_HAS_"]
        for name in Self.constants.keys
        where name.hasPrefix(prefix) && !others.contains(where: { name.hasPrefix($0) && !prefix.hasPrefix($0) }) {
            #expect(names.contains(name), "\(name) has no Swift case in \(E.self)")
        }
    }

    @Test("every enum case has its header constant, by name and value")
    func enums() {
        #expect(Self.constants.count > 80, "read \(Self.constants.count) constants")
        check(FieldType.self, prefix: "FW_FIELD_")
        check(TextInputKind.self, prefix: "FW_TEXT_INPUT_")
        check(Autocapitalization.self, prefix: "FW_AUTOCAPITALIZATION_")
        check(KeyboardType.self, prefix: "FW_KEYBOARD_")
        check(KeyboardAppearance.self, prefix: "FW_KEYBOARD_APPEARANCE_")
        check(ReturnKey.self, prefix: "FW_RETURN_KEY_")
        check(ClearButtonMode.self, prefix: "FW_CLEAR_BUTTON_")
        check(DataDetector.self, prefix: "FW_DATA_DETECTOR_")
        check(DatePickerMode.self, prefix: "FW_DATE_PICKER_")
        check(LabelStyle.self, prefix: "FW_LABEL_")
        check(ButtonRole.self, prefix: "FW_BUTTON_")
        check(ChoiceStyle.self, prefix: "FW_CHOICE_")
        check(MessageKind.self, prefix: "FW_MESSAGE_")
    }

    @Test("capability bits and unknown values")
    func capabilities() {
        #expect(CellCapabilities.selectable.rawValue == Self.constants["FW_CELL_SELECTABLE"])
        #expect(CellCapabilities.highlightable.rawValue == Self.constants["FW_CELL_HIGHLIGHTABLE"])
        #expect(CellCapabilities.typedConfigure.rawValue == Self.constants["FW_CELL_TYPED_CONFIGURE"])
        #expect(CellCapabilities.threadSafe.rawValue == Self.constants["FW_CELL_THREAD_SAFE"])
        #expect(FieldType(abiValue: 0) == nil)
        #expect(FieldType(abiValue: 9) == .choiceList)
        #expect(FieldType(abiValue: 10) == nil)
        #expect(KeyboardType(abiValue: 10) == nil)
        #expect(DataDetector.from(mask: 0b1010) == [.link, .calendarEvent])
    }
}
