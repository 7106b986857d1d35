// com.example.iban: a bank account number (IBAN) field. What it shows a pack author: a model with a required
// title and an optional country, text-input traits the host carries to every renderer (all capitals, no
// autocorrection, the payment-account content type), a value shown back in groups of four, and a refusal through
// valueChanged that `validate`, `fill`, the HTML page and `formwork serve` all report under the field.
import FormworkPluginKit

final class IBANCell: ValueObservingCell {
    struct Model: CellModel {
        static let fields: [Field] = [
            .string("title", label: "Title", doc: "The label shown with the value.", required: true, maxLength: 200),
            .string("country", label: "Country", doc: "Two letters (NL, DE …): only accounts of this country are taken.", maxLength: 2),
            .string("value", label: "IBAN", doc: "The account number, with or without spaces.", maxLength: 42),
        ]
        var title: String
        var country: String?
        var value: String?
        init(_ values: ModelValues) {
            title = values.string("title") ?? "IBAN"
            country = values.string("country")
            value = values.string("value")
        }
    }

    static let identifier = "com.example.iban"
    static let displayName = "IBAN"
    static let summary: String? = "An international bank account number, checked by its check digits (ISO 13616)."
    static let textInput: TextInput = {
        var traits = TextTraits()
        traits.autocapitalization = .allCharacters
        traits.autocorrection = false
        traits.spellChecking = false
        traits.keyboard = .ascii
        return .textField("value", traits)
    }()

    private var model = Model(ModelValues([:]))
    init() {}
    func configure(model: Model) throws { self.model = model }

    func render(into canvas: Canvas) {
        canvas.textInput(field: "value", label: model.title, text: model.value, placeholder: "NL91 ABNA 0417 1643 00")
        if let value = model.value, IBAN.problem(value, country: model.country) == nil {
            canvas.message("Account \(IBAN.grouped(value))", kind: .hint)
        }
    }

    func valueChanged(field: String, to value: ModelValue?) -> ValueChange {
        guard field == "value", case .string(let text)? = value, !text.isEmpty else { return .accept }
        if let problem = IBAN.problem(text, country: model.country) { return .reject(problem) }
        return .accept
    }
}

/// ISO 13616: two letters, two check digits, up to 30 letters and digits; moved four characters to the end and
/// read as a number (A = 10 … Z = 35), it leaves 1 when divided by 97.
enum IBAN {
    static func compact(_ text: String) -> [UInt8] {
        text.utf8.filter { $0 != UInt8(ascii: " ") }.map { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") ? $0 - 32 : $0 }
    }

    static func problem(_ text: String, country: String?) -> String? {
        let u = compact(text)
        func letter(_ b: UInt8) -> Bool { b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z") }
        func digit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }
        guard u.count >= 15, u.count <= 34 else { return "an IBAN has 15 to 34 letters and digits, not \(u.count)" }
        guard letter(u[0]), letter(u[1]), digit(u[2]), digit(u[3]) else {
            return "an IBAN starts with its country's two letters and two check digits (NL91…)"
        }
        guard u.allSatisfy({ letter($0) || digit($0) }) else { return "an IBAN has letters and digits only" }
        if let country, !country.isEmpty, String(decoding: u[0..<2], as: UTF8.self) != country.uppercased() {
            return "this form takes accounts of \(country.uppercased()) only"
        }
        // The remainder, digit by digit: never a number larger than 9,999.
        var remainder = 0
        for b in u[4...] + u[0..<4] {
            let n = digit(b) ? Int(b - UInt8(ascii: "0")) : Int(b - UInt8(ascii: "A")) + 10
            remainder = (n < 10 ? remainder * 10 + n : remainder * 100 + n) % 97
        }
        return remainder == 1 ? nil : "the check digits do not match: look for a mistyped character"
    }

    static func grouped(_ text: String) -> String {
        let u = compact(text)
        return stride(from: 0, to: u.count, by: 4).map { String(decoding: u[$0..<min($0 + 4, u.count)], as: UTF8.self) }
            .joined(separator: " ")
    }
}

let pack = CellPack(id: "com.example.iban", name: "IBAN", version: "1.0.0", cells: [IBANCell.self])

@_cdecl("formwork_pack_v1")
public func formworkPackV1() -> UnsafeRawPointer { pack.entry }
