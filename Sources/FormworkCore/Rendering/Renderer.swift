/// The output formats of `formwork render`.
public enum OutputFormat: String, Sendable, CaseIterable {
    case text, ansi, html, json
}

/// Turns a view tree into bytes. Each format is its own unit over the same tree.
public enum Renderer {
    public static func render(_ tree: ViewTree, as format: OutputFormat, width: Int = 80) -> String {
        switch format {
        case .text: TextRenderer(width: width, ansi: false).render(tree)
        case .ansi: TextRenderer(width: width, ansi: true).render(tree)
        case .html:
            {
                var renderer = HTMLRenderer(); return renderer.render(tree)
            }()
        case .json: JSONTreeRenderer.text(tree)
        }
    }

    /// Writes what `render` returns to `sink`, in chunks of UTF-8 bytes in order (each valid only
    /// during the call), a few sections at a time: a large form's output is never held whole
    /// (`formwork render` writes the chunks to its output file or standard output as they come).
    public static func write(
        _ tree: ViewTree, as format: OutputFormat, width: Int = 80, to sink: (UnsafeRawBufferPointer) -> Void
    ) {
        switch format {
        case .text: TextRenderer(width: width, ansi: false).write(tree, to: sink)
        case .ansi: TextRenderer(width: width, ansi: true).write(tree, to: sink)
        case .html:
            var renderer = HTMLRenderer()
            renderer.write(tree, to: sink)
        case .json: JSONTreeRenderer.write(tree, to: sink)
        }
    }
}
