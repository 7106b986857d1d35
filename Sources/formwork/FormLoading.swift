import ArgumentParser
import FormworkCore
import FormworkHost
import Glibc

/// Loading a document and its values; errors are reported by `Exit.report`.
enum FormLoading {
    /// `requireComplete`: every required field must have a value (validate), or values may be
    /// partial (render prefills, fill starts from them).
    /// `catalog`: where the decoder finds the cell types, when not `registry` itself (a render's
    /// `PreloadingCatalog`).
    static func load(
        _ path: String, values: String?, registry: Registry, catalog: (any CellTypeCatalog)? = nil, requireComplete: Bool = true
    ) throws -> Form {
        if path == "-" && values == "-" {
            throw ValidationError("the form and --values cannot both be read from standard input (-); pass one of them as a file")
        }
        var form = try decode(path, registry: registry, catalog: catalog)
        if let values { try ValuesFile.apply(path: values, to: &form, requireComplete: requireComplete) }
        return form
    }

    /// About how many fields the document at `path` has, from its size (a field takes at least about 100 bytes
    /// in JSON or YAML): 0 for standard input or a file that cannot be read (the load reports it).
    static func estimatedFields(_ path: String) -> Int {
        var info = stat()
        guard path != "-", stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return 0 }
        return Int(info.st_size) / 100
    }

    /// Sets the process up for the document at `path`: a large document's heaps in huge pages
    /// (`MemoryPolicy.useHugePages`), from now on; a small one's work on one thread (`Parallel.limit(to:)`: below
    /// `oneThreadBelow` estimated fields, a second thread took a fifth more CPU time for the same wall time). A command
    /// calls it first thing, on the main thread, before it starts any thread or cell host (they inherit it; it changes
    /// allocator settings that another thread's allocation must not see half-changed); loading calls it again (no
    /// more than once has an effect). Standard input's size is not known: it is left as it is.
    static func prepare(for path: String) {
        guard path != "-" else { return }
        let fields = estimatedFields(path)
        if fields >= 2000 { MemoryPolicy.useHugePages() }
        if worksOnOneThread(estimatedFields: fields) { Parallel.limit(to: 1) }
    }

    /// Whether a command works on one thread for a document of about `fields` fields (see `prepare(for:)`).
    static func worksOnOneThread(estimatedFields fields: Int) -> Bool { fields < oneThreadBelow }

    /// Estimated fields (`estimatedFields`) below which a command works on one thread. Measured on two cores (10,000,
    /// 20,000 and 40,000 fields, one thread against two): CPU time 0.76–0.82, 0.73 and 0.88, wall time 1.02, 1.04
    /// and 1.24; `validate` 0.89 and 0.88, wall 0.93 and 1.11.
    static let oneThreadBelow = 24_000

    /// The document alone; a document error is preceded by notes on packs that could not be read.
    static func decode(_ path: String, registry: Registry, catalog: (any CellTypeCatalog)? = nil) throws -> Form {
        prepare(for: path)
        do { return try FormDecoder.load(path: path, registry: catalog ?? registry) } catch {
            noteUnavailablePacks(registry)
            throw error
        }
    }

    /// A missing cell type may live in a pack that could not be read: say which, before the error.
    static func noteUnavailablePacks(_ registry: Registry) {
        for failure in registry.quarantined { Console.note(failure.description) }
    }
}

/// The registry as a render's decoder sees it: each cell type's pack is named to the cell hosts the first
/// time the decoder looks one of its cell types up, so that they load it while the host still decodes
/// (`IsolatedCells.preload`) instead of on their first batch.
struct PreloadingCatalog: CellTypeCatalog {
    let registry: Registry
    let cells: IsolatedCells

    func cellType(_ id: String) throws(RegistryError) -> CellType {
        let cell = try registry.cellType(id)
        cells.preload(packPath: cell.packPath)
        return cell
    }

    var cellTypes: [CellType] { registry.cellTypes }
    var supportsConcurrentLookups: Bool { registry.supportsConcurrentLookups }
}
