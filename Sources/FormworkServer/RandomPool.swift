import Glibc
import Synchronization

/// Random bytes from the kernel (`/dev/urandom`), read 4 KiB at a time and each handed out once, then wiped from the
/// pool: a page's cookie and token nonce took a system call for every 8 bytes through `SystemRandomNumberGenerator`
/// (swift-crypto's `SymmetricKey(size:)` reads it that way), a visible share of a `GET /forms/{id}` (docs/performance.md).
///
/// The pool lives in this process only: the server's children are started with `posix_spawn` and run another program,
/// so no copy of it outlives a fork.
final class RandomPool: Sendable {
    static let shared = RandomPool()

    private struct State {
        var bytes = [UInt8](repeating: 0, count: RandomPool.size)
        var next = RandomPool.size  // empty: filled on the first call
    }
    private let state = Mutex(State())
    static let size = 4096

    /// `count` random bytes (any count: more than the pool holds are read for the caller alone).
    func bytes(_ count: Int) -> [UInt8] {
        guard count <= Self.size / 4 else { return Self.read(count) }
        return state.withLock { state in
            if state.next + count > state.bytes.count {
                state.bytes = Self.read(Self.size)
                state.next = 0
            }
            let start = state.next
            state.next += count
            return state.bytes.withUnsafeMutableBufferPointer { pool in
                let out = Array(pool[start..<start + count])
                _ = memset(pool.baseAddress! + start, 0, count)  // handed out once: not kept in memory after
                return out
            }
        }
    }

    /// `count` bytes from the kernel's generator (`/dev/urandom`: Swift's Glibc module has no `getrandom`); from the
    /// standard library's generator should the device not be readable.
    private static func read(_ count: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        var filled = 0
        let fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC)
        if fd >= 0 {
            out.withUnsafeMutableBytes { buffer in
                while filled < count {
                    let n = Glibc.read(fd, buffer.baseAddress! + filled, count - filled)
                    if n > 0 {
                        filled += n
                    } else if n < 0 && errno == EINTR {
                        continue
                    } else {
                        break
                    }
                }
            }
            close(fd)
        }
        if filled < count {
            var generator = SystemRandomNumberGenerator()
            for i in filled..<count { out[i] = UInt8.random(in: .min ... .max, using: &generator) }
        }
        return out
    }
}
