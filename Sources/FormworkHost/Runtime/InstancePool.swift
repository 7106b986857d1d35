import FormworkCore

/// Reuses cell instances per cell type (Reusable's dequeue): rendering N fields
/// keeps at most one idle instance per cell type alive, not N.
///
/// Each cell type gets a slot (its entry and its idle instances), found through a few
/// most-recently-used slots compared by identifier before the dictionary is hashed:
/// hashing two strings per request is a large part of a configure.
final class InstancePool {
    final class Slot {
        let key: CellKey
        let entry: CellEntry
        var idle: [CellInstance] = []
        /// The `CellType` object last found here: the same object again needs no string comparison.
        var lastCell: CellType?
        init(key: CellKey, entry: CellEntry) {
            self.key = key
            self.entry = entry
        }
    }

    private var slots: [CellKey: Slot] = [:]
    private var recent: [Slot] = []
    /// Instances created over the pool's life (for tests and benchmarks).
    private(set) var created = 0
    private(set) var peakLive = 0
    private var live = 0

    /// The slot of `cell`; `entry` is asked only the first time.
    func slot(for cell: CellType, entry: () throws(RuntimeError) -> CellEntry) throws(RuntimeError) -> Slot {
        for slot in recent where slot.lastCell === cell { return slot }
        for slot in recent where slot.key.id == cell.id && slot.key.packPath == cell.packPath {
            slot.lastCell = cell
            return slot
        }
        let key = CellKey(cell)
        let slot: Slot
        if let known = slots[key] {
            slot = known
        } else {
            slot = Slot(key: key, entry: try entry())
            slots[key] = slot
        }
        if recent.count == 8 { recent.removeFirst() }
        recent.append(slot)
        slot.lastCell = cell
        return slot
    }

    func dequeue(_ cell: CellType, from slot: Slot) throws(RuntimeError) -> CellInstance {
        live += 1
        peakLive = max(peakLive, live)
        if let instance = slot.idle.popLast() { return instance }
        created += 1
        do { return try CellInstance(cell, entry: slot.entry) } catch {
            live -= 1
            throw error
        }
    }

    func enqueue(_ instance: CellInstance, to slot: Slot) {
        live -= 1
        slot.idle.append(instance)
    }

    /// Destroys every idle instance (each `destroy`, then the pack's `deinit` when last).
    func drain() {
        for slot in slots.values { slot.idle.removeAll() }
    }
}
