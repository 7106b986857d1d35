import Glibc

/// Whole-file reads through POSIX calls (no Foundation: loading Foundation's
/// libraries would be most of a small command's start-up).
package enum FileBytes {
    package enum Failure: Error {
        /// `open`, `fstat` or `read` failed; the value is `errno`.
        case system(Int32)
        /// The file holds more than the limit (the size read so far, or the size `fstat` gave).
        case tooLarge(Int)

        /// strerror's words for `.system` ("Permission denied").
        package var reason: String {
            switch self {
            case .system(let code): String(cString: strerror(code))
            case .tooLarge(let size): "\(size) bytes is too large"
            }
        }
    }

    /// The bytes of the file at `path`, at most `limit` of them. The corresponding C functions are `open`, `fstat` and `read`.
    package static func read(_ path: String, limit: Int) throws(Failure) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .system(errno) }
        defer { close(fd) }
        return try read(fd: fd, limit: limit)
    }

    /// Reads `fd` to its end, at most `limit` bytes; sized by `fstat` when it is a regular file.
    package static func read(fd: Int32, limit: Int) throws(Failure) -> [UInt8] {
        var info = stat()
        var expected = 65_536
        if fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG {
            guard info.st_size <= limit else { throw .tooLarge(Int(info.st_size)) }
            expected = Int(info.st_size) + 1  // one more byte to see the end (or a file that grew)
        }
        // Read into uninitialised storage (zeroing a large file's buffer first costs as much as reading it).
        var out: [UInt8] = []
        var count = 0
        var capacity = expected
        while true {
            var failure: Int32 = 0
            var ended = false
            let grown = try [UInt8](unsafeUninitializedCapacity: capacity) { (buffer, initialized) throws(Failure) in
                if count > 0 { _ = out.withUnsafeBufferPointer { memcpy(buffer.baseAddress!, $0.baseAddress!, count) } }
                while count < buffer.count {
                    let n = Glibc.read(fd, buffer.baseAddress! + count, buffer.count - count)
                    if n < 0 {
                        if errno == EINTR { continue }
                        failure = errno
                        break
                    }
                    if n == 0 {
                        ended = true
                        break
                    }
                    count += n
                }
                initialized = count
            }
            if failure != 0 { throw .system(failure) }
            out = grown
            if ended { break }
            guard count <= limit else { throw .tooLarge(count) }
            capacity = count + max(65_536, count)
        }
        guard count <= limit else { throw .tooLarge(count) }
        return out
    }
}

/// A regular file kept open after it was read whole, so that parts of it can be read again later and whether it
/// changed since can be told: a large document's bytes are let go once its outline is parsed, and each part is
/// read again when it is decoded (`FormDecoder.loadDocument`).
package final class ReopenableFile: @unchecked Sendable {  // the descriptor is only read through `pread`/`fstat`
    private let fd: Int32
    /// What `fstat` gave before the first read: a file replaced, grown, shrunk or written since has another.
    private let identity: Identity

    private struct Identity: Equatable {
        let device: UInt64, inode: UInt64, size: Int
        let modified: timespec, changed: timespec
        init(_ info: stat) {
            (device, inode, size) = (UInt64(info.st_dev), UInt64(info.st_ino), Int(info.st_size))
            (modified, changed) = (info.st_mtim, info.st_ctim)
        }
        static func == (a: Identity, b: Identity) -> Bool {
            a.device == b.device && a.inode == b.inode && a.size == b.size && a.modified.tv_sec == b.modified.tv_sec
                && a.modified.tv_nsec == b.modified.tv_nsec && a.changed.tv_sec == b.changed.tv_sec
                && a.changed.tv_nsec == b.changed.tv_nsec
        }
    }

    /// Opens the regular file at `path` and reads it whole (at most `limit` bytes); the file, or nil for a file
    /// that is not regular (a pipe, a device: they cannot be read again), stays open while the value lives.
    package static func open(_ path: String, limit: Int) throws(FileBytes.Failure) -> (bytes: [UInt8], file: ReopenableFile?) {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .system(errno) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            defer { close(fd) }
            return (try FileBytes.read(fd: fd, limit: limit), nil)
        }
        let file = ReopenableFile(fd: fd, identity: Identity(info))  // closes `fd` when it is let go
        let bytes = try FileBytes.read(fd: fd, limit: limit)
        return (bytes, file)
    }

    private init(fd: Int32, identity: Identity) {
        self.fd = fd
        self.identity = identity
    }

    deinit { close(fd) }

    /// Whether the file is as it was before it was first read (same file, size, and modification and change times).
    package var isUnchanged: Bool {
        var info = stat()
        return fstat(fd, &info) == 0 && Identity(info) == identity
    }

    /// Reads into `buffer` from `offset` of the file: the count read, 0 at its end, -1 on an error. Safe on several
    /// threads at once. The corresponding C function is `pread`.
    package func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) -> Int {
        guard let base = buffer.baseAddress, offset >= 0 else { return buffer.isEmpty ? 0 : -1 }
        while true {
            let n = pread(fd, base, buffer.count, off_t(offset))
            if n < 0 && errno == EINTR { continue }
            return n
        }
    }

    /// The bytes at `range` of the file; nil when they cannot all be read (an error, or the file is shorter now).
    /// Safe on several threads at once (`pread` keeps no offset). The corresponding C function is `pread`.
    package func read(_ range: Range<Int>) -> [UInt8]? {
        guard range.lowerBound >= 0 else { return nil }
        if range.isEmpty { return [] }
        var complete = false
        let out = [UInt8](unsafeUninitializedCapacity: range.count) { buffer, initialized in
            var count = 0
            while count < range.count {
                let n = pread(fd, buffer.baseAddress! + count, range.count - count, off_t(range.lowerBound + count))
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                count += n
            }
            initialized = count
            complete = count == range.count
        }
        return complete ? out : nil
    }
}

extension Unicode.Scalar {
    /// Foundation's `CharacterSet.whitespaces`: space separators and tab.
    var isBlank: Bool { self == "\t" || properties.generalCategory == .spaceSeparator }
    /// Foundation's `CharacterSet.whitespacesAndNewlines`: blanks and line or paragraph breaks.
    var isBlankOrNewline: Bool {
        isBlank || ("\n"..."\r").contains(self) || self == "\u{85}" || self == "\u{2028}" || self == "\u{2029}"
    }
}

extension StringProtocol {
    /// Without leading and trailing blanks (spaces and tabs; Foundation's `trimmingCharacters(in: .whitespaces)`).
    package func trimmingBlanks() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.isBlank }) else { return "" }
        let last = scalars.lastIndex(where: { !$0.isBlank })!
        var out = String.UnicodeScalarView()
        out.append(contentsOf: scalars[first...last])
        return String(out)
    }

}
