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

    init(initialize: Init?, deinitialize: Deinit?) {
        self.initialize = initialize
        self.deinitialize = deinitialize
    }

    /// Calls `init` on the first retain. Returns the failing status, or nil on success.
    func retain() -> fw_status? {
        count.withLock { count -> fw_status? in
            if count == 0, let initialize {
                let status = initialize(Host.shared.pointer)
                if status != FW_OK { return status }
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
