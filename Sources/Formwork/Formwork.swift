// The umbrella module: `import Formwork` gives the core (documents, validation,
// rendering) and the host (packs, registry, runtime) in one import.
@_exported import FormworkCore
@_exported import FormworkHost
