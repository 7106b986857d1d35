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
}
