import CFormwork
import CFormworkSystem
import FormworkCore
import Glibc
import Synchronization

/// The `fw_host` services given to packs: ABI version, logging, extensions.
///
/// Each pack gets its own `fw_host` (made when it is loaded, kept for the life of the
/// process, as formwork.h promises), whose `host_data` is the pack's
/// `fw_pack_context`: so `get_extension(FW_EXTENSION_PACK_CONTEXT)` can answer for the
/// pack that asks, and every logged message is attributed to its pack.
enum Host {
    /// The `fw_host` of the pack at `path` with identifier `id`.
    /// `realPath`: the file's real path when the caller has resolved it already (one `realpath` less).
    static func forPack(path: String, realPath: String? = nil, id: String) -> UnsafeMutablePointer<fw_host> {
        hosts.withLock { hosts in
            let key = path + "\u{0}" + id
            if let host = hosts[key] { return host.pointer }
            let host = PackHost(make(real: realPath ?? FileSystem.realPath(path) ?? path, id: id))
            hosts[key] = host
            return host.pointer
        }
    }

    private struct PackHost: @unchecked Sendable {
        let pointer: UnsafeMutablePointer<fw_host>
        init(_ pointer: UnsafeMutablePointer<fw_host>) { self.pointer = pointer }
    }
    private static let hosts = Mutex<[String: PackHost]>([:])

    private static func make(real: String, id: String) -> UnsafeMutablePointer<fw_host> {
        // Split on the last '/' byte: a `Character` search walks grapheme clusters, for every pack.
        let directory = real.utf8.lastIndex(of: UInt8(ascii: "/")).map { String(real[..<$0]) } ?? "."
        let context = UnsafeMutablePointer<fw_pack_context>.allocate(capacity: 1)
        context.initialize(to: fw_pack_context())
        context.pointee.struct_size = UInt32(MemoryLayout<fw_pack_context>.size)
        context.pointee.pack_path = UnsafePointer(strdup(real))
        context.pointee.resource_dir = UnsafePointer(strdup("\(directory)/\(id)"))

        let host = UnsafeMutablePointer<fw_host>.allocate(capacity: 1)
        host.initialize(to: fw_host())
        host.pointee.abi = ABIVersion.host.cVersion
        host.pointee.struct_size = UInt32(MemoryLayout<fw_host>.size)
        host.pointee.name = UnsafePointer(strdup("formwork"))
        host.pointee.version = UnsafePointer(strdup(FormworkVersion.string))
        host.pointee.host_data = UnsafeMutableRawPointer(context)
        host.pointee.log = { host, level, message in
            guard let message else { return }
            let text = (try? DescriptorReader.string(message)) ?? nil
            PackLog.record(level: level, text: text ?? "<invalid UTF-8>", host: host)
        }
        host.pointee.get_extension = { host, id in
            guard let host, let id, strcmp(id, FW_EXTENSION_PACK_CONTEXT) == 0 else { return nil }
            return UnsafeRawPointer(host.pointee.host_data)
        }
        return host
    }

    /// The pack context behind a pack's `fw_host`.
    static func context(of host: UnsafePointer<fw_host>?) -> fw_pack_context? {
        guard let data = host?.pointee.host_data else { return nil }
        return data.assumingMemoryBound(to: fw_pack_context.self).pointee
    }
}

/// What packs log through `fw_host.log`, captured per call on the calling thread:
/// a failing call quotes exactly the messages its own pack wrote during it, and a
/// message can neither be lost to another call nor quoted for the wrong pack.
/// Messages logged outside any call (from a pack's own thread) go to standard error once, as
/// "formwork: pack output: ID: message", at most 64 per pack (formwork.h, `fw_host.log`).
enum PackLog {
    final class Capture {
        var messages: [String] = []
    }

