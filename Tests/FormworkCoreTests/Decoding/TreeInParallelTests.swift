import FormworkTestSupport
import Testing

@testable import FormworkCore

/// A large document's sections are decoded on several cores, runs of small sections by one decoder each:
/// what comes out must be what one decoder makes of it in order.
@Suite("Document: sections decoded on several cores")
struct TreeInParallelTests {
    /// The in-memory catalog, declared safe to share (it is immutable): the decoder may then go parallel.
    struct SharedCatalog: CellTypeCatalog {
        let inner = InMemory.Catalog()
        func cellType(_ id: String) throws(RegistryError) -> CellType { try inner.cellType(id) }
        var cellTypes: [CellType] { inner.cellTypes }
        var supportsConcurrentLookups: Bool { true }
    }

    /// Sections of 1 to 40 fields (3,000 and more in all), or a first section of 6,000 fields (decoded a run
    /// at a time) and ten of 1 to 10, with conditions, and with faults in some when asked: a value of the
    /// wrong type, an unknown key, an unknown cell type, a title missing.
    static func document(faults: Bool, large: Bool = false) -> String {
        var sections: [String] = []
        var n = 0
        for s in 0..<(large ? 11 : 260) {
            var fields: [String] = []
            for _ in 0..<(large ? (s == 0 ? 6000 : s) : 1 + s % 40) {
                n += 1
                var field =
                    n % 2 == 0
                    ? #"{"id":"t\#(n)","cell":"test.text-field","model":{"title":"Name \#(n)","value":"v\#(n)"}"#
                    : #"{"id":"c\#(n)","cell":"test.counter","model":{"value":\#(n % 50)}"#
                if n % 97 == 0 { field += (n - 1) % 2 == 0 ? #","visibleIf":"t\#(n - 1) != ''""# : #","visibleIf":"c\#(n - 1) > 3""# }
                if faults && n % 211 == 0 { field = #"{"id":"c\#(n)","cell":"test.counter","model":{"value":"many"}"# }
                if faults && n % 307 == 0 { field += #","colour":"red""# }
                if faults && n % 401 == 0 { field = #"{"id":"x\#(n)","cell":"test.nothing""# }
                if faults && n % 503 == 0 { field = #"{"id":"t\#(n)","cell":"test.text-field","model":{}"# }
                fields.append(field + "}")
            }
            sections.append(#"{"id":"s\#(s)","header":"Section \#(s)","fields":[\#(fields.joined(separator: ","))]}"#)
        }
        return #"{"formwork":1,"id":"big","sections":[\#(sections.joined(separator: ","))]}"#
    }

    /// The tree of `text` decoded on several cores (`FormDecoder.decodeTreeInParallel`, which `decode` takes with
    /// four cores or more), or nil when that path does not take it.
    static func inParallel(_ text: String) throws(FormError) -> Form? {
        let root: SourceNode
        do { root = try SourceFile.parse(text, format: .json) } catch { throw .parse("big.json", error) }
        return try FormDecoder.decodeTreeInParallel(root, registry: SharedCatalog(), file: nil)
    }

    @Test("a valid document: the same sections and fields, in order", arguments: [false, true])
    func same(large: Bool) throws {
        let text = Self.document(faults: false, large: large)
        let parallel = try #require(try Self.inParallel(text))
        let sequential = try FormDecoder.decode(text: text, json: true, registry: InMemory.Catalog())
        #expect(parallel.sections.map(\.id) == sequential.sections.map(\.id))
        #expect(parallel.sections.flatMap(\.fields).map(\.id) == sequential.sections.flatMap(\.fields).map(\.id))
        #expect(parallel.sections.flatMap(\.fields).map(\.model) == sequential.sections.flatMap(\.fields).map(\.model))
        #expect(parallel.sections.flatMap(\.fields).map(\.conditions) == sequential.sections.flatMap(\.fields).map(\.conditions))
        #expect(parallel.sections.flatMap(\.fields).count > 3000)
    }

    @Test("a document with faults in many sections: the same diagnostics, in the same order", arguments: [false, true])
    func diagnostics(large: Bool) {
        let text = Self.document(faults: true, large: large)
        func problems(_ registry: any CellTypeCatalog) -> [String] {
            do {
                _ = try FormDecoder.decode(text: text, json: true, registry: registry)
                return []
            } catch {
                guard case .invalid(let list) = error else { return ["\(error)"] }
                return list.map(\.description)
            }
        }
        let parallel: [String]
        do {
            parallel = try Self.inParallel(text) == nil ? ["not taken"] : []
        } catch {
            guard case .invalid(let list) = error else { return #expect(Bool(false), "\(error)") }
            parallel = list.map(\.description)
        }
        #expect(parallel.count > 20)
        #expect(parallel == problems(InMemory.Catalog()))
    }
}
