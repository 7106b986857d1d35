import FormworkPluginKit

/// The standard cells: the reference cells of the Fields demo, as a Formwork pack.
let standardPack = CellPack(
    id: "org.formwork.standard",
    name: "Standard cells",
    version: "1.0.0",
    vendor: "Formwork",
    license: "MIT",
    description: "Static text, text field, text view, toggle, button, date picker, picker, segments, number, integer and multi-select.",
    cells: [
        TextCell.self, TextFieldCell.self, TextViewCell.self, ToggleCell.self,
        ButtonCell.self, DatePickerCell.self, PickerCell.self, SegmentsCell.self,
        NumberCell.self, IntegerCell.self, MultiSelectCell.self,
    ])

@_cdecl("formwork_pack_v1")
public func formworkPackV1() -> UnsafeRawPointer { standardPack.entry }