    // The thread's capture and its reusable spare live in C thread-locals (`fwsys_log_current`,
    // `fwsys_log_spare`): no library call per access. This key only releases the spare when its
    // thread ends (set once per thread, with the spare).
    private static let spareKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { pointer in
            fwsys_log_spare_set(nil)
            if let pointer { Unmanaged<Capture>.fromOpaque(pointer).release() }
        }
        return key
    }()

    /// Keeps `capture` as the thread's spare, released when the thread ends.
    private static func keepSpare(_ capture: UnsafeMutableRawPointer) {
        fwsys_log_spare_set(capture)
        pthread_setspecific(spareKey, capture)
    }

    /// Runs `body`, a call into a pack, and returns what the pack logged during it.
    /// Captures nest: an inner call's messages are its own.
    static func capture<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> (R, [String]) {
        // One Capture per thread, reused: a call that logs nothing allocates nothing. A nested capture
        // (rare: a pack calling back into the host) gets its own.
        let previous = fwsys_log_current_get()
        let capture: Capture
        if previous == nil, let spare = fwsys_log_spare_get() {
            capture = Unmanaged<Capture>.fromOpaque(spare).takeUnretainedValue()
            capture.messages.removeAll(keepingCapacity: true)
        } else if previous == nil {
            capture = Capture()
            keepSpare(Unmanaged.passRetained(capture).toOpaque())  // kept for the thread's life
        } else {
            capture = Capture()
        }
        fwsys_log_current_set(Unmanaged.passUnretained(capture).toOpaque())
        defer { fwsys_log_current_set(previous) }
        let result = try withExtendedLifetime(capture) { () throws(E) -> R in try body() }
        return (result, capture.messages)
    }

    /// A capture in progress: `begin()`, the call, `end(_:)` — `capture` without a closure (and its
    /// context) around the call, for the calls made per field.
    struct Session {
        fileprivate let previous: UnsafeMutableRawPointer?
        fileprivate let capture: Unmanaged<Capture>
    }

    /// Starts capturing what the packs log on this thread (nests like `capture`).
    @inline(__always)
    static func begin() -> Session {
        let previous = fwsys_log_current_get()
        let capture: Unmanaged<Capture>
        if previous == nil, let spare = fwsys_log_spare_get() {
            capture = Unmanaged<Capture>.fromOpaque(spare)
            if !capture.takeUnretainedValue().messages.isEmpty { capture.takeUnretainedValue().messages.removeAll(keepingCapacity: true) }
        } else if previous == nil {
            capture = Unmanaged.passRetained(Capture())
            keepSpare(capture.toOpaque())  // kept for the thread's life
        } else {
            capture = Unmanaged.passRetained(Capture())  // released by `end`
        }
        fwsys_log_current_set(capture.toOpaque())
        return Session(previous: previous, capture: capture)
    }

    /// Ends `session` and returns what was logged during it when `keepingMessages` (a failed call
    /// quotes them); a call that succeeded copies nothing.
    @inline(__always) @discardableResult
    static func end(_ session: Session, keepingMessages: Bool = false) -> [String] {
        fwsys_log_current_set(session.previous)
        let messages = keepingMessages ? session.capture.takeUnretainedValue().messages : []
        if session.previous != nil { session.capture.release() }
        return messages
    }

    static func record(level: UInt32, text: String, host: UnsafePointer<fw_host>?) {
        if let current = fwsys_log_current_get() {
            let capture = Unmanaged<Capture>.fromOpaque(current).takeUnretainedValue()
            if capture.messages.count < 64 { capture.messages.append(text) }
            return
        }
        // The pack's identifier is the last component of its resource directory (`make`).
        let directory = Host.context(of: host)?.resource_dir.map { String(cString: $0) } ?? ""
        let id = directory.split(separator: "/").last.map(String.init) ?? "a pack"
        let count = outsideCalls.withLock { counts in
            counts[id, default: 0] += 1
            return counts[id]!
        }
        guard count <= outsideLimit + 1 else { return }
        let said = count > outsideLimit ? "further messages from its own threads are dropped" : TerminalText.safe(text)
        // In a child the host reads standard error and prefixes each line with "formwork: pack output: " itself.
        let line = "\(inChild ? "" : "formwork: pack output: ")\(TerminalText.safe(id)): \(said)\n"
        _ = line.withCString { Glibc.write(2, $0, strlen($0)) }
    }

    /// Messages logged outside any call, per pack identifier: at most `outsideLimit` are printed.
    private static let outsideCalls = Mutex<[String: Int]>([:])
    static let outsideLimit = 64
    /// Set in the scanner and the cell hosts (`ChildMode.run`), whose standard error the host forwards.
    nonisolated(unsafe) static var inChild = false

    /// ": message; message" for an error, or "" when the pack said nothing.
    static func suffix(_ messages: [String]) -> String {
        messages.isEmpty ? "" : ": " + messages.joined(separator: "; ")
    }
}
