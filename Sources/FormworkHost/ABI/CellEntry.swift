import CFormwork
import FormworkCore
import Synchronization

/// Identifies a loaded cell type: the same identifier may come from two packs (one shadowed).
struct CellKey: Hashable, Sendable {
    let packPath: String
    let id: String
    init(_ cell: CellType) {
        packPath = cell.packPath
        id = cell.id
    }
}

/// The code behind a cell type: its descriptor (passed back to `create`), its vtable,
/// its typed-configure binding, and its pack's init/deinit. A class: every call reaches it,
/// and a reference is one retain where a copy of the struct was three.
final class CellEntry: @unchecked Sendable {
    let descriptor: UnsafeRawPointer
    let create: @convention(c) (UnsafePointer<fw_cell_type>?, UnsafePointer<fw_host>?) -> UnsafeMutableRawPointer?
    let destroy: @convention(c) (UnsafeMutableRawPointer?) -> Void
    let configure: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<fw_value>?, UInt32) -> fw_status
    let render: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<fw_canvas>?, UnsafeMutableRawPointer?) -> fw_status
    let didSetSelected: (@convention(c) (UnsafeMutableRawPointer?, Bool) -> Void)?
    let didSetHighlighted: (@convention(c) (UnsafeMutableRawPointer?, Bool) -> Void)?
    let valueChanged:
        (
            @convention(c) (
                UnsafeMutableRawPointer?, UnsafePointer<CChar>?, UnsafePointer<fw_value>?,
                UnsafeMutablePointer<UnsafePointer<CChar>?>?
            ) -> fw_status
        )?
    /// Set exactly when the cell type declares typed configure.
    let typed: TypedBinding?
    /// The pack's init/deinit, retained while instances of the cell type exist.
    let lifecycle: PackLifecycle
    /// Serialises `create` and `destroy` of this cell type, as formwork.h promises,
    /// unless it declares FW_CELL_THREAD_SAFE (nil then).
    let createLock: Lock?

    init(
        descriptor: UnsafeRawPointer,
        create: @escaping @convention(c) (UnsafePointer<fw_cell_type>?, UnsafePointer<fw_host>?) -> UnsafeMutableRawPointer?,
        destroy: @escaping @convention(c) (UnsafeMutableRawPointer?) -> Void,
        configure: @escaping @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<fw_value>?, UInt32) -> fw_status,
        render: @escaping @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<fw_canvas>?, UnsafeMutableRawPointer?) -> fw_status,
        didSetSelected: (@convention(c) (UnsafeMutableRawPointer?, Bool) -> Void)?,
        didSetHighlighted: (@convention(c) (UnsafeMutableRawPointer?, Bool) -> Void)?,
        valueChanged: (
            @convention(c) (
                UnsafeMutableRawPointer?, UnsafePointer<CChar>?, UnsafePointer<fw_value>?,
                UnsafeMutablePointer<UnsafePointer<CChar>?>?
            ) -> fw_status
        )?,
        typed: TypedBinding?, lifecycle: PackLifecycle, createLock: Lock?
    ) {
        self.descriptor = descriptor
        self.create = create
        self.destroy = destroy
        self.configure = configure
        self.render = render
        self.didSetSelected = didSetSelected
        self.didSetHighlighted = didSetHighlighted
        self.valueChanged = valueChanged
        self.typed = typed
        self.lifecycle = lifecycle
        self.createLock = createLock
    }
}

/// A typed configure: the pack's function, its convention, and the model layout built
/// once when the pack was loaded (the same one the loader checked size and alignment against).
struct TypedBinding: @unchecked Sendable {
    let function: fw_typed_configure_fn
    let convention: TypedConvention
    let layout: TypedModelLayout
}

/// A pack as loaded: its description, its lifecycle, and one entry per cell type (same order).
struct LoadedPack: Sendable {
    let pack: Pack
    let lifecycle: PackLifecycle
    let entries: [CellEntry]
}

/// A pack's `fw_choices_ext`, checked at load: its `list` function (the pointer is the pack's, static).
struct ChoicesExtension: @unchecked Sendable {
    typealias List = @convention(c) (UnsafePointer<CChar>?, fw_choice_sink?, UnsafeMutableRawPointer?) -> fw_status
    let list: List
    let sources: [String]
    let cacheSeconds: UInt32
}

extension ABIVersion {
    /// The version of `formwork.h` this host was built with.
    public static let host = ABIVersion(
        major: UInt32(FW_ABI_VERSION_MAJOR), minor: UInt32(FW_ABI_VERSION_MINOR), patch: UInt32(FW_ABI_VERSION_PATCH))

    /// The header's rule (`fw_version_is_compatible`), decided in one place.
    public func canLoad(pack: ABIVersion) -> Bool {
        fw_version_is_compatible(cVersion, pack.cVersion)
    }

    var cVersion: fw_version { fw_version(major: major, minor: minor, patch: patch) }
}
