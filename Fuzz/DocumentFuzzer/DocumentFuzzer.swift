import Formwork
import FormworkCore
import Glibc

/// Packs come from FORMWORK_PACK_PATH (scripts/fuzz points it at the debug build),
/// so model values are validated against real schemas.
let registry = Registry.discover(
    environment: ["FORMWORK_PACK_PATH": getenvString("FORMWORK_PACK_PATH") ?? ""],
    executableDirectory: nil)

func getenvString(_ name: String) -> String? {
    guard let value = getenv(name) else { return nil }
    return String(cString: value)
}

/// What is fuzzed: `FORMWORK_FUZZ_TARGET=cache` the registry cache's reader, anything else the document path.
let target = getenvString("FORMWORK_FUZZ_TARGET") ?? "document"

/// Feeds arbitrary bytes to the JSON and YAML document paths, the values-file path and,
/// when a document is valid, the runtime and every renderer; or, with the cache target, to the registry cache's
/// reader as a cache file behind this host's header (the records a forged or damaged file holds). Any crash is a bug.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    if target == "cache" {
        _ = RegistryCache.decodeAll(afterHeader: Array(UnsafeBufferPointer(start: data, count: size)))
        return 0
    }
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    // YAML's sections decoded as libyaml reads them, their plain fields read flat from its events (kept, and given
    // to the node builder when a field is not read flat: each event must be deleted once whatever happens).
    _ = FormDecoder.decodeSectionsAsRead(UnsafeBufferPointer(start: data, count: size), path: "fuzz.yaml", registry: registry)
    for json in [true, false] {
        guard let form = try? FormDecoder.decode(text: text, json: json, registry: registry) else { continue }
        guard let tree = try? FormRuntime(registry: registry).render(form) else { continue }
        for format in OutputFormat.allCases { _ = Renderer.render(tree, as: format, width: 40) }
    }
    return 0
}
