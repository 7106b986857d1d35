import Testing

@testable import FormworkCore

/// `FieldView` keeps its properties in one shared box: it must still behave as a value.
@Suite("Rendering: field views are values")
struct FieldViewTests {
    static func view() -> FieldView {
        FieldView(
            id: "name", cell: "org.formwork.text-field", accessibilityId: "name", required: true,
            textInput: TextInputConfiguration(kind: .textField, field: "value"),
            nodes: [.textInput(Control(field: "value", id: "name", label: "Name"), text: "Ada", placeholder: nil)],
            maxLength: 40, valueField: "value")
    }

    @Test("a copy changed leaves the original as it was, property by property")
    func copyOnWrite() {
        let original = Self.view()
        var copy = original
        #expect(copy == original)
        copy.nodes.append(.message(kind: .error, text: "too short"))
        copy.visible = false
        copy.enabled = false
        copy.required = false
        copy.id = "other"
        copy.accessibilityId = "other-id"
        copy.maxLength = nil
        copy.minimum = 1
        copy.item = ItemPosition(group: "g", index: 2, name: "g[2]")
        #expect(original.nodes.count == 1 && copy.nodes.count == 2)
        #expect(original.visible && original.enabled && original.required)
        #expect(original.id == "name" && original.accessibilityId == "name" && original.maxLength == 40)
        #expect(original.minimum == nil && original.item == nil)
        #expect(copy != original)
        #expect(original == Self.view())
    }

    @Test("views are equal by their properties, not by their storage")
    func equality() {
        var a = Self.view(), b = Self.view()
        #expect(a == b)
        b.valueField = nil
        #expect(a != b)
        b.valueField = "value"
        #expect(a == b)
        a.textInput.traits.secureEntry = true
        #expect(a != b)
        b.textInput.traits.secureEntry = true
        #expect(a == b)
        b.crossRules = [.equals(field: "other", message: nil)]
        #expect(a != b)
    }
}
