import FormworkCore
import Glibc

/// How a cache file is read: as data that anyone could have planted, never trusted output. Opened without
/// following links or blocking (`O_NOFOLLOW | O_NONBLOCK`: a FIFO or a link planted as the file is refused, not
/// waited on), and used only when it is a regular file owned by the user in a directory only the user can write
/// (ssh's StrictModes), and when the checksum over its bytes (the last eight) holds. Anything else is one line's
/// warning and a rebuild.
package enum CacheFile {
    /// What is wrong with a cache file that exists but was not used (nil when it was used or is missing).
    package struct Refusal: Error, CustomStringConvertible {
        package let path: String, reason: String
        package var description: String { "ignoring the cache \(path): \(reason); it is rebuilt" }
    }

    /// The bytes of `path` without their checksum, when the file may be used; nil when it is missing.
    package static func read(_ path: String, limit: Int) throws(Refusal) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw Refusal(path: path, reason: errno == ELOOP ? "it is a symbolic link" : String(cString: strerror(errno)))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw Refusal(path: path, reason: String(cString: strerror(errno))) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw Refusal(path: path, reason: "it is not a regular file") }
        guard info.st_uid == geteuid() else { throw Refusal(path: path, reason: "it belongs to another user") }
        guard info.st_mode & 0o022 == 0 else { throw Refusal(path: path, reason: "others can write it") }
        let directory = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        var parent = stat()
        guard stat(directory.isEmpty ? "/" : directory, &parent) == 0, parent.st_uid == geteuid(), parent.st_mode & 0o022 == 0
        else { throw Refusal(path: path, reason: "its directory can be written by others, or belongs to another user") }
        // Back to blocking reads now that it is known to be a regular file.
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        let bytes: [UInt8]
        do { bytes = try FileBytes.read(fd: fd, limit: limit) } catch { throw Refusal(path: path, reason: "\(error)") }
        guard bytes.count >= 8 else { throw Refusal(path: path, reason: "it is truncated") }
        let body = Array(bytes[..<(bytes.count - 8)])
        var stored: UInt64 = 0
        for (k, b) in bytes[(bytes.count - 8)...].enumerated() { stored |= UInt64(b) << UInt64(8 * k) }
        guard checksum(body) == stored else { throw Refusal(path: path, reason: "its checksum does not match (damaged or edited)") }
        return body
    }

    /// `bytes` with their checksum appended, as `read` expects them.
    package static func sealed(_ bytes: [UInt8]) -> [UInt8] {
        var out = bytes
        let sum = checksum(bytes)
        for k in 0..<8 { out.append(UInt8(truncatingIfNeeded: sum >> UInt64(8 * k))) }
        return out
    }

    /// FNV-1a over 64 bits, eight bytes at a time folded in: a check against damage and casual edits (the owner
    /// of the file could always write a matching one; the ownership checks keep others out).
    static func checksum(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        bytes.withUnsafeBufferPointer { buffer in
            for b in buffer {
                hash ^= UInt64(b)
                hash = hash &* 0x0000_0100_0000_01B3
            }
        }
        return hash
    }
}
