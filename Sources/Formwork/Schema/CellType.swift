import CFormwork

/// The ABI version a pack or host was built with.
public struct ABIVersion: Sendable, Equatable, Comparable, CustomStringConvertible {
    public var major: UInt32
    public var minor: UInt32
    public var patch: UInt32

    public init(major: UInt32, minor: UInt32, patch: UInt32) {
        self.major = major
        self.minor = minor
        self.patch = patch
    }

    /// The version of `formwork.h` this host was built with.
    public static let host = ABIVersion(
        major: UInt32(FW_ABI_VERSION_MAJOR), minor: UInt32(FW_ABI_VERSION_MINOR), patch: UInt32(FW_ABI_VERSION_PATCH))

    public var description: String { "\(major).\(minor).\(patch)" }

    public static func < (a: ABIVersion, b: ABIVersion) -> Bool {
        (a.major, a.minor, a.patch) < (b.major, b.minor, b.patch)
    }

    /// The header's rule (`fw_version_is_compatible`), decided in one place.
    public func canLoad(pack: ABIVersion) -> Bool {
        fw_version_is_compatible(cVersion, pack.cVersion)
    }

    var cVersion: fw_version { fw_version(major: major, minor: minor, patch: patch) }
}

/// Capabilities a cell type declares.
public struct CellCapabilities: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public static let selectable = CellCapabilities(rawValue: UInt32(FW_CELL_SELECTABLE))
    public static let highlightable = CellCapabilities(rawValue: UInt32(FW_CELL_HIGHLIGHTABLE))
    public static let typedConfigure = CellCapabilities(rawValue: UInt32(FW_CELL_TYPED_CONFIGURE))
    public static let threadSafe = CellCapabilities(rawValue: UInt32(FW_CELL_THREAD_SAFE))

    /// Names as used in JSON output, in a stable order.
    public var names: [String] {
        var out: [String] = []
        if contains(.selectable) { out.append("selectable") }
        if contains(.highlightable) { out.append("highlightable") }
        if contains(.typedConfigure) { out.append("typedConfigure") }
        if contains(.threadSafe) { out.append("threadSafe") }
        return out
    }
}

/// How the host passes a model to a cell.
public enum ConfigureStyle: Sendable, Equatable {
    /// Tagged values in schema order (`fw_cell_type.configure`).
    case generic
    /// A C struct laid out from the schema, called through libffi.
    case typed(convention: TypedConvention, size: Int, alignment: Int)

    public var name: String {
        if case .typed = self { return "typed" }
        return "generic"
    }
}

public enum TypedConvention: String, Sendable, Equatable { case byValue, byPointer }

/// A registered cell type: its registration entry copied into Swift values,
/// plus (internally) the function pointers of its vtable.
public struct CellType: Sendable {
    public var id: String
    public var name: String
    public var summary: String?
    public var fields: [FieldSchema]
    public var textInput: TextInputConfiguration
    public var capabilities: CellCapabilities
    public var configure: ConfigureStyle
    /// The pack that provides it.
    public var packID: String
    public var packPath: String
    public var packABI: ABIVersion

    /// The descriptor and vtable; nil for cell types that were not loaded from a pack.
    let entry: CellEntry?

    public func field(named name: String) -> FieldSchema? { fields.first { $0.name == name } }
}

/// The function pointers of a cell type, and its descriptor (passed back to `create`).
struct CellEntry: @unchecked Sendable {
    let descriptor: UnsafeRawPointer
    let create: @convention(c) (UnsafePointer<fw_cell_type>?, UnsafePointer<fw_host>?) -> UnsafeMutableRawPointer?
    let destroy: @convention(c) (UnsafeMutableRawPointer?) -> Void
    let configure: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<fw_value>?, UInt32) -> fw_status
    let render: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<fw_canvas>?, UnsafeMutableRawPointer?) -> fw_status
    let didSetSelected: (@convention(c) (UnsafeMutableRawPointer?, Bool) -> Void)?
    let didSetHighlighted: (@convention(c) (UnsafeMutableRawPointer?, Bool) -> Void)?
    let valueChanged: (@convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, UnsafePointer<fw_value>?,
        UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> fw_status)?
    let typedConfigure: fw_typed_configure_fn?
    let typedLayout: TypedModelLayout?
    /// The pack's init/deinit, retained while instances of the cell type exist.
    let lifecycle: PackLifecycle
}

/// A pack as the host sees it after loading and validation.
public struct Pack: Sendable {
    public var path: String
    public var id: String
    public var name: String
    public var version: String
    public var vendor: String?
    public var license: String?
    public var description: String?
    public var abi: ABIVersion
    public var cellTypes: [CellType]
    let lifecycle: PackLifecycle?
}
