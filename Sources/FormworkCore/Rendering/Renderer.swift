/// The output formats of `formwork render`.
public enum OutputFormat: String, Sendable, CaseIterable {
    case text, ansi, html, json
}

/// Turns a view tree into bytes. Each format is its own unit over the same tree.
public enum Renderer {
    public static func render(_ tree: ViewTree, as format: OutputFormat, width: Int = 80) -> String {
        // The host's words (buttons, headings) in the language of the form's texts.
        Messages.$bound.withValue(tree.messages) { renderInItsLanguage(tree, as: format, width: width) }
    }

    private static func renderInItsLanguage(_ tree: ViewTree, as format: OutputFormat, width: Int) -> String {
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
        Messages.$bound.withValue(tree.messages) { writeInItsLanguage(tree, as: format, width: width, to: sink) }
    }

    private static func writeInItsLanguage(
        _ tree: ViewTree, as format: OutputFormat, width: Int, to sink: (UnsafeRawBufferPointer) -> Void
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

    /// The HTML page of `tree` as a server sends it (`page` says where it posts, what it adds); the page's inline
    /// scripts and styles are `inlineScripts` and `inlineStyles` (a server hashes them for its CSP).
    public static func html(_ tree: ViewTree, page: WebPage) -> String {
        var renderer = HTMLRenderer()
        renderer.page = page
        return Messages.$bound.withValue(tree.messages) { renderer.render(tree) }
    }

    /// Whether `tree` has a button that submits the page (a server adds one when not).
    public static func hasSubmitButton(_ tree: ViewTree) -> Bool { HTMLRenderer.hasSubmitButton(tree) }

    /// Every script an HTML page may hold inline, exactly as written between its tags.
    public static var inlineScripts: [String] { [HTMLRenderer.conditionScript, HTMLRenderer.pageScript, HTMLRenderer.repeatScript] }
    /// Every style sheet an HTML page may hold inline.
    public static var inlineStyles: [String] { [HTMLRenderer.stylesheet, HTMLRenderer.pageStylesheet] }

    /// The size up to which `write` gathers small chunks.
    static let chunk = 8192
}

/// What a server adds to a form's HTML page.
public struct WebPage: Sendable {
    /// One problem of a refused submission, in the error summary: its message, and the id of the control it links to.
    public struct Problem: Sendable, Equatable {
        public var message: String
        public var target: String?
        public init(message: String, target: String?) {
            self.message = message
            self.target = target
        }
    }
    /// A submit button the server adds (the document's own buttons stay where they are).
    public struct Button: Sendable, Equatable {
        public var label: String
        public var name: String?
        public var value: String
        public var primary: Bool
        /// Sends the form without the browser's checks (`formnovalidate`): saving a draft need not be complete.
        public var skipsValidation: Bool
        public init(label: String, name: String? = nil, value: String = "", primary: Bool = true, skipsValidation: Bool = false) {
            self.label = label
            self.name = name
            self.value = value
            self.primary = primary
            self.skipsValidation = skipsValidation
        }
    }

    /// A message above the form that is not a problem (a draft was saved; where to resume it), announced politely.
    public struct Notice: Sendable, Equatable {
        public var title: String
        public var text: String
        /// A link the notice offers (the resume link), shown in full so it can be copied.
        public var link: String?
        public init(title: String, text: String, link: String? = nil) {
            self.title = title
            self.text = text
            self.link = link
        }
    }

    /// Where the form posts (`action`).
    public var action: String
    /// Hidden inputs written first in the form (a form token).
    public var hiddenInputs: [HiddenInput]
    /// The problems shown in the error summary above the form; empty for a page no one has submitted yet.
    public var problems: [Problem]
    public var buttons: [Button]
    public var notice: Notice?

    public struct HiddenInput: Sendable, Equatable {
        public var name: String
        public var value: String
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    public init(
        action: String, hiddenInputs: [HiddenInput] = [], problems: [Problem] = [], buttons: [Button] = [], notice: Notice? = nil
    ) {
        self.action = action
        self.hiddenInputs = hiddenInputs
        self.problems = problems
        self.buttons = buttons
        self.notice = notice
    }
}
