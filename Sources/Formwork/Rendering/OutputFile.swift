import Glibc

/// Writes output atomically: a temporary file beside the target, `fsync`, then
/// `rename`, so a crash or a full disk never leaves a half-written file.
public enum OutputFile {
    public struct WriteError: Error, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "\(path): cannot write: \(reason)" }
    }

    /// The corresponding C functions are `mkstemp`, `write`, `fsync` and `rename`.
    public static func write(_ text: String, to path: String) throws(WriteError) {
        let directory = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        let base = path.split(separator: "/").last.map(String.init) ?? path
        var template = Array("\(directory.isEmpty ? "/" : directory)/.\(base).XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw WriteError(path: path, reason: String(cString: strerror(errno))) }
        let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        var failure: String?
        var bytes = Array(text.utf8)
        bytes.withUnsafeMutableBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { failure = String(cString: strerror(errno)); return }
                offset += n
            }
        }
        if failure == nil && fsync(fd) != 0 { failure = String(cString: strerror(errno)) }
        fchmod(fd, 0o644)
        close(fd)
        if failure == nil && rename(temporary, path) != 0 { failure = String(cString: strerror(errno)) }
        if let failure {
            unlink(temporary)
            throw WriteError(path: path, reason: failure)
        }
    }
}
