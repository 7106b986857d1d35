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
        // Small chunks are gathered up to `chunk` bytes before they reach `sink` (a `write` each, for
        // `formwork render`): a form of a thousand small sections made two thousand system calls.
        let pending = ByteBuffer(capacity: chunk)
        func gather(_ bytes: UnsafeRawBufferPointer) {
            if pending.count + bytes.count <= chunk {
                pending.append(bytes)
                return
            }
            if !pending.isEmpty {
                pending.withUnsafeBytes { sink($0) }
                pending.removeAll()
            }
            if bytes.count >= chunk { sink(bytes) } else { pending.append(bytes) }
        }
        switch format {
        case .text: TextRenderer(width: width, ansi: false).write(tree, to: gather)
        case .ansi: TextRenderer(width: width, ansi: true).write(tree, to: gather)
        case .html:
            var renderer = HTMLRenderer()
            renderer.write(tree, to: gather)
        case .json: JSONTreeRenderer.write(tree, to: gather)
        }
        if !pending.isEmpty { pending.withUnsafeBytes { sink($0) } }
    }

    /// The size up to which `write` gathers small chunks.
    static let chunk = 8192
}
