import FormworkCore
import CFormwork
import Glibc

/// Reads C descriptors without ever reading past their declared `struct_size`.
///
/// A struct is copied into a zeroed local of the host's layout, copying only
/// `min(struct_size, MemoryLayout<T>.size)` bytes: fields a smaller (older)
/// struct lacks read as zero, which is the documented default of every field.
enum DescriptorReader {
    /// Size of each root / exchanged struct in ABI 1.0: the least a pack may declare.
    static let minimumSize = (pack: 96, cellType: 144, field: 104, choice: 24, traits: 88)

    /// The largest `struct_size` accepted for an element of a descriptor array: 16 times the
    /// largest struct this host knows. A pack built against a far newer header still fits;
    /// a hostile stride (0x7FFFFFF0) is refused before the second element is read.
    static let maximumStride =
        16
        * max(
            MemoryLayout<fw_pack>.size, MemoryLayout<fw_cell_type>.size,
            MemoryLayout<fw_field>.size, MemoryLayout<fw_choice>.size,
            MemoryLayout<fw_text_traits>.size)

    /// Longest descriptor string accepted (guards against a missing terminator).
    static let maxStringLength = 64 * 1024

    static func copy<T>(_ type: T.Type, from pointer: UnsafeRawPointer, declaredSize: Int) -> T {
        // On the stack: this runs for every choice a cell draws.
        withUnsafeTemporaryAllocation(byteCount: MemoryLayout<T>.size, alignment: MemoryLayout<T>.alignment) { local in
            local.initializeMemory(as: UInt8.self, repeating: 0)
            local.baseAddress!.copyMemory(from: pointer, byteCount: min(declaredSize, MemoryLayout<T>.size))
            return local.load(as: T.self)
        }
    }

    enum StringProblem: Error { case tooLong, invalidUTF8 }

    /// Reads a NUL-terminated UTF-8 string, refusing unterminated or invalid ones.
    static func string(_ pointer: UnsafePointer<CChar>?) throws(StringProblem) -> String? {
        guard let pointer else { return nil }
        let length = strnlen(pointer, maxStringLength + 1)
        guard length <= maxStringLength else { throw .tooLong }
        // Checked by the core's validator, then made by the specialised `String(decoding:)`: the generic
        // `String(validating:as:)` looks up type metadata at run time for every string.
        let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: length)
        guard UTF8Validation.isValid(bytes) else { throw .invalidUTF8 }
        return String(decoding: bytes, as: UTF8.self)
    }
}
