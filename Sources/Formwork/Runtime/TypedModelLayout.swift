import CFFI
import CFormwork
import Glibc
import Synchronization

/// The C struct a typed-configure cell expects, laid out from its schema by
/// libffi (`ffi_get_struct_offsets`), with the call interfaces prepared once
/// and cached for each convention.
///
/// Member C types follow formwork.h: string/text/choice → `const char *`,
/// bool → `bool`, integer → `int64_t`, number/date → `double`,
/// string list → `fw_string_list`.
final class TypedModelLayout: @unchecked Sendable {
    enum LayoutError: Error, CustomStringConvertible {
        case ffi(String, Int)
        var description: String {
            switch self { case .ffi(let call, let status): "\(call) returned status \(status)" }
        }
    }

    let fields: [FieldType]
    let offsets: [Int]
    let size: Int
    let alignment: Int

    // libffi keeps pointers to these for as long as a cif is used: owned here, freed in deinit.
    private let structType: UnsafeMutablePointer<ffi_type>
    private let elements: UnsafeMutablePointer<UnsafeMutablePointer<ffi_type>?>
    private let listType: UnsafeMutablePointer<ffi_type>
    private let listElements: UnsafeMutablePointer<UnsafeMutablePointer<ffi_type>?>
    private let cifs = Mutex<[TypedConvention: Prepared]>([:])

    /// A prepared call interface and the argument-type array it points to.
    private struct Prepared: @unchecked Sendable {
        let cif: UnsafeMutablePointer<ffi_cif>
        let argumentTypes: UnsafeMutablePointer<UnsafeMutablePointer<ffi_type>?>
    }

    init(fields: [FieldType]) throws(LayoutError) {
        self.fields = fields
        listElements = .allocate(capacity: 3)
        listElements[0] = cffi_type_pointer()
        listElements[1] = cffi_type_uint64()
        listElements[2] = nil
        listType = .allocate(capacity: 1)
        listType.initialize(to: ffi_type(size: 0, alignment: 0, type: UInt16(FFI_TYPE_STRUCT), elements: listElements))

        elements = .allocate(capacity: fields.count + 1)
        for (i, type) in fields.enumerated() {
            switch type {
            case .string, .text, .choice: elements[i] = cffi_type_pointer()
            case .bool: elements[i] = cffi_type_uint8()
            case .integer: elements[i] = cffi_type_sint64()
            case .number, .date: elements[i] = cffi_type_double()
            case .stringList: elements[i] = listType
            }
        }
        elements[fields.count] = nil
        let structType = UnsafeMutablePointer<ffi_type>.allocate(capacity: 1)
        structType.initialize(to: ffi_type(size: 0, alignment: 0, type: UInt16(FFI_TYPE_STRUCT), elements: elements))
        self.structType = structType

        var offsets = [Int](repeating: 0, count: fields.count)
        let status = offsets.withUnsafeMutableBufferPointer {
            ffi_get_struct_offsets(cffi_default_abi(), structType, $0.baseAddress)
        }
        guard status == FFI_OK else { throw .ffi("ffi_get_struct_offsets", Int(status.rawValue)) }
        self.offsets = offsets
        size = structType.pointee.size
        alignment = Int(structType.pointee.alignment)
    }

    deinit {
        for prepared in cifs.withLock({ Array($0.values) }) {
            prepared.cif.deallocate()
            prepared.argumentTypes.deallocate()
        }
        structType.deallocate()
        elements.deallocate()
        listType.deallocate()
        listElements.deallocate()
    }

