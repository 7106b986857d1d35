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
    /// `driver` lists the choices packs supply (`choicesFrom`), before the values are checked against them.
    static func load(
        _ path: String, values: String?, registry: Registry, catalog: (any CellTypeCatalog)? = nil, requireComplete: Bool = true,
        driver: any CellDriver
    ) throws -> Form {
        if path == "-" && values == "-" {
            throw ValidationError("the form and --values cannot both be read from standard input (-); pass one of them as a file")
        }
        var form = try decode(path, registry: registry, catalog: catalog)
        try resolveChoices(&form, path: path, driver: driver)
        if let values { try ValuesFile.apply(path: values, to: &form, requireComplete: requireComplete) }
        return form
    }

    /// The choices packs supply now (`Form.resolveChoices`), listed through `driver` (in its cell host).
    static func resolveChoices(_ form: inout Form, path: String, driver: any CellDriver) throws {
        try form.resolveChoices(file: SourceFile.displayName(path)) { (from) throws(RuntimeError) in
            try driver.choices(packPath: from.packPath, source: from.source)
        }
    }

    /// The document alone, in the language asked for (`inLanguage`); a document error is preceded by notes on packs
    /// that could not be read.
    static func decode(_ path: String, registry: Registry, catalog: (any CellTypeCatalog)? = nil) throws -> Form {
        inLanguage(try decodeAsWritten(path, registry: registry, catalog: catalog))
    }

    /// The document in its own language (`validate --strict` compares it with its translations).
    static func decodeAsWritten(_ path: String, registry: Registry, catalog: (any CellTypeCatalog)? = nil) throws -> Form {
        ProcessTuning.prepare(forDocument: path)
        do { return try FormDecoder.load(path: path, registry: catalog ?? registry) } catch {
            noteUnavailablePacks(registry)
            throw error
        }
    }

    /// The languages asked for, best first (`--locale`, else the environment's): set once by the command
    /// (`LanguageOptions.apply`) before it loads a document.
    nonisolated(unsafe) static var preferences: [String] = []
    /// `--locale`'s language, when given: a form without it is shown in its own language, and a note says so.
    nonisolated(unsafe) static var explicitLocale: String?

    /// `form` in the best of its languages for `preferences`; the host's words follow (`Messages.processDefault`).
    static func inLanguage(_ form: Form) -> Form {
        let language = form.language(for: preferences)
        if let asked = explicitLocale, LanguageTag.negotiate([asked], available: form.languages) == nil {
            Console.note(
                TerminalText.safe(
                    "form '\(form.id)' has no translation into \(asked); it is shown in \(language) (its languages: \(form.languages.joined(separator: ", ")))"
                ))
        }
        Messages.processDefault = Messages.catalogue(for: language) ?? .english
        return form.translated(to: language)
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
    func choiceSources(pack packID: String) -> PackChoices? { registry.choiceSources(pack: packID) }
}
