import Foundation
import Testing
@testable import FormworkHost

/// What a sandboxed child may read includes the directories of the files its parent has mapped (the libraries
/// it runs on), as `ChildSandbox.mappedDirectories` reads them from `/proc/self/maps`.
@Suite("Sandbox: the directories of mapped files")
struct MappedDirectoriesTests {
    @Test("each directory once, in the order first named; lines without a path, a file at the root and a deleted file")
    func lines() {
        let maps = """
            55d0c0000000-55d0c0001000 r--p 00000000 08:01 123 /usr/bin/formwork
            55d0c0001000-55d0c0002000 r-xp 00001000 08:01 123 /usr/bin/formwork
            7f0000000000-7f0000021000 rw-p 00000000 00:00 0 
            7f0000100000-7f0000200000 r--p 00000000 08:01 456 /usr/lib/x86_64-linux-gnu/libc.so.6
            7f0000300000-7f0000301000 r--p 00000000 08:01 789 /tmp/a dir/with spaces/libx.so (deleted)
            7f0000400000-7f0000401000 r--p 00000000 08:01 790 /libroot.so
            7f0000500000-7f0000501000 r--p 00000000 08:01 123 /usr/bin/formwork
            7ffd00000000-7ffd00021000 rw-p 00000000 00:00 0                          [stack]
            7f0000600000-7f0000601000 r--p 00000000 08:01 791 /opt/pack/libé.so
            """
        let bytes = Array(maps.utf8)
        #expect(
            ChildSandbox.mappedDirectories(maps: bytes) == [
                "/usr/bin", "/usr/lib/x86_64-linux-gnu", "/tmp/a dir/with spaces", "/opt/pack",
            ])
        #expect(ChildSandbox.mappedDirectories(maps: bytes + [10]) == ChildSandbox.mappedDirectories(maps: bytes))
        #expect(ChildSandbox.mappedDirectories(maps: []).isEmpty)
        #expect(ChildSandbox.mappedDirectories(maps: Array("\n\n/\n//x\n".utf8)) == ["/"])
    }

    @Test("this process's own maps: the C library's directory among them, every one a directory")
    func ownMaps() {
        let directories = ChildSandbox.mappedDirectories()
        #expect(directories.allSatisfy { $0.hasPrefix("/") && !$0.hasSuffix("/") }, "\(directories)")
        #expect(directories.contains { FileManager.default.fileExists(atPath: "\($0)/libc.so.6") }, "\(directories)")
    }
}
