import CSystem
import FormworkCore

/// How a short-lived command's allocator keeps memory. The command runs once and exits: memory it
/// frees is worth keeping for its next allocation, not returning to the kernel and faulting in again
/// page by page. With `keepFreedMemory()`, blocks below 4 MiB (a section's views, output buffers)
/// come from the heap rather than a fresh `mmap` each (glibc's threshold starts at 128 KiB), and the
/// heap's top is trimmed only above 256 MiB: a 10,000-field render takes 9% fewer page faults in the
/// command for the same peak memory (docs/performance.md). A higher threshold (32 MiB) saved more
/// faults at 100,000 fields but let a YAML document's freed trees fragment the heap (a peak 14 MB
/// higher). Cell hosts forked from the command inherit it.
///
/// The heaps also grow in large steps: the main heap 4 MiB beyond what an allocation needs (`M_TOP_PAD`:
/// `brk` calls in a 100,000-field render 297 → 16), and each thread that `Parallel` starts keeps 3.5 MiB
/// free at its heap's top (`Parallel.heapReserve`, which `M_TOP_PAD` does not do for a thread's heap:
/// `mprotect` calls 11,811 → 2,026, each of which held up the other threads' page faults). Peak memory is
/// about 2 MB higher.
///
/// The `formwork` command calls it first thing; nothing in the library calls it (an embedding program
/// owns its allocator). The corresponding C function is `mallopt`.
package enum MemoryPolicy {
    /// Returns false when the C library refused a setting (the process goes on as it was).
    @discardableResult
    package static func keepFreedMemory() -> Bool {
        Parallel.heapReserve = 7 << 19  // 3.5 MiB: below the mmap threshold, so it comes from the heap
        return fwsys_malloc_keep_freed(4 << 20, 256 << 20, 4 << 20) == 0
    }
}
