import Glibc
import Synchronization
import Testing

@testable import FormworkCore

@Suite("Work on several cores")
struct ParallelTests {
    /// The `[heap]` mapping of this process (the main heap, below the program break), from `/proc/self/maps`.
    static func mainHeap() -> Range<UInt>? {
        guard let file = fopen("/proc/self/maps", "r") else { return nil }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 4096)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard text.hasSuffix("[heap]\n"), let dash = text.firstIndex(of: "-"), let space = text.firstIndex(of: " "),
                let start = UInt(text[..<dash], radix: 16), let end = UInt(text[text.index(after: dash)..<space], radix: 16)
            else { continue }
            return start..<end
        }
        return nil
    }

    @Test("usesMainHeap says whether this thread's blocks come from the kernel's [heap] mapping, on every thread")
    func mainHeapOfAThread() {
        // Many threads at once: some get heaps of their own, others (past the C library's limit) share one,
        // perhaps the main heap. Each compares the answer with where a block of its own lies.
        let answers = Parallel.map(64, worthIt: true) { _ -> (said: Bool, block: UInt) in
            let said = Parallel.usesMainHeap()
            let block = malloc(4096)!
            defer { free(block) }
            return (said, UInt(bitPattern: block))
        }
        // No [heap] at all (an allocator of a sanitizer's own, which maps its memory): no thread is on it.
        let heap = Self.mainHeap() ?? 0..<0
        for answer in answers { #expect(answer.said == heap.contains(answer.block)) }
    }

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

    @Test("mapOnWorkers tells each item its worker: 0 is this thread, one thread a worker, never two items of one worker at once")
    func workers() {
        #expect(Parallel.workers(0, worthIt: true) == 1)
        #expect(Parallel.workers(500, worthIt: false) == 1)
        #expect(Parallel.workers(500, worthIt: true) == Parallel.threads)
        #expect(Parallel.workers(1, worthIt: true) == 1)
        let here = pthread_self()
        let count = 400
        let workers = Parallel.workers(count, worthIt: true)
        // For each worker: items running now, most at once, and the threads it ran on.
        let seen = Mutex<(running: [Int], most: [Int], threads: [[pthread_t]])>(
            (Array(repeating: 0, count: workers), Array(repeating: 0, count: workers), Array(repeating: [], count: workers)))
        let results = Parallel.mapOnWorkers(count, worthIt: true) { worker, i -> Int in
            seen.withLock { seen in
                seen.running[worker] += 1
                seen.most[worker] = max(seen.most[worker], seen.running[worker])
                let me = pthread_self()
                if !seen.threads[worker].contains(where: { pthread_equal($0, me) != 0 }) { seen.threads[worker].append(me) }
            }
            usleep(200)  // long enough for another thread to come in
            seen.withLock { $0.running[worker] -= 1 }
            return i * 7
        }
        #expect(results == (0..<count).map { $0 * 7 })
        seen.withLock { seen in
            #expect(seen.most.allSatisfy { $0 <= 1 })
            #expect(seen.threads.allSatisfy { $0.count <= 1 })
            #expect(seen.threads[0].count == 1 && pthread_equal(seen.threads[0][0], here) != 0)
            // Each worker is a thread of its own.
            let all = seen.threads.flatMap { $0 }
            for a in all.indices { for b in all.indices where a < b { #expect(pthread_equal(all[a], all[b]) == 0) } }
        }
        // Little work: every item on this thread, worker 0.
        let alone = Parallel.mapOnWorkers(50, worthIt: false) { worker, i in
            pthread_equal(pthread_self(), here) != 0 && worker == 0 ? i : -1
        }
        #expect(alone == Array(0..<50))
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
