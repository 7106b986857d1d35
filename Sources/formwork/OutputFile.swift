import Glibc

/// Writes an output file the way a careful tool does:
/// - a regular file (new or existing) is replaced atomically: a temporary file beside
///   it, `fsync`, then `rename`, so a crash or a full disk never leaves half a file;
///   an existing file keeps its permission bits and, where allowed, its owner and group;
/// - a symbolic link is followed and its target replaced, the link itself kept;
/// - something that is not a regular file (a terminal, a FIFO, `/dev/stdout`, a
///   device) is written directly, never replaced by a regular file.
enum OutputFile {
    struct WriteError: Error, CustomStringConvertible {
        let path: String
        let reason: String
        /// The output could not be created at all (exit 73); otherwise writing it failed (exit 74).
        let cannotCreate: Bool
        var description: String { "\(path): cannot write: \(reason)" }
    }

    /// Refuses an output that is one of the command's inputs (the form, a values or answers file): the same file
    /// by device and inode, through links and other spellings of its path. Writing it would replace what was read.
    static func refuseInputs(_ output: String?, inputs: [String?]) throws(WriteError) {
        guard let output, output != "-" else { return }
        var out = stat()
        guard stat(output, &out) == 0, out.st_mode & S_IFMT == S_IFREG else { return }
        for case let input? in inputs where input != "-" {
            var info = stat()
            if stat(input, &info) == 0 && info.st_dev == out.st_dev && info.st_ino == out.st_ino {
                throw WriteError(
                    path: output, reason: "it is also an input of this command (\(input)); name another output file",
                    cannotCreate: true)
            }
        }
    }

