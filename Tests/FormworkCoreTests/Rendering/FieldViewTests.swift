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
        // A view whose bounds were set and cleared again holds an empty box of them: still equal to one without.
        b.crossRules = []
        b.minimum = 1
        #expect(a != b)
        b.minimum = nil
        #expect(a == b)
    }

    @Test("bounds, conditions, rules across fields and item are shared by copies until one of them writes")
    func extrasCopyOnWrite() {
        var first = Self.view()
        first.maximum = 9
        first.item = ItemPosition(group: "g", index: 0, name: "name")
        var second = first
        second.maximum = 5
        second.conditions.hidden = true
        #expect(first.maximum == 9 && !first.conditions.hidden && first.item?.index == 0)
        #expect(second.maximum == 5 && second.conditions.hidden && second.item?.index == 0)
        var third = second
        third.id = "third"
        third.item?.index = 4
        #expect(second.item?.index == 0 && third.item?.index == 4 && third.maximum == 5)
    }

    @Test("views of a cell type's fields share its id, text input and value field; a write copies them for that view alone")
    func commonShared() {
        let cell = CellType(
            id: "org.example.name", name: "Name", fields: [FieldSchema(name: "value", type: .string)],
            textInput: TextInputConfiguration(kind: .textField, field: "value"), packID: "org.example", packPath: "/p.so",
            packABI: ABIVersion(major: 1, minor: 0, patch: 0))
        func view(_ id: String) -> FieldView {
            FieldView(id: id, common: cell.viewCommon, accessibilityId: id, required: false, nodes: [])
        }
        var a = view("a"), b = view("b")
        #expect(a.cell == "org.example.name" && a.textInput == cell.textInput && a.valueField == "value")
        #expect(a.textInput == b.textInput && a.valueField == b.valueField)
        a.textInput.traits.secureEntry = true
        a.valueField = nil
        a.cell = "org.example.other"
        #expect(a.textInput.traits.secureEntry == true && a.valueField == nil && a.cell == "org.example.other")
        // The other view and the cell type's own box are as they were.
        #expect(b.textInput.traits.secureEntry == nil && b.valueField == "value" && b.cell == "org.example.name")
        #expect(cell.viewCommon.textInput == cell.textInput && cell.viewCommon.valueField == "value")
        #expect(view("b") == b)
        // A view's accessibility id is its id unless set otherwise, and stays what it was when the id changes.
        b.id = "renamed"
        #expect(b.accessibilityId == "b")
        b.accessibilityId = "renamed"
        b.id = "again"
        #expect(b.accessibilityId == "renamed" && b.id == "again")
        #expect(view("c").accessibilityId == "c")
        let own = FieldView(id: "d", common: cell.viewCommon, accessibilityId: "d-own", required: false, nodes: [])
        #expect(own.accessibilityId == "d-own" && own != view("d"))
    }
}
