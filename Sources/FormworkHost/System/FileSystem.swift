import FormworkCore
import Glibc

/// File-system helpers used by discovery and loading.
enum FileSystem {
    enum Kind { case missing, regular, directory, other }

    /// The corresponding C function is `stat`.
    static func kind(of path: String) -> Kind {
        var info = stat()
        guard stat(path, &info) == 0 else { return .missing }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .regular
        case S_IFDIR: return .directory
        default: return .other
        }
    }

    /// Whether `path` itself is a symbolic link. The corresponding C function is `lstat`.
    static func isSymbolicLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
    }

    /// The corresponding C function is `realpath`.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Entries of a directory, sorted by name; empty when it cannot be read.
    /// The corresponding C functions are `opendir`, `readdir` and `closedir`.
    static func entries(of directory: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        return names(dir)
    }

    private static func names(_ dir: OpaquePointer) -> [String] {
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// The entries of `directory` whose names end in `suffix`, sorted by name, each with
    /// what `lstat` says of it: one `fstatat` per entry, relative to the open directory
    /// (no path walked again per file). Empty when the directory cannot be read.
    /// The corresponding C functions are `open`, `fdopendir`, `readdir` and `fstatat`.
    static func entries(of directory: String, suffix: String) -> [(name: String, status: stat?)] {
        let fd = Glibc.open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return [] }
        guard let dir = fdopendir(fd) else {
            close(fd)
            return []
        }
        defer { closedir(dir) }
        return names(dir).filter { $0.hasSuffix(suffix) }.map { name in
            var info = stat()
            return (name, fstatat(fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0 ? info : nil)
        }
    }

    /// The first `count` bytes of a file, or nil when it cannot be read.
    /// The corresponding C functions are `open`, `read` and `close`.
    static func prefix(of path: String, count: Int) -> [UInt8]? {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: count)
        let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, count) }
        guard n >= 0 else { return nil }
        return Array(bytes.prefix(n))
    }

    /// Why code at `path` must not be trusted, or nil: like `ld.so` and `ssh`, a pack file
    /// or pack directory that its group or others can write, or that belongs to someone
    /// other than root or the current user, could be replaced by another user.
    /// The corresponding C functions are `stat` and `geteuid`.
    static func trustProblem(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return trustProblem(path, info)
    }

    /// `trustProblem` for a file whose `stat` is already known.
    static func trustProblem(_ path: String, _ info: stat) -> String? {
        if info.st_mode & (S_IWGRP | S_IWOTH) == 0 && (info.st_uid == 0 || info.st_uid == geteuid()) { return nil }
        let what = info.st_mode & S_IFMT == S_IFDIR ? "directory" : "file"
        if info.st_mode & (S_IWGRP | S_IWOTH) != 0 {
            let mode = String(info.st_mode & 0o7777, radix: 8)
            return
                "the \(what) is writable by \(info.st_mode & S_IWOTH != 0 ? "everyone" : "its group") (mode \(mode)), so another user could replace the code Formwork runs; run `chmod go-w \(path)`"
        }
        return
            "the \(what) belongs to user \(info.st_uid), neither root nor you (\(geteuid())); run `chown \(geteuid()) \(path)` or install the pack somewhere you own"
    }

    /// Whether the file can be opened for reading. The corresponding C function is `access`.
    static func isReadable(_ path: String) -> Bool { access(path, R_OK) == 0 }
}
