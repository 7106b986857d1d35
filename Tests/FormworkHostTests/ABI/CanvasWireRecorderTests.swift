import Testing

@testable import FormworkCore
@testable import FormworkHost
import FormworkTestSupport

/// The cell host records views straight into their wire encoding; the host decodes them. Whatever a pack
/// draws, that must decode to the views the in-process recorder makes of the same calls.
@Suite("ABI: views recorded as wire bytes decode to the views recorded as nodes")
struct CanvasWireRecorderTests {
    /// The nodes of one request through both recorders (a fresh request each way, on the same instance pool).
    func bothWays(
        _ cells: InProcessCells, _ request: CellRequest, sameBytes: Bool = false
    ) throws -> (nodes: [ViewNode], decoded: [ViewNode]) {
        let nodes = try cells.perform(request).nodes
        let recorder = CanvasWireRecorder()
        let response = try cells.perform(request, recorder: recorder)
        #expect(response.nodes.isEmpty)
        // Valid UTF-8 throughout: the very bytes the encoder of view nodes writes for them.
        if sameBytes {
            var reference = WireWriter()
            for node in nodes { reference.node(node) }
            #expect(recorder.out.bytes == reference.bytes && Int(recorder.rootCount) == nodes.count)
        }
        // What the cell host writes into its response frame, read back as the host reads it.
        var w = WireWriter()
        IsolatedCells.encode(response, position: 7, recorder: recorder, into: &w)
        var r = WireReader(w.bytes)
        let (position, decoded) = try IsolatedCells.decodeResponse(&r)
        #expect(position == 7 && r.atEnd)
        #expect(decoded.rejections == response.rejections)
        return (nodes, decoded.nodes)
    }

    /// The corner-case canvas pack (`canvas_pack.c`, built with the C compiler as a third party builds it) loaded
    /// in this process, and its cell type: an integer `mode` picks what it draws.
    func canvasCells() throws -> (InProcessCells, CellType) {
        let path = try CCompiler.pack("canvas", source: Source.fixture("canvas_pack.c"), include: Source.include)
        let registry = firstPartyRegistry(plus: [path])
        return (InProcessCells(registry: registry), try registry.cellType("org.test.canvas"))
    }

    /// The value fields the canvas cell is rendered with. The value field's controls take the accessibility id
    /// itself: a name, none, a prefix and an extension of one, and a name that is not ASCII, composed and
    /// decomposed (the same string, other bytes).
    static let valueFields: [String?] = ["mode", nil, "pick", "mo", "modes", "caf\u{E9}", "cafe\u{301}"]

    /// A request of the canvas cell drawing `mode`.
    func canvasRequest(_ cell: CellType, mode: Int64, valueField: String?) -> CellRequest {
        CellRequest(cell: cell, fieldID: "corner", model: [.integer(mode)], offers: [], accessibilityId: "corner", valueField: valueField)
    }

    @Test("every first-party cell of the gallery, as a render sends it")
    func firstParty() throws {
        let registry = firstPartyRegistry()
        let cells = InProcessCells(registry: registry)
        let form = Samples.galleryForm(registry)
        var count = 0
        for section in form.sections {
            for field in section.fields {
                let (request, _) = FormRuntime.prepare(field)
                let (nodes, decoded) = try bothWays(cells, request, sameBytes: true)
                #expect(decoded == nodes, "\(field.cell.id)")
                #expect(!nodes.isEmpty)
                count += 1
            }
        }
        #expect(count >= 10)
    }

    @Test(
        "corner cases: bad UTF-8, NULLs, unknown enums, NaN, repeated controls, the node limit, deep and unbalanced groups",
        arguments: [0, 1, 2])
    func cornerCases(mode: Int64) throws {
        let (cells, cell) = try canvasCells()
        for valueField in Self.valueFields {
            let (nodes, decoded) = try bothWays(cells, canvasRequest(cell, mode: mode, valueField: valueField))
            #expect(decoded == nodes)
            if mode == 0 {
                // The two spellings of café are one name: the value field's (ids of the accessibility id's own) when
                // it is either, another field's (`corner-café`, twice) otherwise.
                let ids = toggleIDs(decoded, labels: ["Composed", "Decomposed"])
                let isValueField = valueField == "caf\u{E9}"
                #expect(ids.count == 2 && ids.allSatisfy { $0.hasPrefix("corner-caf") != isValueField }, "\(ids)")
            }
            let cut = nodes.contains { if case .message(.warning, let text) = $0 { text.hasPrefix("output cut") } else { false } }
            #expect(cut == (mode != 0))
        }
    }

    /// The ids of the toggles labelled one of `labels`, in the order drawn.
    func toggleIDs(_ nodes: [ViewNode], labels: Set<String>) -> [String] {
        nodes.flatMap { node -> [String] in
            switch node {
            case .group(_, _, let children): toggleIDs(children, labels: labels)
            case .toggle(let control, _) where labels.contains(control.label ?? ""): [control.id]
            default: []
            }
        }
    }

    @Test("one recorder, render after render (as the cell host keeps it): no control id of one render is taken in the next")
    func reused() throws {
        let (cells, cell) = try canvasCells()
        let recorder = CanvasWireRecorder()
        // Modes 1 and 2 give more than eight controls one id (the ids kept in a set); mode 0 a few (a short list).
        for mode: Int64 in [0, 1, 0, 2, 0, 0, 1] {
            for valueField in Self.valueFields {
                let request = canvasRequest(cell, mode: mode, valueField: valueField)
                let nodes = try cells.perform(request).nodes
                let response = try cells.perform(request, recorder: recorder)
                var w = WireWriter()
                IsolatedCells.encode(response, position: 1, recorder: recorder, into: &w)
                var r = WireReader(w.bytes)
                let (_, decoded) = try IsolatedCells.decodeResponse(&r)
                #expect(decoded.nodes == nodes, "mode \(mode), value field \(valueField ?? "none")")
            }
        }
    }

    @Test("a render that fails reports the same failure, and the next render starts clean")
    func failure() throws {
        let (cells, cell) = try canvasCells()
        func request(_ mode: Int64) -> CellRequest { canvasRequest(cell, mode: mode, valueField: nil) }
        let recorder = CanvasWireRecorder()
        var direct: RuntimeError?
        var wired: RuntimeError?
        do { _ = try cells.perform(request(3)) } catch { direct = error }
        do { _ = try cells.perform(request(3), recorder: recorder) } catch { wired = error }
        #expect(direct != nil && wired?.message == direct?.message)
        _ = try cells.perform(request(2), recorder: recorder)
        let (nodes, decoded) = try bothWays(cells, request(2))
        #expect(decoded == nodes)
    }
}
