import FormworkCore
import Glibc

/// The threads that drive cells for requests: each lane owns one cell driver (and so its own cell host child) and
/// runs one job at a time on a thread of its own. A driver call blocks (a round trip to the child, up to the pack
/// timeout when a cell hangs), so it never runs on the server's event loops or on Swift's cooperative threads;
/// a hanging cell holds one lane, and the others go on serving.
public final class CellLanes: Sendable {
    /// Why a job was not run.
    public enum Refusal: Error, Sendable {
        /// Every lane is busy and `queueLimit` jobs already wait: the server answers 503 at once.
        case overloaded
        /// The lanes were stopped.
        case stopped
    }

    private struct Job {
        let work: @Sendable (any CellDriver) -> Void
    }

    /// The queue, guarded by `condition`'s mutex.
    private final class Queue: @unchecked Sendable {
        let condition = Condition()
        /// Jobs waiting from `head` on; a job taken is cleared at once, so that nothing it captured (a service,
        /// a continuation) outlives it (a kept closure that held its service was a cycle: service → lanes → job).
        var jobs: [Job?] = []
        var head = 0
        var stopped = false

        /// The next job, waiting for one; nil once the lanes are stopped and the queue is empty.
        func next() -> Job? {
            condition.lock()
            defer { condition.unlock() }
            while true {
                if head < jobs.count, let job = jobs[head] {
                    jobs[head] = nil
                    head += 1
                    if head > 256 && head * 2 > jobs.count {
                        jobs.removeFirst(head)
                        head = 0
                    }
                    return job
                }
                if stopped { return nil }
                condition.wait()
            }
        }
    }

    private let queue = Queue()
    private let queueLimit: Int
    private let threads: [Thread]

    /// `count` lanes, each with a driver made by `makeDriver` on its own thread; `afterJob` is called with the driver
    /// after each job (metrics), `finish` on each driver when the lanes stop. At most `queueLimit` jobs wait for a lane.
    public init(
        count: Int, queueLimit: Int = 1024, makeDriver: @escaping @Sendable () -> any CellDriver,
        afterJob: @escaping @Sendable (any CellDriver) -> Void = { _ in },
        finish: @escaping @Sendable (any CellDriver) -> Void = { _ in }
    ) {
        self.queueLimit = queueLimit
        let queue = self.queue
        threads = (0..<max(1, count)).map { _ in
            Thread {
                let driver = makeDriver()
                while let job = queue.next() {
                    job.work(driver)
                    afterJob(driver)
                }
                finish(driver)
            }
        }
    }

    /// Runs `work` with a lane's driver and returns what it returns; waits (without holding a thread) for a lane.
    public func run<T: Sendable>(_ work: @escaping @Sendable (any CellDriver) -> T) async throws(Refusal) -> T {
        let result: Result<T, Refusal> = await withCheckedContinuation { continuation in
            // The lane's thread writes the host's words in the request's language: task-locals stay with the task.
            let messages = Messages.current
            let job = Job { driver in continuation.resume(returning: .success(Messages.$bound.withValue(messages) { work(driver) })) }
            queue.condition.lock()
            var refusal: Refusal? = nil
            if queue.stopped {
                refusal = .stopped
            } else if queue.jobs.count - queue.head >= queueLimit {
                refusal = .overloaded
            } else {
                queue.jobs.append(job)
                queue.condition.signal()
            }
            queue.condition.unlock()
            if let refusal { continuation.resume(returning: .failure(refusal)) }
        }
        return try result.get()
    }

    /// Lets the jobs already queued finish, then ends every lane (and its driver's child).
    public func stop() {
        queue.condition.lock()
        let first = !queue.stopped
        queue.stopped = true
        queue.condition.broadcast()
        queue.condition.unlock()
        // Only the first call joins (a thread is joined once); later calls return at once.
        if first { for thread in threads { thread.join() } }
    }
}

/// A pthread condition variable with its mutex (the lanes sleep on it).
final class Condition: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    private var condition = pthread_cond_t()

    init() {
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&condition, nil)
    }

    func lock() { pthread_mutex_lock(&mutex) }
    func unlock() { pthread_mutex_unlock(&mutex) }
    func wait() { pthread_cond_wait(&condition, &mutex) }
    func signal() { pthread_cond_signal(&condition) }
    func broadcast() { pthread_cond_broadcast(&condition) }
}

/// A joinable pthread running one closure.
final class Thread: @unchecked Sendable {
    private var handle = pthread_t()

    init(_ body: @escaping @Sendable () -> Void) {
        final class Box { let body: @Sendable () -> Void; init(_ b: @escaping @Sendable () -> Void) { body = b } }
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        let created = pthread_create(
            &handle, nil,
            { raw in
                let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
                box.body()
                return nil
            }, box)
        precondition(created == 0, "pthread_create failed: \(created)")
    }

    func join() { pthread_join(handle, nil) }
}
