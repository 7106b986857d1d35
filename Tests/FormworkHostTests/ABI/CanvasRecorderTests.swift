import Testing

@testable import FormworkCore
@testable import FormworkHost

@Suite("ABI: the canvas recorder gives every control an id of its own")
struct CanvasRecorderTests {
    /// What the recorder gave before it kept a short list and the next suffix: a set, and every suffix tried from 2.
    func reference(_ requests: [(field: String?, action: Bool)], accessibilityId: String, valueField: String?) -> [String] {
        var used: Set<String> = []
        return requests.map { r in
            var id = r.action || r.field == nil || r.field == valueField ? accessibilityId : "\(accessibilityId)-\(r.field!)"
            if used.contains(id) {
                var n = 2
                while used.contains("\(id)-\(n)") { n += 1 }
                id = "\(id)-\(n)"
            }
            used.insert(id)
            return id
        }
    }

    @Test("ids are the same as the set-based recorder gave, through the short list and the set")
    func sameIDs() {
        // Repeats of the value field, of other fields, of buttons, and fields named like a suffix ("value-2" after
        // "value" was given twice), past the eight ids the short list holds.
        var requests: [(field: String?, action: Bool)] = []
        for round in 0..<6 {
            requests += [("value", false), ("unit", false), (nil, false), ("go", true), ("2", false), ("unit-2", false)]
            if round % 2 == 0 { requests.append(("3", false)) }
        }
        let recorder = CanvasRecorder(accessibilityId: "f", valueField: "value")
        let ids = requests.map { recorder.control(field: $0.field, label: nil, flags: 0, action: $0.action).id }
        #expect(ids == reference(requests, accessibilityId: "f", valueField: "value"))
        #expect(Set(ids).count == ids.count)
        #expect(ids.prefix(4) == ["f", "f-unit", "f-2", "f-3"])
    }

    @Test("a cell that draws thousands of controls for one field gets thousands of ids, each once")
    func manyControls() {
        let recorder = CanvasRecorder(accessibilityId: "f", valueField: nil)
        let ids = (0..<CanvasRecorder.maxNodes).map { _ in recorder.control(field: "x", label: nil, flags: 0).id }
        #expect(Set(ids).count == ids.count)
        #expect(ids[0] == "f-x" && ids[1] == "f-x-2" && ids.last == "f-x-\(CanvasRecorder.maxNodes)")
    }
}
