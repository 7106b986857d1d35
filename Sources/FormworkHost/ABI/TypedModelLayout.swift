import CFFI
import CFormwork
import FormworkCore
import Glibc
import Synchronization

/// The C struct a typed-configure cell expects, laid out from its schema by
/// libffi (`ffi_get_struct_offsets`), with the call interfaces prepared once
/// and cached for each convention. By value, the call is direct where the
/// platform's convention for the struct is known (x86-64 System V: `DirectCall`),
/// else through libffi.
///
/// Member C types follow formwork.h: string/text/choice → `const char *`,
/// bool → `bool`, integer → `int64_t`, number/date → `double`,
/// string list → `fw_string_list`.
final class TypedModelLayout: @unchecked Sendable {
    enum LayoutError: Error, CustomStringConvertible {
        case ffi(String, Int)
        var description: String {
            switch self {
            case .ffi(let call, let status): "\(call) returned status \(status)"
            }
        }
    }

    let fields: [FieldType]
    let offsets: [Int]
    /// ABI 1.2 (`FW_CELL_TYPED_PRESENCE`): where the presence bitmap starts, one bit per field after the
    /// members (`uint8_t present[(n + 7) / 8]`, the struct's last member); nil without presence.
    let presenceOffset: Int?
    let size: Int
    let alignment: Int
    /// How a by-value call passes the struct without libffi, or nil (libffi).
    let direct: DirectCall?

    /// A by-value call without libffi (x86-64 System V): the struct's words in registers, each word in a
    /// general register or, when it holds only a double, an SSE register (`CFFI_REGS_*`); or, above 16 bytes,
    /// copied onto the stack as that many 64-bit words, whatever the members.
    enum DirectCall: Equatable {
        case registers(Int32)
        case stack(words: UInt32)
    }

    /// Whether by-value calls go direct when `direct` says how (tests turn it off to compare with libffi).
    private let directEnabled = Atomic<Bool>(true)
    var usesDirectCalls: Bool {
        get { directEnabled.load(ordering: .relaxed) }
        set { directEnabled.store(newValue, ordering: .relaxed) }
    }

    /// The bytes of a buffer that holds a model for any call: the struct's size rounded up to whole words (a
    /// direct call reads whole words; a template is copied a word at a time).
    var bufferSize: Int { max((size + 7) & ~7, 8) }

    // libffi keeps pointers to these for as long as a cif is used: owned here, freed in deinit.
    private let structType: UnsafeMutablePointer<ffi_type>
    private let elements: UnsafeMutablePointer<UnsafeMutablePointer<ffi_type>?>
    private let listType: UnsafeMutablePointer<ffi_type>
    private let listElements: UnsafeMutablePointer<UnsafeMutablePointer<ffi_type>?>
    private let cifs = Mutex<[TypedConvention: Prepared]>([:])
    /// The by-value interface once prepared (`cifs` owns it), read without the lock on every call.
    private let preparedByValue = Atomic<UnsafeMutablePointer<ffi_cif>?>(nil)

    /// A prepared call interface and the argument-type array it points to.
    private struct Prepared: @unchecked Sendable {
        let cif: UnsafeMutablePointer<ffi_cif>
        let argumentTypes: UnsafeMutablePointer<UnsafeMutablePointer<ffi_type>?>
    }

