import FormworkCore

// The runtime takes the cell entries it drives, not the registry: these initialisers live with the registry
// so that the dependency points one way (Registry -> Runtime; `scripts/layer-check`).

extension InProcessCells {
    /// Drives the cell types of `registry` in this process.
    public convenience init(registry: Registry) {
        self.init(entries: registry.entries)
    }
}

extension FormRuntime {
    /// A runtime that drives the cells of `registry` in this process.
    public convenience init(registry: Registry) {
        self.init(driver: InProcessCells(registry: registry))
    }
}
