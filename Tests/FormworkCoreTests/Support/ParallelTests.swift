import Glibc
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

    @Test("alongside runs both, the side work on a thread of its own when there are cores, and rethrows only after it is done")
    func alongside() {
        struct Failure: Error, Equatable {}
        let here = pthread_self()
        var sideThread: pthread_t?
        var side: [Int] = []
        let result = Parallel.alongside({ () -> Int in (1...100).reduce(0, +) }) {
            sideThread = pthread_self()
            side = (0..<1000).map { $0 * 2 }
        }
        #expect(result == 5050)
        #expect(side.count == 1000 && side.last == 1998)
        #expect(sideThread.map { pthread_equal($0, here) != 0 } == (Parallel.threads == 1))
        // A failing `work` is thrown once the side work has finished (it may hold the caller's state).
        let finished = Atomic<Bool>(false)
        #expect(throws: Failure()) {
            try Parallel.alongside({ () throws(Failure) -> Int in throw Failure() }) {
                usleep(20_000)
                finished.store(true, ordering: .releasing)
            }
        }
        let done = finished.load(ordering: .acquiring)
        #expect(done)
    }

    @Test("stream hands every result over in order, a window at a time, on one thread or several")
    func streamed() {
        for worthIt in [true, false] {
            var seen: [Int] = []
            var most = 0
            var made = 0
            let lock = Mutex(0)
            Parallel.stream(1_000, worthIt: worthIt) { i -> String in
                lock.withLock { $0 += 1 }
                return String(i * 7)
            } consume: { i, text in
                seen.append(i)
                #expect(text == String(i * 7))
                made = lock.withLock { $0 }
                most = max(most, made - seen.count)
            }
            #expect(seen == Array(0..<1_000))
            // Results made but not yet consumed never exceed a window (4 per thread).
            #expect(most < max(1, Parallel.threads * 4), "worthIt \(worthIt): \(most) results held")
        }
        Parallel.stream(0, worthIt: true) {
            $0
        } consume: { _, _ in
            Issue.record("nothing to consume")
        }
    }
}