    init(fields: [FieldType], presence: Bool = false) throws(LayoutError) {
        self.fields = fields
        listElements = .allocate(capacity: 3)
        listElements[0] = cffi_type_pointer()
        listElements[1] = cffi_type_uint64()
        listElements[2] = nil
        listType = .allocate(capacity: 1)
        listType.initialize(to: ffi_type(size: 0, alignment: 0, type: UInt16(FFI_TYPE_STRUCT), elements: listElements))

        // With presence, the bitmap's bytes follow the members as `uint8_t`s (an array member is laid out as
        // its elements are).
        let presenceBytes = presence ? (fields.count + 7) / 8 : 0
        let memberCount = fields.count + presenceBytes
        elements = .allocate(capacity: memberCount + 1)
        for (i, type) in fields.enumerated() {
            switch type {
            case .string, .text, .choice: elements[i] = cffi_type_pointer()
            case .bool: elements[i] = cffi_type_uint8()
            case .integer: elements[i] = cffi_type_sint64()
            case .number, .date: elements[i] = cffi_type_double()
            case .stringList, .choiceList: elements[i] = listType
            }
        }
        for i in fields.count..<memberCount { elements[i] = cffi_type_uint8() }
        elements[memberCount] = nil
        let structType = UnsafeMutablePointer<ffi_type>.allocate(capacity: 1)
        structType.initialize(to: ffi_type(size: 0, alignment: 0, type: UInt16(FFI_TYPE_STRUCT), elements: elements))
        self.structType = structType

        var offsets = [Int](repeating: 0, count: memberCount)
        let status = offsets.withUnsafeMutableBufferPointer {
            ffi_get_struct_offsets(cffi_default_abi(), structType, $0.baseAddress)
        }
        guard status == FFI_OK else { throw .ffi("ffi_get_struct_offsets", Int(status.rawValue)) }
        self.offsets = Array(offsets.prefix(fields.count))
        presenceOffset = presence ? offsets[fields.count] : nil
        size = structType.pointee.size
        alignment = Int(structType.pointee.alignment)
        direct = Self.directCall(
            fields: fields, offsets: self.offsets, size: size,
            bitmap: presenceOffset.map { $0..<($0 + presenceBytes) })
    }

