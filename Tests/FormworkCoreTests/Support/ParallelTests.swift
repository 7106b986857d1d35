import Synchronization
import Testing

@testable import FormworkCore

@Suite("Work on several cores")
struct ParallelTests {
    @Test("results come back in order whatever thread made them; little work stays on this thread")
    func ordered() {
        #expect(Parallel.map(0, worthIt: true) { $0 }.isEmpty)
        #expect(Parallel.map(1, worthIt: true) { $0 * 2 } == [0])
        let many = Parallel.map(10_000, worthIt: true) { i in String(i * 3) }
        #expect(many == (0..<10_000).map { String($0 * 3) })
        let calls = Atomic<Int>(0)
        let once = Parallel.map(500, worthIt: false) { i -> Int in
            calls.add(1, ordering: .relaxed)
            return i
        }
        #expect(once == Array(0..<500))
        #expect(calls.load(ordering: .relaxed) == 500)
    }
}
