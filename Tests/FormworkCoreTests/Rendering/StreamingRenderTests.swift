import Testing

@testable import FormworkCore

@Suite("Rendering: output streamed a few sections at a time")
struct StreamingRenderTests {
    /// 30 sections of 100 fields (enough for the parallel path), one hidden, with a header and footer each.
    func tree() throws -> ViewTree {
        var yaml = "formwork: 1\nid: big\ntitle: Big form\nsections:\n"
        for s in 0..<30 {
            yaml += "  - id: s\(s)\n    header: Section \(s)\n    footer: End of \(s)\n"
            if s == 7 { yaml += "    visibleIf: 'false'\n" }
            yaml += "    fields:\n"
            for f in 0..<100 {
                yaml +=
                    f % 2 == 0
                    ? "      - { id: t\(s)_\(f), cell: test.text-field, model: { title: \"Name \(f)\", value: \"v\(f)\" } }\n"
                    : "      - { id: c\(s)_\(f), cell: test.counter, model: { value: \(f) } }\n"
            }
        }
        let form = try FormDecoder.decode(text: yaml, json: false, registry: InMemory.Catalog())
        return try FormRuntime(driver: InMemory.Driver()).render(form)
    }

    @Test("the chunks of Renderer.write are the bytes of Renderer.render, in every format, none holds the whole, small ones are gathered")
    func chunksMatch() throws {
        let tree = try tree()
        for format in OutputFormat.allCases {
            var chunks: [[UInt8]] = []
            Renderer.write(tree, as: format, width: 72) { chunks.append(Array($0)) }
            let whole = Array(Renderer.render(tree, as: format, width: 72).utf8)
            #expect(chunks.flatMap { $0 } == whole, "\(format)")
            #expect(chunks.count > 10, "\(format): \(chunks.count) chunks")
            #expect(chunks.map(\.count).max()! < whole.count / 10, "\(format)")
            // Small pieces are gathered before they reach the sink (a system call each in `formwork render`):
            // no two chunks in a row would have fitted in one.
            #expect(zip(chunks, chunks.dropFirst()).allSatisfy { $0.count + $1.count > Renderer.chunk }, "\(format)")
        }
    }
}
