import CSystem

/// How this process's heap grows: a setting for an executable, never for a library (the process
/// that embeds Formwork owns its malloc).
public enum HeapGrowth {
    /// The pad `useLargeSteps` asks for: glibc's largest heap for a thread (64 MiB on 64-bit
    /// systems), so that such a heap is made writable once, when it is made.
    static let pad: Int32 = 64 << 20

    /// Makes malloc take memory from the kernel 64 MiB at a time.
    ///
    /// With glibc's default pad of 128 KiB, the main heap grows by `brk` in small steps, and a
    /// thread's heap by one `mprotect` per 4 KiB page it needs: about 600 calls in a render of
    /// 10,000 fields and 11,000 in one of 100,000, 5–8% of their CPU time (docs/performance.md).
    /// Memory that is asked for and never touched costs no RAM: the peak resident size does not
    /// change. A child forked from this process keeps the setting.
    ///
    /// Returns whether malloc took it. The corresponding C function is `mallopt(M_TOP_PAD, …)`.
    @discardableResult
    public static func useLargeSteps() -> Bool {
        fwsys_malloc_top_pad(pad) == 1
    }
}
