import CFormworkSystem
import FormworkCore
import Glibc

/// Everything the command tunes in its own process, in one place: the allocator, huge pages for a large
/// document's heap, and the threads it works on. The libraries set nothing global by themselves (an embedding
/// program owns its allocator and its threads); what each setting buys is measured in docs/performance.md,
/// "Process tuning".
///
/// Both calls run on the main thread before any other thread or child process starts: they change allocator
/// settings that another thread's allocation must not see half-changed, and cell hosts forked later inherit them.
enum ProcessTuning {
    /// First thing in `main`. A command runs once and exits: memory it frees is worth keeping for its next
    /// allocation rather than returning it to the kernel and faulting it in again.
    static func atStart() {
        kept = fwsys_malloc_keep_freed(mmapThreshold, trimThreshold, topPad) == 0
        // The threads' heaps grow in steps too (`Parallel.heapReserve`): below the mmap threshold, so from the heap.
        if kept { Parallel.heapReserve = 7 << 19 }
    }

    /// For the document at `path`, before the document is read: a large one's main heap in huge pages, a small
    /// one's work on one thread (its cell host has the other core). Standard input's size is not known: nothing
    /// changes. Only the first call has an effect on the heap.
    static func prepare(forDocument path: String) {
        guard path != "-" else { return }
        let fields = estimatedFields(path)
        if fields >= hugePagesFrom { useHugePages() }
        if worksOnOneThread(estimatedFields: fields) { Parallel.limit(to: 1) }
        shareHeaps(oneHeap: Parallel.threads < FormDecoder.treeInParallelFrom && SourceFile.isYAMLDocument(at: path))
    }

    /// One heap for each thread the work runs on (at least two: the render's batches are pipelined over two
    /// threads), not glibc's eight a core. The threads `Parallel` starts come and go; each new one took a heap of
    /// its own while the last one's was still held, so the fields a render frees as their views are made stayed
    /// in heaps the views were not made in (docs/performance.md, "Process tuning"). Below
    /// `FormDecoder.treeInParallelFrom` threads a YAML document is decoded on the main thread, so its fields are
    /// all in the main heap: with one heap, the views made on the pipeline's
    /// threads reuse what the fields free (a 100k render's peak 8 MB lower, its CPU time the same). A JSON
    /// document is decoded on every thread at once, which one heap would make wait on each other's allocations.
    private static func shareHeaps(oneHeap: Bool) {
        guard kept, !sharedHeaps else { return }
        sharedHeaps = true
        _ = fwsys_malloc_arenas(oneHeap ? 1 : Int32(max(2, Parallel.threads)))
    }

    /// About how many fields the document at `path` has, from its size (a field takes at least about 100 bytes
    /// in JSON or YAML): 0 for standard input or a file that cannot be read (the load reports it).
    static func estimatedFields(_ path: String) -> Int {
        var info = stat()
        guard path != "-", stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return 0 }
        return Int(info.st_size) / 100
    }

    /// Whether `render` hands a document of about `fields` fields over to its render, which frees each section's
    /// fields once their views are made (`FormRuntime.render`): a large form's peak memory is a fifth lower, for
    /// about 5% more instructions (the frees); a small form is kept until the process exits.
    static func handsOverForm(estimatedFields fields: Int) -> Bool { fields >= handOverFrom }

    /// Estimated fields from which `render` hands its form over (docs/performance.md, "Process tuning").
    static let handOverFrom = 24_000

    /// Whether the command works on one thread for a document of about `fields` fields.
    static func worksOnOneThread(estimatedFields fields: Int) -> Bool { fields < oneThreadBelow }

    /// Estimated fields below which the command works on one thread (docs/performance.md, "Process tuning").
    static let oneThreadBelow = 24_000
    /// Estimated fields from which the main heap is advised for huge pages: a small form would pay a huge page's
    /// zeroing for a few kilobytes.
    static let hugePagesFrom = 2000

    /// The main heap takes `hugePageSpan` bytes of address space at once (nothing is touched until it is used),
    /// advised `MADV_HUGEPAGE`; it is never trimmed (the trim threshold is above it). What glibc's
    /// `glibc.malloc.hugetlb=1` tunable does, which only the environment can set. `FORMWORK_HUGE_PAGES=0` turns it
    /// off. `fwsys_main_heap_huge_pages` checks that the heap did grow by the span (through `sbrk`, a public
    /// interface) before it advises anything, and otherwise leaves the allocator as it was.
    @discardableResult
    static func useHugePages() -> Bool {
        guard kept, !hugePages, getenv("FORMWORK_HUGE_PAGES").map({ String(cString: $0) }) != "0" else { return false }
        hugePages = true
        return fwsys_main_heap_huge_pages(hugePageSpan, topPad, mmapThreshold) == 0
    }

    /// Blocks below this come from the heap rather than a fresh `mmap` each (glibc's starts at 128 KiB).
    private static let mmapThreshold: Int32 = 4 << 20
    /// The heap's top is trimmed only above this.
    private static let trimThreshold: Int32 = 256 << 20
    /// The main heap grows this far beyond what an allocation needs.
    private static let topPad: Int32 = 4 << 20
    /// Address space the main heap takes at once when advised for huge pages (below the trim threshold, so it stays).
    private static let hugePageSpan: UInt = 192 << 20

    // Globals because the process is what they describe; set on the main thread only, before any other starts.
    nonisolated(unsafe) private static var kept = false
    nonisolated(unsafe) private static var hugePages = false
    nonisolated(unsafe) private static var sharedHeaps = false
}
