import Testing

@testable import FormworkCore
@testable import FormworkHost

/// A cell host's answers are decoded frame by frame; a choice list that repeats from view to view (every picker's
/// options) is decoded once and shared (`RecentChoices`). Sharing must never give a view another view's list.
@Suite("Isolation: a choice list repeated across a batch's responses is one array")
struct RecentChoicesTests {
    static let a = [Choice(value: "One"), Choice(value: "Two"), Choice(value: "Three")]
    static let b = [Choice(value: "1", label: "One"), Choice(value: "2", label: "Two")]
    // The same values as `b`, other labels: a list is the same only when every byte is.
    static let c = [Choice(value: "1", label: "Uno"), Choice(value: "2", label: "Two")]
    static let d = [Choice(value: "x")]
    /// `b` but for its last byte.
    static let f = [Choice(value: "1", label: "One"), Choice(value: "2", label: "Twx")]
    static let e = [Choice(value: "Long option number one, over fifteen bytes"), Choice(value: "y")]

    /// One response frame whose single view is a choice control over `choices`.
    static func frame(_ choices: [Choice], position: Int) -> [UInt8] {
        var w = WireWriter()
        w.u32(UInt32(position))
        w.u32(1)
        w.node(.choice(Control(field: "value", id: "f\(position)", label: "Pick"), choices: choices, selected: nil, style: .menu))
        w.u32(0)  // no rejections
        return w.bytes
    }

    static func decode(_ bytes: [UInt8], _ recent: RecentChoices?) throws -> [Choice] {
        var r = WireReader(bytes)
        r.recentChoices = recent
        let (_, response) = try IsolatedCells.decodeResponse(&r)
        #expect(r.atEnd)
        guard case .choice(_, let choices, _, _)? = response.nodes.first else { Issue.record("no choice node"); return [] }
        return choices
    }

    static func buffer(_ list: [Choice]) -> UnsafeRawPointer? { list.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) } }

    @Test("each view gets its own list's choices, equal to what was sent; a list seen among the last four is shared")
    func sharedAndRight() throws {
        let sent = [Self.a, Self.b, Self.a, Self.c, Self.b, [], Self.d, Self.e, Self.a, Self.a, Self.e]
        let recent = RecentChoices()
        var decoded: [[Choice]] = []
        for (i, list) in sent.enumerated() {
            let choices = try Self.decode(Self.frame(list, position: i), recent)
            #expect(choices == list, "view \(i)")
            #expect(choices == (try Self.decode(Self.frame(list, position: i), nil)), "view \(i), decoded alone")
            decoded.append(choices)
        }
        #expect(Self.buffer(decoded[0]) == Self.buffer(decoded[2]), "a repeated two views later is one array")
        #expect(Self.buffer(decoded[1]) == Self.buffer(decoded[4]), "b repeated")
        #expect(Self.buffer(decoded[1]) != Self.buffer(decoded[3]), "c has b's values with another label: a list of its own")
        // a was pushed out by c, b, d and e (an empty list is not kept), and is decoded anew, then shared again.
        #expect(Self.buffer(decoded[8]) != Self.buffer(decoded[0]) && Self.buffer(decoded[9]) == Self.buffer(decoded[8]))
        #expect(Self.buffer(decoded[10]) == Self.buffer(decoded[7]))
        // A list that differs from a kept one in its last byte only is its own.
        #expect(try Self.decode(Self.frame(Self.f, position: 11), recent) == Self.f)
        #expect(try Self.decode(Self.frame(Self.e, position: 12), recent) == Self.e)
        #expect(try Self.decode(Self.frame(Self.f, position: 13), recent) == Self.f)
    }

    @Test("a frame cut inside a list that is kept, or one that holds less than a kept list, is malformed or read as itself")
    func truncated() throws {
        let recent = RecentChoices()
        let whole = Self.frame(Self.e, position: 0)
        _ = try Self.decode(whole, recent)
        // Cut anywhere inside the list: the kept list's bytes run past the frame's end, so it is not taken; the
        // list read as itself is cut short and the frame is refused, never read beyond its end.
        for cut in stride(from: 9, to: whole.count - 4, by: 3) {
            #expect(throws: WireError.self) { _ = try Self.decode(Array(whole.prefix(cut)), recent) }
        }
        // A shorter list after it (the first of `e`'s choices alone) is its own.
        let one = [Self.e[0]]
        #expect(try Self.decode(Self.frame(one, position: 1), recent) == one)
    }
}
