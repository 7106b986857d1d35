import CSystem
import FormworkCore
import Glibc

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
/// `brk` calls in a 100,000-field render 435 → 17), and each thread that `Parallel` starts keeps 3.5 MiB
/// free at its heap's top (`Parallel.heapReserve`, which `M_TOP_PAD` does not do for a thread's heap:
/// `mprotect` calls 7,198 → 90, each of which held up the other threads' page faults). Peak
/// memory is about 2 MB higher.
///
/// For a large input (`useHugePages()`), the heaps' memory also comes in huge pages where the kernel has them
/// (transparent huge pages, `madvise` mode: Debian's and Ubuntu's default): the main heap takes `hugePageSpan`
/// bytes of address space at once (nothing is touched until it is used, and it is never trimmed: the trim
/// threshold is above it), advised with `MADV_HUGEPAGE`, and each thread's heap mapping is advised when the
/// thread starts, and made read-write whole (glibc makes a thread's heap read-write a little at a time, and a
/// huge page fills only a range that lies wholly in one read-write mapping: the threads took small pages, 12,000
/// faults in a 100,000-field render, 4,000 with it, 0.94 of the CPU time), with no reserve block (each made a
/// 2 MiB page resident ahead of use: 13 MB more at 100,000 fields). Cell hosts forked afterwards inherit
/// the advice. A 100,000-field render's page faults
/// fall from 31,607 to 16,221 (JSON) and from 34,152 to 8,738 (YAML); its CPU time by 6% (13% at 10,000 fields),
/// its wall time by 5% (9%); its peak memory is 6 MB higher at 10,000 fields and 15 MB for YAML at 100,000.
/// A small form is left alone: a huge page's zeroing for a few kilobytes cost 3% of a 10-field render. `FORMWORK_HUGE_PAGES=0`
/// turns it off (to measure without it). It is what glibc's `glibc.malloc.hugetlb=1` tunable does, which can
/// only be set from the environment before the process starts.
///
/// The `formwork` command calls it first thing; nothing in the library calls it (an embedding program
/// owns its allocator). The corresponding C function is `mallopt`.
package enum MemoryPolicy {
    /// Address space the main heap takes at once, advised for huge pages (below the trim threshold, so that it
    /// stays): a 100,000-field render's heap peaks at about 110 MiB.
    static let hugePageSpan: UInt = 192 << 20

    /// Returns false when the C library refused a setting (the process goes on as it was).
    @discardableResult
    package static func keepFreedMemory() -> Bool {
        Parallel.heapReserve = 7 << 19  // 3.5 MiB: below the mmap threshold, so it comes from the heap
        kept = fwsys_malloc_keep_freed(mmapThreshold, 256 << 20, topPad) == 0
        return kept
    }

    /// Huge pages for the heaps, from now on (see the type's documentation), once `keepFreedMemory()` has set the
    /// allocator up; for a large input only (a small form's run would pay a huge page's zeroing for a few
    /// kilobytes: 0.1 ms, 3% of a 10-field render). Returns false when it is turned off or was refused.
    @discardableResult
    package static func useHugePages() -> Bool {
        guard kept, !hugePages, getenv("FORMWORK_HUGE_PAGES").map({ String(cString: $0) }) != "0" else { return false }
        hugePages = true
        Parallel.threadStart = fwsys_thread_heap_huge_pages
        return fwsys_main_heap_huge_pages(hugePageSpan, topPad, mmapThreshold) == 0
    }

    private static let mmapThreshold: Int32 = 4 << 20
    private static let topPad: Int32 = 4 << 20
    /// Set once, on the main thread, before any other thread is started.
    nonisolated(unsafe) private static var kept = false
    nonisolated(unsafe) private static var hugePages = false
}