    /// The `ffi_cif` for `fw_status (*)(void *, MODEL)` or `(void *, const MODEL *)`, prepared once.
    private func cif(for convention: TypedConvention) throws(LayoutError) -> UnsafeMutablePointer<ffi_cif> {
        let result: Result<UnsafeMutablePointer<ffi_cif>, LayoutError> = cifs.withLock { cache in
            if let prepared = cache[convention] { return .success(prepared.cif) }
            let argumentTypes = UnsafeMutablePointer<UnsafeMutablePointer<ffi_type>?>.allocate(capacity: 2)
            argumentTypes[0] = cffi_type_pointer()
            argumentTypes[1] = convention == .byValue ? structType : cffi_type_pointer()
            let cif = UnsafeMutablePointer<ffi_cif>.allocate(capacity: 1)
            let status = ffi_prep_cif(cif, cffi_default_abi(), 2, cffi_type_sint32(), argumentTypes)
            guard status == FFI_OK else {
                cif.deallocate()
                argumentTypes.deallocate()
                return .failure(.ffi("ffi_prep_cif", Int(status.rawValue)))
            }
            cache[convention] = Prepared(cif: cif, argumentTypes: argumentTypes)
            return .success(cif)
        }
        return try result.get()
    }

    /// Number of prepared interfaces (for tests of the cache).
    var preparedCount: Int { cifs.withLock { $0.count } }

    /// Lays `values` (schema order; nil = absent) out as the model struct and calls `function` with it.
    func call(_ function: fw_typed_configure_fn, convention: TypedConvention, cell: UnsafeMutableRawPointer,
              values: [Value?]) throws(LayoutError) -> fw_status {
        let cif = try cif(for: convention)
        let model = UnsafeMutableRawPointer.allocate(byteCount: max(size, 1), alignment: max(alignment, 8))
        model.initializeMemory(as: UInt8.self, repeating: 0, count: max(size, 1))
        var owned: [UnsafeMutableRawPointer] = []
        defer {
            for pointer in owned { free(pointer) }
            model.deallocate()
        }
        func cString(_ s: String) -> UnsafePointer<CChar> {
            let copy = strdup(s)!
            owned.append(UnsafeMutableRawPointer(copy))
            return UnsafePointer(copy)
        }
        for (i, type) in fields.enumerated() {
            let at = model + offsets[i]
            let value = i < values.count ? values[i] : nil
            switch (type, value) {
            case (.string, .string(let s)?), (.text, .string(let s)?), (.choice, .string(let s)?):
                at.storeBytes(of: cString(s), as: UnsafePointer<CChar>?.self)
            case (.bool, .bool(let b)?):
                at.storeBytes(of: b, as: Bool.self)
            case (.integer, .integer(let n)?):
                at.storeBytes(of: n, as: Int64.self)
            case (.number, .number(let d)?), (.date, .number(let d)?):
                at.storeBytes(of: d, as: Double.self)
            case (.number, .integer(let n)?), (.date, .integer(let n)?):
                at.storeBytes(of: Double(n), as: Double.self)
            case (.date, nil):
                at.storeBytes(of: Double.nan, as: Double.self) // absent date
            case (.stringList, .stringList(let items)?):
                let raw = malloc(max(items.count, 1) * MemoryLayout<UnsafePointer<CChar>?>.stride)!
                owned.append(raw)
                let array = raw.bindMemory(to: UnsafePointer<CChar>?.self, capacity: max(items.count, 1))
                for (j, item) in items.enumerated() { array[j] = cString(item) }
                let list = fw_string_list(items: items.isEmpty ? nil : UnsafePointer(array), count: items.count)
                at.storeBytes(of: list, as: fw_string_list.self)
            default:
                break // absent: zero (NULL, false, 0)
            }
        }
        var cellArgument: UnsafeMutableRawPointer? = cell
        var modelPointer: UnsafeMutableRawPointer? = model
        var returned: UInt64 = 0 // ffi_arg: return values narrower than a register are widened
        withUnsafeMutablePointer(to: &cellArgument) { cellSlot in
            withUnsafeMutablePointer(to: &modelPointer) { pointerSlot in
                var arguments: [UnsafeMutableRawPointer?] = [
                    UnsafeMutableRawPointer(cellSlot),
                    convention == .byValue ? model : UnsafeMutableRawPointer(pointerSlot),
                ]
                arguments.withUnsafeMutableBufferPointer {
                    ffi_call(cif, function, &returned, $0.baseAddress)
                }
            }
        }
        return fw_status(truncatingIfNeeded: Int64(bitPattern: returned))
    }
}