    /// The direct call for a struct of `fields` at `offsets`, or nil where libffi must make it.
    static func directCall(fields: [FieldType], offsets: [Int], size: Int, bitmap: Range<Int>? = nil) -> DirectCall? {
        #if arch(x86_64) && os(Linux)
            guard size > 0, !fields.isEmpty else { return nil }
            if size > 16 {
                let words = (size + 7) / 8
                return words <= 64 ? .stack(words: UInt32(words)) : nil
            }
            // Per word: whether any member lies in it, and whether every member in it is a double.
            var used = [false, false], double = [true, true]
            for (i, type) in fields.enumerated() {
                let width: Int
                switch type {
                case .string, .text, .choice, .integer, .number, .date: width = 8
                case .bool: width = 1
                case .stringList, .choiceList: width = 16
                }
                for word in offsets[i] / 8...(offsets[i] + width - 1) / 8 where word < 2 {
                    used[word] = true
                    if type != .number && type != .date { double[word] = false }
                }
            }
            // The presence bitmap's bytes are integers.
            for word in (bitmap ?? 0..<0).map({ $0 / 8 }) where word < 2 {
                used[word] = true
                double[word] = false
            }
            let words = (size + 7) / 8
            guard used[0], words == 1 || used[1] else { return nil }  // a word of padding only: left to libffi
            switch (words, double[0], double[1]) {
            case (1, false, _): return .registers(Int32(CFFI_REGS_I))
            case (1, true, _): return .registers(Int32(CFFI_REGS_S))
            case (_, false, false): return .registers(Int32(CFFI_REGS_II))
            case (_, false, true): return .registers(Int32(CFFI_REGS_IS))
            case (_, true, false): return .registers(Int32(CFFI_REGS_SI))
            default: return .registers(Int32(CFFI_REGS_SS))
            }
        #else
            return nil
        #endif
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

    /// Lays `values` (schema order; nil = absent, then `defaults[i]` when given) out as the model
    /// struct and calls `function` with it.
    func call(
        _ function: fw_typed_configure_fn, convention: TypedConvention, cell: UnsafeMutableRawPointer,
        values: [Value?], defaults: [Value?]? = nil, marshaller given: CMarshaller? = nil
    ) throws(LayoutError) -> fw_status {
        // The model struct and the argument list live on the stack: nothing is allocated per call.
        try withUnsafeTemporaryAllocation(byteCount: bufferSize, alignment: max(alignment, 8)) { (buffer) throws(LayoutError) in
            let model = buffer.baseAddress!
            buffer.initializeMemory(as: UInt8.self, repeating: 0)
            let marshaller = given ?? CMarshaller()
            defer { withExtendedLifetime(marshaller) {} }
            values.withUnsafeBufferPointer { values in
                for i in fields.indices {
                    if i < values.count, let value = values[i] {
                        marshaller.store(value, as: fields[i], at: model + offsets[i])
                        markPresent(i, in: model)
                    } else if let value = defaults?[i] {
                        marshaller.store(value, as: fields[i], at: model + offsets[i])
                        markPresent(i, in: model)
                    } else if fields[i] == .date {
                        (model + offsets[i]).storeBytes(of: Double.nan, as: Double.self)  // an absent date
                    }
                }
            }
            return try invokeChecked(function, convention: convention, cell: cell, model: model)
        }
    }

    /// Sets field `index`'s presence bit in the model at `model`, when the layout has a bitmap.
    @inline(__always) func markPresent(_ index: Int, in model: UnsafeMutableRawPointer) {
        guard let presenceOffset else { return }
        let byte = model + presenceOffset + index / 8
        byte.storeBytes(of: byte.load(as: UInt8.self) | UInt8(1 << (index % 8)), as: UInt8.self)
    }

    /// Calls `function` with the model struct at `model` (`bufferSize` bytes): directly by pointer (the
    /// signature is fixed, `fw_status (*)(void *, const MODEL *)`: no libffi); by value directly where
    /// `direct` says how, else through the prepared `ffi_cif`.
    private func invokeChecked(
        _ function: fw_typed_configure_fn, convention: TypedConvention, cell: UnsafeMutableRawPointer, model: UnsafeMutableRawPointer
    ) throws(LayoutError) -> fw_status {
        if convention == .byPointer {
            let direct = unsafeBitCast(function, to: (@convention(c) (UnsafeMutableRawPointer?, UnsafeRawPointer?) -> fw_status).self)
            return direct(cell, model)
        }
        #if arch(x86_64) && os(Linux)
            if let direct, directEnabled.load(ordering: .relaxed) {
                switch direct {
                case .registers(let kind): return cffi_direct_in_registers(function, cell, model, kind)
                case .stack(let words):
                    var status: Int32 = 0
                    if cffi_direct_on_stack(function, cell, model, words, &status) != 0 { return status }
                }
            }
        #endif
        let cif = try byValueCIF()
        var cellArgument: UnsafeMutableRawPointer? = cell
        var returned: UInt64 = 0  // ffi_arg: return values narrower than a register are widened
        withUnsafeMutablePointer(to: &cellArgument) { cellSlot in
            withUnsafeTemporaryAllocation(of: UnsafeMutableRawPointer?.self, capacity: 2) { arguments in
                arguments[0] = UnsafeMutableRawPointer(cellSlot)
                arguments[1] = model
                ffi_call(cif, function, &returned, arguments.baseAddress)
            }
        }
        return fw_status(truncatingIfNeeded: Int64(bitPattern: returned))
    }

    /// `invokeChecked`, nil when the by-value call interface cannot be prepared (the pack's function is
    /// then not called).
    func invoke(
        _ function: fw_typed_configure_fn, convention: TypedConvention, cell: UnsafeMutableRawPointer, model: UnsafeMutableRawPointer
    ) -> fw_status? {
        try? invokeChecked(function, convention: convention, cell: cell, model: model)
    }

    /// The by-value `ffi_cif`, read without a lock once prepared.
    private func byValueCIF() throws(LayoutError) -> UnsafeMutablePointer<ffi_cif> {
        if let prepared = preparedByValue.load(ordering: .acquiring) { return prepared }
        let prepared = try cif(for: .byValue)
        preparedByValue.store(prepared, ordering: .releasing)
        return prepared
    }
}