    /// Writes `text` to a new file only the user can read, in `$XDG_STATE_HOME/formwork/recovered` (or
    /// `~/.local/state/...`, or the temporary directory): the place answers go when their output cannot be
    /// written, so that they are not lost. Returns its path, or nil when no such file could be written either.
    static func recover(_ text: String, name: String) -> String? {
        let environment = ProcessEnvironment.values(of: ["XDG_STATE_HOME", "HOME", "TMPDIR"])
        var directories: [String] = []
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { directories.append("\(state)/formwork/recovered") }
        if let home = environment["HOME"], home.hasPrefix("/") { directories.append("\(home)/.local/state/formwork/recovered") }
        directories.append("\(environment["TMPDIR"] ?? "/tmp")")
        let safeName = String(
            name.unicodeScalars.map { $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" ? Character($0) : "_" })
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        for directory in directories {
            var path = ""
            for part in directory.split(separator: "/") {
                path += "/\(part)"
                mkdir(path, 0o700)
            }
            let file = "\(directory)/\(safeName)-\(now.tv_sec)-\(getpid()).json"
            let fd = open(file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
            guard fd >= 0 else { continue }
            let failed = writeAll(fd, text) != nil || fsync(fd) != 0
            close(fd)
            if failed {
                unlink(file)
                continue
            }
            return file
        }
        return nil
    }

    /// Writes `text` as the whole of `path` (see ``Writer``). `private`: a new file is readable by the user only
    /// (it holds a secure value); an existing file keeps its permissions.
    static func write(_ text: String, to path: String, private: Bool = false) throws(WriteError) {
        let writer = try Writer(path)
        writer.isPrivate = `private`
        var text = text
        text.withUTF8 { writer.write(UnsafeRawBufferPointer($0)) }
        try writer.commit()
    }

    /// An output being written in chunks: to a temporary file beside a regular file (new or existing),
    /// which `commit` syncs and renames over it, or straight to something that is not a regular file.
    /// A writer released without `commit` (an error on the way) removes its temporary file: the
    /// output is left as it was.
    ///
    /// The corresponding C functions are `stat`, `lstat`, `readlink`, `mkstemp`, `write`, `fsync`, `fchmod`, `fchown`,
    /// `rename` and `unlink`.
    final class Writer {
        let path: String
        private let fd: Int32
        /// The temporary file and the target it replaces; nil when writing straight to a non-regular file.
        private let temporary: (path: String, target: String, existing: stat?)?
        /// The errno of the first failed write (later chunks are skipped).
        private var failure: Int32?
        private var done = false
        /// A new file is created readable by the user only (0600), whatever the umask.
        var isPrivate = false

        init(_ path: String) throws(WriteError) {
            self.path = path
            var info = stat()
            if stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
                if info.st_mode & S_IFMT == S_IFDIR {
                    throw WriteError(path: path, reason: "is a directory; name a file", cannotCreate: true)
                }
                fd = open(path, O_WRONLY | O_CLOEXEC)
                guard fd >= 0 else { throw WriteError(path: path, reason: String(cString: strerror(errno)), cannotCreate: true) }
                temporary = nil
                return
            }
            let target = OutputFile.resolveLinks(path)
            let existing: stat? = stat(target, &info) == 0 ? info : nil
            let directory = target.contains("/") ? String(target[..<target.lastIndex(of: "/")!]) : "."
            let base = target.split(separator: "/").last.map(String.init) ?? target
            var template = Array("\(directory.isEmpty ? "/" : directory)/.\(base).XXXXXX".utf8CString)
            fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard fd >= 0 else { throw WriteError(path: path, reason: String(cString: strerror(errno)), cannotCreate: true) }
            temporary = (template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }, target, existing)
        }

        deinit {
            guard !done else { return }
            close(fd)
            if let temporary { unlink(temporary.path) }
        }

        /// Appends `bytes` (a failure is remembered and reported by `commit`).
        func write(_ bytes: UnsafeRawBufferPointer) {
            guard failure == nil, let base = bytes.baseAddress else { return }
            failure = OutputFile.writeAll(fd, base, bytes.count)
        }

        /// Makes what was written the output: sync, the old file's permissions and owner, rename.
        func commit() throws(WriteError) {
            done = true
            guard let temporary else {
                close(fd)
                if let failure { throw fail(failure) }
                return
            }
            if failure == nil && fsync(fd) != 0 { failure = errno }
            if let existing = temporary.existing {
                fchmod(fd, existing.st_mode & 0o7777)
                if existing.st_uid != geteuid() || existing.st_gid != getegid() {
                    _ = fchown(fd, existing.st_uid, existing.st_gid)  // allowed for root, or a group the user is in
                    fchmod(fd, existing.st_mode & 0o7777)  // fchown may clear set-id bits
                }
            } else {
                let mask = umask(0)
                umask(mask)
                fchmod(fd, isPrivate ? 0o600 : 0o666 & ~mask)
            }
            close(fd)
            if failure == nil && rename(temporary.path, temporary.target) != 0 { failure = errno }
            if let failure {
                unlink(temporary.path)
                throw fail(failure)
            }
        }

        private func fail(_ code: Int32) -> WriteError {
            WriteError(path: path, reason: String(cString: strerror(code)), cannotCreate: false)
        }
    }

    /// Writes all of `text`; returns the errno of a failure. The corresponding C function is `write`.
    static func writeAll(_ fd: Int32, _ text: String) -> Int32? {
        var text = text
        return text.withUTF8 { buffer -> Int32? in
            guard let base = buffer.baseAddress else { return nil }
            return writeAll(fd, UnsafeRawPointer(base), buffer.count)
        }
    }

    /// Writes all `count` bytes at `bytes`; returns the errno of a failure. The corresponding C function is `write`.
    static func writeAll(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int32? {
        var offset = 0
        while offset < count {
            let n = Glibc.write(fd, bytes + offset, count - offset)
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return errno }
            if n == 0 { return EIO }
            offset += n
        }
        return nil
    }

    /// Follows symbolic links (at most 40, as the kernel does) to the path they name,
    /// even when it does not exist yet. The corresponding C functions are `lstat` and `readlink`.
    static func resolveLinks(_ path: String) -> String {
        var current = path
        for _ in 0..<40 {
            var info = stat()
            guard lstat(current, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return current }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let n = readlink(current, &buffer, buffer.count - 1)
            guard n > 0 else { return current }
            let link = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if link.hasPrefix("/") {
                current = link
            } else {
                let directory = current.contains("/") ? String(current[..<current.lastIndex(of: "/")!]) : "."
                current = directory + "/" + link
            }
        }
        return current
    }
}
