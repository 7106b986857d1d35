import FormworkCore
import CFormwork
import Synchronization

/// Reference-counted `fw_pack.init` / `deinit`: init runs before a pack's first
/// instance, deinit when the last user releases it. Never called just to list.
final class PackLifecycle: Sendable {
    typealias Init = @convention(c) (UnsafePointer<fw_host>?) -> fw_status
    typealias Deinit = @convention(c) () -> Void

    private let initialize: Init?
    private let deinitialize: Deinit?
    private let count = Mutex(0)
    /// The pack's own `fw_host`, passed to `init` and to every `create`. Unsafe only to the compiler: the
    /// pointer is set once and never written through by the host.
    nonisolated(unsafe) let host: UnsafeMutablePointer<fw_host>
    /// The pack's `org.formwork.choices/1` (ABI 1.2), or nil: kept here, once per pack, beside its init.
    let choices: ChoicesExtension?

    init(host: UnsafeMutablePointer<fw_host>, initialize: Init?, deinitialize: Deinit?, choices: ChoicesExtension? = nil) {
        self.host = host
        self.choices = choices
        self.initialize = initialize
        self.deinitialize = deinitialize
    }

    /// A failed `init`: its status and what the pack logged during the call.
    struct Failure: Error {
        let status: fw_status
        let log: [String]
    }

    /// Calls `init` on the first retain; nil on success.
    func retain() -> Failure? {
        count.withLock { count -> Failure? in
            if count == 0, let initialize {
                let (status, log) = PackLog.capture { initialize(host) }
                if status != FW_OK { return Failure(status: status, log: log) }
            }
            count += 1
            return nil
        }
    }

    /// Calls `deinit` when the last retain is released.
    func release() {
        count.withLock { count in
            guard count > 0 else { return }
            count -= 1
            if count == 0 { deinitialize?() }
        }
    }

    var retainCount: Int { count.withLock { $0 } }
}
