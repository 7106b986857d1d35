/// The parser's stack of the members (or items) read so far of every object (or list) still open: a
/// composite pushes its elements, and when it closes they are moved into an array of exactly their count.
///
/// Appending to the composite's own array grew it 1 → 2 → 4 → 8 (an allocation and a move each time), and
/// left up to half of its capacity unused for as long as the document is held. Elements are moved in and out,
/// never copied (no retain or release).
final class ScratchStack<Element> {
    @exclusivity(unchecked) private var base: UnsafeMutablePointer<Element>
    @exclusivity(unchecked) private(set) var count = 0
    @exclusivity(unchecked) private var capacity: Int

    init(capacity: Int = 64) {
        self.capacity = capacity
        base = .allocate(capacity: capacity)
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    @inline(__always)
    func push(_ element: consuming Element) {
        if _slowPath(count == capacity) { grow() }
        (base + count).initialize(to: element)
        count &+= 1
    }

    @inline(never)
    private func grow() {
        let fresh = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
        fresh.moveInitialize(from: base, count: count)
        base.deallocate()
        base = fresh
        capacity *= 2
    }

    /// The element at `index` (from the bottom), borrowed for `body`.
    @inline(__always)
    func with<T>(_ index: Int, _ body: (borrowing Element) -> T) -> T { body(base[index]) }

    /// The elements from `start` to the top, moved out into an array of exactly their count.
    func pop(from start: Int) -> [Element] {
        let n = count - start
        if n == 0 { return [] }
        // Reserved, then moved in one by one: `Array(unsafeUninitializedCapacity:)` allocates through an
        // unspecialised path that looks the storage class's metadata up in the runtime's table on every call (a
        // seventh of the parse); a reserve finds it through its call site's cache.
        var out: [Element] = []
        out.reserveCapacity(n)
        for i in start..<count { out.append((base + i).move()) }
        count = start
        return out
    }

    /// Drops the elements from `start` to the top (a parse that failed).
    func drop(from start: Int) {
        guard count > start else { return }
        (base + start).deinitialize(count: count - start)
        count = start
    }
}
