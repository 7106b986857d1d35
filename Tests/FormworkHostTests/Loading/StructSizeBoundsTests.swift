import CFormwork
import Foundation
import Testing

@testable import FormworkCore
@testable import FormworkHost
import FormworkTestSupport

/// Descriptors in heap blocks of exactly `struct_size` bytes. Run under
/// `swift test --sanitize=address --filter StructSizeBounds` (scripts/test does),
/// any read past a `struct_size` is an AddressSanitizer heap-buffer-overflow.
@Suite("StructSizeBounds: the host never reads past struct_size")
struct StructSizeBoundsTests {
    @Test(
        "a truncated fw_pack in a block of exactly its struct_size is refused after reading only its header",
        arguments: [16, 32, 64, 95])
    func truncatedPack(size: Int) throws {
        let path = try CCompiler.pack("heap-\(size)", defines: ["FIXTURE_HEAP_DESCRIPTOR", "FIXTURE_PACK_SIZE=\(size)"])
        #expect(
            throws: PackError(
                path: path,
                reason: .invalidDescriptor(
                    "fw_pack.struct_size is \(size), smaller than the 96 bytes of ABI 1.0; set it to sizeof and rebuild against formwork.h")
            )
        ) {
            try PackLoader.load(path: path)
        }
    }

    @Test("an exact-size heap fw_pack loads and renders")
    func exactPack() throws {
        let path = try CCompiler.pack("heap-96", defines: ["FIXTURE_HEAP_DESCRIPTOR", "FIXTURE_PACK_SIZE=96"])
        let loaded = try PackLoader.load(path: path)
        #expect(loaded.pack.cellTypes.count == 1)
        let instance = try CellInstance(loaded.pack.cellTypes[0], entry: loaded.entries[0])
        try instance.configure([.string("t"), .integer(3), .string("sad")], field: nil)
        #expect(try instance.render(accessibilityId: "x", valueField: nil, field: nil) == [.value(label: "Count", text: "###")])
    }

    @Test("truncated cell types are refused before their members are read")
    func truncatedCell() throws {
        let path = try CCompiler.pack("heap-cell", defines: ["FIXTURE_CELL_SIZE=8"])
        #expect(throws: PackError.self) { try PackLoader.load(path: path) }
    }
}

/// Packs claiming each ABI level are accepted or refused exactly as the header's rule says.
@Suite("Compatibility matrix")
struct CompatibilityMatrixTests {
    @Test(
        "every (major, minor) a pack may claim is judged by fw_version_is_compatible, with both versions named",
        arguments: [(0, 0), (0, 9), (1, 0), (1, 1), (1, 7), (2, 0), (2, 1), (3, 0)])
    func matrix(major: Int, minor: Int) throws {
        let path = try CCompiler.pack("abi-\(major)-\(minor)", defines: ["FIXTURE_ABI_MAJOR=\(major)", "FIXTURE_ABI_MINOR=\(minor)"])
        let claimed = ABIVersion(major: UInt32(major), minor: UInt32(minor), patch: 0)
        let rule = fw_version_is_compatible(ABIVersion.host.cVersion, claimed.cVersion)
        do {
            let pack = try PackLoader.load(path: path).pack
            #expect(rule, "loaded \(claimed) although the rule refuses it")
            #expect(pack.abi == claimed)
        } catch {
            #expect(!rule, "refused \(claimed) although the rule accepts it: \(error)")
            #expect(error.reason == .incompatibleABI(pack: claimed, host: .host))
            #expect(error.message.contains("pack ABI \(claimed)") && error.message.contains("host ABI \(ABIVersion.host)"))
        }
    }
}
