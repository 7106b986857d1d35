import CFormwork
import Glibc
import Synchronization

/// A pack of Swift cell types, exported through the C ABI.
///
///     let pack = CellPack(id: "com.example.cells", name: "Example cells",
///                         version: "1.0.0", cells: [RatingCell.self])
///     @_cdecl("formwork_pack_v1")
///     public func formworkPackV1() -> UnsafeRawPointer { pack.entry }
///
/// The descriptors are built once and live for the process, as the ABI requires.
public final class CellPack: @unchecked Sendable {
    /// The `const fw_pack *` to return from `formwork_pack_v1`.
    public let entry: UnsafeRawPointer

    public init(
        id: String, name: String, version: String, vendor: String? = nil, license: String? = nil,
        description: String? = nil, cells: [any Cell.Type]
    ) {
        let types = UnsafeMutablePointer<fw_cell_type>.allocate(capacity: max(cells.count, 1))
        for (i, cell) in cells.enumerated() {
            types.advanced(by: i).initialize(to: Descriptors.cellType(cell))
        }
        var pack = fw_pack()
        pack.abi = fw_version(major: UInt32(FW_ABI_VERSION_MAJOR), minor: UInt32(FW_ABI_VERSION_MINOR), patch: UInt32(FW_ABI_VERSION_PATCH))
        pack.struct_size = UInt32(MemoryLayout<fw_pack>.size)
        pack.id = Descriptors.string(id)
        pack.name = Descriptors.string(name)
        pack.version = Descriptors.string(version)
        pack.vendor = vendor.map(Descriptors.string)
        pack.license = license.map(Descriptors.string)
        pack.description = description.map(Descriptors.string)
        pack.cell_types = UnsafePointer(types)
        pack.cell_type_count = UInt32(cells.count)
        let pointer = UnsafeMutablePointer<fw_pack>.allocate(capacity: 1)
        pointer.initialize(to: pack)
        entry = UnsafeRawPointer(pointer)
        CellTable.shared.register(base: UnsafeRawPointer(types), cells: cells)
    }
}

/// Maps a cell-type descriptor back to its Swift type (for `create`).
final class CellTable: Sendable {
    static let shared = CellTable()
    private struct Entry: @unchecked Sendable {
        let base: UInt
        let cells: [any Cell.Type]
    }
    private let entries = Mutex<[Entry]>([])

    func register(base: UnsafeRawPointer, cells: [any Cell.Type]) {
        entries.withLock { $0.append(Entry(base: UInt(bitPattern: base), cells: cells)) }
    }

    func cell(for descriptor: UnsafeRawPointer) -> (any Cell.Type)? {
        let address = UInt(bitPattern: descriptor)
        let stride = UInt(MemoryLayout<fw_cell_type>.size)
        return entries.withLock { entries in
            for entry in entries where address >= entry.base {
                let index = Int((address - entry.base) / stride)
                if index < entry.cells.count && (address - entry.base) % stride == 0 { return entry.cells[index] }
            }
            return nil
        }
    }
}

/// One live instance behind the `void *cell` handed to the host.
final class CellBox {
    let host: UnsafePointer<fw_host>?
    let fields: [Field]
    /// The schema's names, once per instance (configure passes values in this order).
    let fieldNames: [String]
    /// Where this instance's look-ups by name start (see `ModelValues`).
    let cursor = LookupCursor()
    /// The values of the last configure, in schema order: overwritten in place by the next one (the host calls
    /// an instance from one thread at a time), so a configure allocates no array.
    var scratch: [ModelValue?] = []
    let configure: (ModelValues) throws -> Void
    let render: (Canvas) -> Void
    let setSelected: ((Bool) -> Void)?
    let setHighlighted: ((Bool) -> Void)?
    let valueChanged: ((String, ModelValue?) -> ValueChange)?
    /// Keeps the last rejection message alive until the next call, as the header promises.
    var message: UnsafeMutablePointer<CChar>?

    init<C: Cell>(_ cell: C, host: UnsafePointer<fw_host>?) {
        self.host = host
        fields = C.Model.fields
        fieldNames = fields.map(\.name)
        configure = { values in try cell.configure(model: C.Model(values)) }
        render = { cell.render(into: $0) }
        setSelected = C._selectedSetter.map { set in { set(cell, $0) } }
        setHighlighted = C._highlightedSetter.map { set in { set(cell, $0) } }
        valueChanged = C._valueObserver.map { observe in { observe(cell, $0, $1) } }
    }

    deinit { free(message) }

    func log(_ text: String, level: fw_log_level = fw_log_level(FW_LOG_ERROR)) {
        guard let host, let log = host.pointee.log else { return }
        text.withCString { log(host, level, $0) }
    }

    static func from(_ pointer: UnsafeMutableRawPointer?) -> CellBox? {
        pointer.map { Unmanaged<CellBox>.fromOpaque($0).takeUnretainedValue() }
    }
}
