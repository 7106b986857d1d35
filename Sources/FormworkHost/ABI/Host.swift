import FormworkCore
import CFormwork
import Glibc
import Synchronization

/// The `fw_host` services given to packs: ABI version, logging, extensions.
///
/// Messages a pack logs are kept (bounded) so that a failing call can quote
/// them in its error.
final class Host: Sendable {
    static let shared = Host()

    /// Lives for the process, as the header promises.
    nonisolated(unsafe) let pointer: UnsafeMutablePointer<fw_host>
    private let messages = Mutex<[(level: UInt32, text: String)]>([])

    private init() {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: fw_host())
        pointer.pointee.abi = ABIVersion.host.cVersion
        pointer.pointee.struct_size = UInt32(MemoryLayout<fw_host>.size)
        pointer.pointee.name = UnsafePointer(strdup("formwork"))
        pointer.pointee.version = UnsafePointer(strdup(FormworkVersion.string))
        pointer.pointee.log = { _, level, message in
            guard let message else { return }
            let text = (try? DescriptorReader.string(message)) ?? nil
            Host.shared.record(level: level, text: text ?? "<invalid UTF-8>")
        }
        pointer.pointee.get_extension = { _, _ in nil }
    }

    private func record(level: UInt32, text: String) {
        messages.withLock {
            $0.append((level, text))
            if $0.count > 64 { $0.removeFirst($0.count - 64) }
        }
    }

    /// Removes and returns what packs logged since the last call, joined.
    func drainLog() -> String? {
        let drained = messages.withLock { m -> [(level: UInt32, text: String)] in
            defer { m.removeAll() }
            return m
        }
        return drained.isEmpty ? nil : drained.map(\.text).joined(separator: "; ")
    }
}

