/// The page a child process shares with the host to say which call it is in: word 1 holds the
/// tag of the call about to start, word 0 counts the marks (the host's watchdog sees progress
/// when it moves). The host reads it when the child dies or hangs, to name the call.
enum ProgressPage {
    /// Records that call `tag` begins.
    @inline(__always)
    static func mark(_ page: UnsafeMutablePointer<UInt64>, _ tag: UInt64) {
        page[1] = tag
        page[0] &+= 1
    }
}
