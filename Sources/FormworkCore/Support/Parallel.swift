import Glibc
import Synchronization

/// Independent pieces of work spread over the machine's cores with plain threads (no
/// Dispatch, no Foundation): the renderers lay out a large form's sections this way.
/// Results come back in order, so the output is the same byte for byte as one thread's.
package enum Parallel {
    /// Threads to use: the online cores (at most 8), or `FORMWORK_THREADS` when set (1 turns it off), or fewer
    /// from `limit(to:)` on.
    package static var threads: Int {
        let limit = limited.load(ordering: .relaxed)
        return limit > 0 ? min(limit, available) : available
    }

    private static let available: Int = {
        if let n = explicitThreads { return n }
        return max(1, min(8, sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }()

    /// `FORMWORK_THREADS`, when it is set to a number of threads.
    private static let explicitThreads: Int? = {
        guard let text = getenv("FORMWORK_THREADS").map({ String(cString: $0) }), let n = Int(text), n >= 1 else { return nil }
        return min(n, 64)
    }()

    private static let limited = Atomic<Int>(0)

    /// At most `count` threads from now on (`threads`), unless `FORMWORK_THREADS` says how many. The command's
    /// `ProcessTuning` limits itself to one for a document too small to gain from more (its cell host already works
    /// on the other core).
    package static func limit(to count: Int) {
        guard explicitThreads == nil, count >= 1 else { return }
        limited.store(count, ordering: .relaxed)
    }

    /// `body(i)` for every `i` in `0..<count`, in order. With `worthIt` false (little work: a thread costs
    /// tens of microseconds to start) or one core, it runs on this thread only. `body` must not touch
    /// shared mutable state: it runs on several threads at once.
    package static func map<T>(_ count: Int, worthIt: Bool, _ body: (Int) -> T) -> [T] {
        mapOnWorkers(count, worthIt: worthIt) { _, i in body(i) }
    }

    /// How many workers `mapOnWorkers(count, worthIt:)` runs `body` on, at most: worker 0 is the calling thread.
    package static func workers(_ count: Int, worthIt: Bool) -> Int { max(1, worthIt ? min(Self.threads, count) : 1) }

    /// `body(worker, i)` for every `i` in `0..<count`, in order, as `map`; `worker` (below `workers(count,
    /// worthIt:)`) says which thread runs it: 0 is the calling thread, and no two items of one worker run at
    /// once. State that one worker's items share (a decoder's copies of its cell types) can be kept per worker
    /// without a lock.
    package static func mapOnWorkers<T>(_ count: Int, worthIt: Bool, _ body: (_ worker: Int, _ index: Int) -> T) -> [T] {
        let threads = workers(count, worthIt: worthIt)
        if threads <= 1 { return (0..<count).map { body(0, $0) } }
        return withoutActuallyEscaping(body) { body in
            let results = UnsafeMutablePointer<T?>.allocate(capacity: count)
            results.initialize(repeating: nil, count: count)
            defer {
                results.deinitialize(count: count)
                results.deallocate()
            }
            let next = Counter()
            func work(_ worker: Int) {
                while true {
                    let i = next.value.add(1, ordering: .relaxed).oldValue
                    if i >= count { return }
                    results[i] = body(worker, i)
                    keepHeapReserve()
                }
            }
            var started: [pthread_t] = []
            // A worker writes the host's words in the caller's language: task-locals do not cross to a new thread.
            let messages = Messages.current
            for worker in 1..<threads {
                if let thread = start(Job { Messages.$bound.withValue(messages) { work(worker) } }) { started.append(thread) }
            }
            work(0)  // this thread works too; a thread that could not start leaves its share here
            for thread in started { pthread_join(thread, nil) }
            return (0..<count).map { results[$0].take()! }
        }
    }

    /// Bytes of free memory each thread's heap keeps at its top (0, the default: as the C library does).
    ///
    /// The C library grows a thread's heap by exactly what an allocation lacks, whatever `M_TOP_PAD` says, one
    /// `mprotect` call each, and each call takes the memory-map lock that the other threads' page faults wait on.
    /// With a reserve, each thread `Parallel` starts allocates and frees four blocks of this size first, and each
    /// worker one after each item, so that the heap grows in steps of the reserve.
    ///
    /// A global because every thread `Parallel` starts reads it; only the command's `ProcessTuning` sets it, once,
    /// before any thread is started (a library caller owns its allocator and leaves it at 0).
    nonisolated(unsafe) package static var heapReserve = 0

    /// Keeps `heapReserve` bytes free at the top of this thread's heap: `blocks` blocks of that size allocated, then
    /// freed (they come from the top, and go back there). Each block's address is stored where the optimiser
    /// cannot see it go unused: a `malloc` whose block is only freed may be dropped (the per-item block was, and the
    /// heaps grew a page at a time again). The corresponding C functions are `malloc` and `free`.
    static func keepHeapReserve(blocks: Int = 1) {
        let size = heapReserve
        guard size > 0, !usesMainHeap() else { return }
        if blocks == 1 {
            let block = malloc(size)
            reserveSink.store(Int(bitPattern: block), ordering: .relaxed)
            free(block)
            return
        }
        var held: [UnsafeMutableRawPointer?] = []
        held.reserveCapacity(blocks)
        for _ in 0..<blocks {
            let block = malloc(size)
            reserveSink.store(Int(bitPattern: block), ordering: .relaxed)
            held.append(block)
        }
        for block in held { free(block) }
    }

    /// Whether this thread allocates from the main heap (the main thread, or a thread the C library gave the main
    /// heap when it ran out of heaps to make): that heap grows by `M_TOP_PAD` already, and when it is advised for
    /// huge pages a reserve block's end — where the allocator writes the free top's header — faults in a whole huge
    /// page ahead of what is used (docs/performance.md, "Process tuning"). Told by a block too large for the
    /// thread's cache of freed blocks (which may hold another heap's), so it comes from the thread's own heap; the
    /// main heap is the one below the program break. The corresponding C functions are `malloc` and `sbrk`.
    static func usesMainHeap() -> Bool {
        guard let probe = malloc(4096) else { return false }
        defer { free(probe) }
        reserveSink.store(Int(bitPattern: probe), ordering: .relaxed)
        guard let end = sbrk(0), end != UnsafeMutableRawPointer(bitPattern: -1) else { return false }
        return UInt(bitPattern: probe) < UInt(bitPattern: end)
    }

    /// Where `keepHeapReserve` stores its blocks' addresses (never read).
    private static let reserveSink = Atomic<Int>(0)

    /// `body(i)` for every `i` in `0..<count`, each result handed to `consume` in order as soon as its
    /// window is done: windows of a few items per thread, so only a window's results are held at once
    /// (a renderer streams its output this way instead of keeping every section's text).
    ///
    /// Every item of a window is consumed before the next window's are made: an item `i` may write into
    /// memory of its own slot, `i % streamWindow(…)`, that the item of the window before has handed over.
    package static func stream<T>(
        _ count: Int, worthIt: Bool, perThread: Int = 4, _ body: (Int) -> T, consume: (Int, T) -> Void
    ) {
        let window = streamWindow(worthIt: worthIt, perThread: perThread)
        var start = 0
        while start < count {
            let end = min(count, start + window)
            if end - start == 1 {
                consume(start, body(start))
            } else {
                let results = map(end - start, worthIt: worthIt) { body(start + $0) }
                for k in results.indices { consume(start + k, results[k]) }
            }
            start = end
        }
    }

    /// Items per thread in a window of `stream`, for `count` items that weigh `weight` in all (a section's
    /// fields): at least `minimum`, and enough that a thread's share of a window weighs about `target`.
    /// A window of tiny items (a thousand sections of ten fields) cost more to start and join threads
    /// for than to make.
    package static func perThread(_ count: Int, weight: Int, minimum: Int, target: Int = 512) -> Int {
        guard count > 0, weight > 0 else { return minimum }
        return max(minimum, min(1024, target / max(1, weight / count)))
    }

    /// How many items `stream` makes before it consumes them.
    package static func streamWindow(worthIt: Bool, perThread: Int = 4) -> Int {
        worthIt && threads > 1 ? threads * max(perThread, 1) : 1
    }

    /// `work` on this thread while `beside` runs on a thread of its own; returns when both are done.
    /// With one core (`threads` is 1) `beside` runs after `work`, here. The two must not touch the same
    /// mutable state: a pipeline runs a stage this way while the next one's input is being prepared.
    package static func alongside<T, E: Error>(_ work: () throws(E) -> T, beside: () -> Void) throws(E) -> T {
        guard threads > 1 else {
            defer { beside() }
            return try work()
        }
        return try withoutActuallyEscaping(beside) { (beside) throws(E) -> T in
            let messages = Messages.current
            guard let thread = start(Job { Messages.$bound.withValue(messages) { beside() } }) else {
                // No thread to be had: the work is done here, one after the other.
                defer { beside() }
                return try work()
            }
            defer { pthread_join(thread, nil) }
            return try work()
        }
    }

    /// `body` on a thread of its own, whatever `threads` says, for work that another thread waits on
    /// (a writer whose reader is the caller); nil when no thread could be started, and the caller must
    /// do without. Join it with ``join(_:)``.
    package static func thread(_ body: @escaping () -> Void) -> pthread_t? { start(Job(body)) }

    /// Waits for a thread from ``thread(_:)`` to end. The corresponding C function is `pthread_join`.
    package static func join(_ thread: pthread_t) { pthread_join(thread, nil) }

    /// How many threads the calling thread has started through `Parallel`: tests check that small work starts
    /// none (counted per thread, so that tests running at once do not count each other's).
    package static var threadsStartedHere: Int { Int(bitPattern: pthread_getspecific(startedKey)) }
    private static let startedKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// A new thread running `job`, or nil when none could be started. The corresponding C function is `pthread_create`.
    private static func start(_ job: Job) -> pthread_t? {
        pthread_setspecific(startedKey, UnsafeRawPointer(bitPattern: threadsStartedHere + 1))
        let context = Unmanaged.passRetained(job).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(
            &thread, nil,
            { context in
                Unmanaged<Job>.fromOpaque(context!).takeRetainedValue().runOnNewThread()
                return nil
            }, context)
        guard status == 0 else {
            Unmanaged<Job>.fromOpaque(context).release()
            return nil
        }
        return thread
    }

    private final class Counter: Sendable {
        let value = Atomic<Int>(0)
    }

    /// The loop each thread runs (the results pointer and `body` are shared by design: each index is written once).
    private final class Job: @unchecked Sendable {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }

        /// `run` as a new thread's first work: the thread's heap first grows by the reserve, in one step.
        func runOnNewThread() {
            keepHeapReserve(blocks: 4)
            run()
        }
    }
}
