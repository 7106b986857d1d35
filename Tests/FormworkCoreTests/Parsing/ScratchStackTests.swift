import Testing

@testable import FormworkCore

/// The JSON parser's stack of open composites' elements: elements are moved in and out exactly once (every
/// object made is destroyed once, none early), nested composites pop only their own elements, and the arrays
/// made hold their elements in order; the parser built on it reads nested documents and reports duplicate keys
/// past the linear scan's 16 as before.
@Suite("Scratch stack")
struct ScratchStackTests {
    final class Tracked {
        nonisolated(unsafe) static var alive = 0
        let value: Int
        init(_ value: Int) {
            self.value = value
            Tracked.alive += 1
        }
        deinit { Tracked.alive -= 1 }
    }

    @Test("nested pushes and pops, across growths, move every element once")
    func nestedPopsMoveElementsOnce() {
        do {
            let stack = ScratchStack<(key: String, value: Tracked)>(capacity: 1)
            var popped: [[(key: String, value: Tracked)]] = []
            for outer in 0..<50 {
                let first = stack.count
                for k in 0..<outer % 7 { stack.push(("k\(k)", Tracked(outer * 100 + k))) }
                // A nested composite on top: its elements come off alone.
                let inner = stack.count
                for k in 0..<3 { stack.push(("i\(k)", Tracked(-k))) }
                let nested = stack.pop(from: inner)
                #expect(nested.map(\.key) == ["i0", "i1", "i2"])
                #expect(stack.count == inner)
                let mine = stack.pop(from: first)
                #expect(mine.map(\.value.value) == (0..<outer % 7).map { outer * 100 + $0 })
                #expect(mine.count == outer % 7)
                popped.append(mine)
            }
            #expect(stack.count == 0)
            #expect(Tracked.alive == popped.reduce(0) { $0 + $1.count })
            // Left on the stack (a parse that threw): destroyed with it or dropped.
            for k in 0..<10 { stack.push(("left\(k)", Tracked(k))) }
            stack.drop(from: 5)
            #expect(stack.count == 5)
        }
        #expect(Tracked.alive == 0)
    }

    @Test("the parser reads nested objects and lists, and still finds duplicate keys on both sides of 16")
    func parserOnTheStack() throws {
        let text = #"{"a": [1, [2, 3], {"b": {"c": []}, "d": [{}, {"e": null}]}], "f": {"g": 1, "h": [true, false]}}"#
        let node = try JSONParser.parse(text)
        #expect(node.json.serialized(pretty: false) == #"{"a":[1,[2,3],{"b":{"c":[]},"d":[{},{"e":null}]}],"f":{"g":1,"h":[true,false]}}"#)
        guard case .object(let members) = node.kind, case .array(let items) = members[0].value.kind else {
            Issue.record("not an object of a list")
            return
        }
        #expect(members.map(\.key) == ["a", "f"] && items.count == 3)
        let many = (0..<20).map { "\"k\($0)\": \($0)" }.joined(separator: ", ")
        #expect(throws: ParseError.self) { try JSONParser.parse("{\(many), \"k17\": 0}") }
        #expect(throws: ParseError.self) { try JSONParser.parse(#"{"a": 1, "b": {"x": 1, "x": 2}}"#) }
        #expect((try? JSONParser.parse("{\(many), \"k20\": 0}")) != nil)
    }
}
