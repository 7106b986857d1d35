import FormworkCore

/// Reuses cell instances per cell type (Reusable's dequeue): rendering N fields
/// keeps at most one idle instance per cell type alive, not N.
final class InstancePool {
    private var idle: [CellKey: [CellInstance]] = [:]
    /// Instances created over the pool's life (for tests and benchmarks).
    private(set) var created = 0
    private(set) var peakLive = 0
    private var live = 0

    func dequeue(_ cell: CellType, entry: CellEntry) throws(RuntimeError) -> CellInstance {
        live += 1
        peakLive = max(peakLive, live)
        if let instance = idle[CellKey(cell)]?.popLast() { return instance }
        created += 1
        do { return try CellInstance(cell, entry: entry) } catch {
            live -= 1
            throw error
        }
    }

    func enqueue(_ instance: CellInstance) {
        live -= 1
        idle[CellKey(instance.cell), default: []].append(instance)
    }

    /// Destroys every idle instance (each `destroy`, then the pack's `deinit` when last).
    func drain() { idle.removeAll() }
}
