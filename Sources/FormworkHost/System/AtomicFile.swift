import Glibc

/// Cache files replaced atomically: a temporary file beside the target, `fsync`, then
/// `rename`, so a reader sees the old file or the new one and a crash leaves no half file;
/// of two processes writing at once, the last rename wins and both files are whole.
package enum AtomicFile {
    /// Writes `bytes` to `file`, creating its directories (mode 0700); false when it could not
    /// (a cache is only an optimisation: callers go on without it). `durable`: `fsync` before the
    /// rename, so that after a crash the file is the old one or the new one, never empty — for
    /// what is worth a millisecond or two per write; a cache whose damaged file is simply
    /// rebuilt can skip it. The corresponding C functions are `mkdir`, `mkstemp`, `write`,
    /// `fsync` and `rename`.
    @discardableResult
    package static func write(_ bytes: [UInt8], to file: String, durable: Bool = true) -> Bool {
        guard let slash = file.lastIndex(of: "/") else { return false }
        makeDirectories(String(file[..<slash]))
        var template = Array("\(file).XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { return false }
        let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        var offset = 0
        var ok = true
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 {
                ok = false
                break
            }
            offset += n
        }
        if ok && durable && fsync(fd) != 0 { ok = false }
        close(fd)
        if !ok || rename(temporary, file) != 0 {
            unlink(temporary)
            return false
        }
        return true
    }

    /// `mkdir -p` with mode 0700 for the parts that do not exist.
    package static func makeDirectories(_ path: String) {
        var current = ""
        for part in path.split(separator: "/") {
            current += "/\(part)"
            mkdir(current, 0o700)
        }
    }
}
