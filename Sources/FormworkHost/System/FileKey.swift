import FormworkCore
import Glibc

/// What identifies a pack file's contents without reading it: its real path, device,
/// inode, size, modification and change times. A rebuilt, replaced, touched or rewritten file gets a new key.
struct FileKey: Equatable, Hashable {
    var path: String
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modifiedSeconds: Int64
    var modifiedNanoseconds: Int64
    /// The change time: a file rewritten in place with its size and modification time put back still changes it.
    var changedSeconds: Int64
    var changedNanoseconds: Int64

    /// The key of the file at `realPath` now, or nil when it cannot be examined.
    /// The corresponding C function is `stat`.
    init?(realPath: String) {
        var info = stat()
        guard stat(realPath, &info) == 0 else { return nil }
        self.init(realPath: realPath, info)
    }

    /// The key of the file at `realPath` whose `stat` is `info`.
    init(realPath: String, _ info: stat) {
        path = realPath
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modifiedSeconds = Int64(info.st_mtim.tv_sec)
        modifiedNanoseconds = Int64(info.st_mtim.tv_nsec)
        changedSeconds = Int64(info.st_ctim.tv_sec)
        changedNanoseconds = Int64(info.st_ctim.tv_nsec)
    }

    init(
        path: String, device: UInt64, inode: UInt64, size: Int64, modifiedSeconds: Int64, modifiedNanoseconds: Int64,
        changedSeconds: Int64 = 0, changedNanoseconds: Int64 = 0
    ) {
        self.path = path
        self.device = device
        self.inode = inode
        self.size = size
        self.modifiedSeconds = modifiedSeconds
        self.modifiedNanoseconds = modifiedNanoseconds
        self.changedSeconds = changedSeconds
        self.changedNanoseconds = changedNanoseconds
    }
}
