/// Values whose lifetime is the whole process (a command's decoded form and view tree, a child's loaded packs
/// and cell driver), kept here when the process is about to exit instead of being freed one object at a time
/// (docs/performance.md, "Process tuning"). Reachable from here, so LeakSanitizer does not count them as lost.
///
/// A global because its point is to outlive every scope; only the main thread of a command or child adds to it.
package enum KeptUntilExit {
    nonisolated(unsafe) private static var kept: [Any] = []
    package static func keep(_ value: Any) { kept.append(value) }
}
