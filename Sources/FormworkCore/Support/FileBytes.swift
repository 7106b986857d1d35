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
