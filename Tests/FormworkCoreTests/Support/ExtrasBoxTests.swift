import Testing

@testable import FormworkCore

@Suite("Support: a box of what most values leave empty")
struct ExtrasBoxTests {
    @Test("made on the first write, written in place while it is the value's alone, copied once another shares it")
    func madeUnique() {
        var box: FormField.Extras? = nil
        box.madeUnique().crossRules = [.equals(field: "a", message: nil)]
        let made = ObjectIdentifier(box!)
        box.madeUnique().item = ItemPosition(group: "g", index: 1, name: "n")
        #expect(ObjectIdentifier(box!) == made, "a box held by one value was copied")
        let shared = box
        box.madeUnique().item?.index = 2
        #expect(ObjectIdentifier(box!) != made && ObjectIdentifier(shared!) == made)
        #expect(shared?.item?.index == 1 && box?.item?.index == 2 && box?.crossRules.count == 1)
    }
}
