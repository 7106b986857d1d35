import ArgumentParser
import FormworkCore
import Glibc

/// `formwork new-pack NAME`: a working C pack to start from — its source, a Makefile that finds `formwork.h` through
/// pkg-config (or `FORMWORK_INCLUDE`), a form that uses its cell, and `make check` (conformance and a render). A pack
/// author's first hour is then editing a pack that already loads, not finding out how to build one.
struct NewPack: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new-pack",
        abstract:
            "Write a new, working cell pack to start from: C, C++, Rust or Swift source, its build, a form that uses it, and make check.",
        discussion: """
            The pack builds against formwork.h found by pkg-config (an installed Formwork) or in FORMWORK_INCLUDE, and
            exports only formwork_pack_v1. `make check` runs `formwork check` on it and renders its form. See
            docs/abi.md for the ABI. A Rust pack (--lang rust) builds with cargo and no crates; a Swift pack (--lang swift)
            is a SwiftPM package that depends on FormworkPluginKit by version (this formwork's) from --formwork-url.

            EXAMPLES:
              formwork new-pack stars
                  Writes stars/ with stars.c, Makefile, exports.map, form.yaml and README.md.
              formwork new-pack stars --id org.example.stars --directory stars-pack
                  The same, with your own pack id, in another directory.
              formwork new-pack stars --lang cpp
                  The same pack in C++17 (stars.cpp, the C++ runtime linked in statically).
              formwork new-pack stars --lang rust
                  The same pack in Rust, without crates (Cargo.toml, src/lib.rs, src/ffi.rs).
              formwork new-pack stars --lang swift --formwork-url file:///src/formwork
                  The same pack in Swift: Package.swift depending on FormworkPluginKit from that URL, by version.
              cd stars && make check
                  Builds libstars.so, checks it for conformance and renders form.yaml with it.
            """)

    @Argument(help: ArgumentHelp("The pack's name: a lowercase letter, then lowercase letters, digits and '-'.", valueName: "name"))
    var name: String
    @Option(help: ArgumentHelp("The pack's and its cell type's id (default: com.example.NAME).", valueName: "id"))
    var id: String?
    @Option(help: ArgumentHelp("Where to write the files; it must not exist or be empty (default: ./NAME).", valueName: "path"))
    var directory: String?
    @Option(help: ArgumentHelp("The pack's language: c, cpp (C++17), rust or swift.", valueName: "lang"))
    var lang = "c"
    @Option(
        help: ArgumentHelp(
            "With --lang swift: where SwiftPM fetches Formwork (the repository's URL, or a clone's file:// URL).", valueName: "url"))
    var formworkURL: String?

    func validate() throws {
        guard let first = name.utf8.first, (0x61...0x7A).contains(first), name.utf8.count <= 64,
            name.utf8.allSatisfy({ (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D })
        else {
            throw ValidationError(
                "the pack name '\(TerminalText.safe(name))' must start with a lowercase letter and hold only lowercase letters, digits and '-' (at most 64)"
            )
        }
        if let id, !Self.isPackID(id) {
            throw ValidationError("the id '\(TerminalText.safe(id))' must be a reverse-DNS name such as org.example.\(name)")
        }
        guard ["c", "cpp", "rust", "swift"].contains(lang) else {
            throw ValidationError("--lang \(TerminalText.safe(lang)): c, cpp, rust and swift are written")
        }
        if lang == "swift" {
            guard formworkURL.flatMap(Self.packageIdentity) != nil else {
                throw ValidationError(
                    "--lang swift needs --formwork-url URL: where SwiftPM fetches Formwork, e.g. the repository's URL or file:///path/to/a/clone"
                )
            }
        } else if formworkURL != nil {
            throw ValidationError("--formwork-url is for --lang swift: a \(lang) pack finds formwork.h with pkg-config")
        }
    }

    /// SwiftPM's identity of a package URL: its last path component without `.git`, lowercased; nil for a URL
    /// with none, or with a character that would break the Package.swift it is written into.
    static func packageIdentity(_ url: String) -> String? {
        guard !url.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x7F }) else { return nil }
        var last = url.split(separator: "/").last.map(String.init) ?? ""
        if last.hasSuffix(".git") { last.removeLast(4) }
        return last.isEmpty || url.utf8.count > 1024 ? nil : last.lowercased()
    }

    /// Reverse-DNS: dot-separated parts of letters, digits, '-' and '_', at least two.
    static func isPackID(_ id: String) -> Bool {
        let parts = id.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count >= 2 && id.utf8.count <= 128
            && parts.allSatisfy { part in
                !part.isEmpty
                    && part.utf8.allSatisfy {
                        ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || (0x30...0x39).contains($0) || $0 == 0x2D || $0 == 0x5F
                    }
            }
    }

    func run() throws {
        let directory = directory ?? name
        let packID = id ?? "com.example.\(name)"
        // An existing, non-empty directory is someone's work: never written into.
        if let entries = Self.entries(of: directory) {
            guard entries == 0 else {
                Console.error("\(directory) exists and is not empty; choose another --directory")
                throw Exit.cannotCreate
            }
        } else if mkdir(directory, 0o755) != 0 {
            Console.error("cannot create \(directory): \(String(cString: strerror(errno)))")
            throw Exit.cannotCreate
        }
        let symbol = name.replacing("-", with: "_")
        // The source first, then its build, in the order the "Wrote" line lists them.
        let source: [(String, String)]
        let build: (String, String)
        switch lang {
        case "cpp":
            source = [("\(name).cpp", PackTemplate.cpp(name: name, id: packID))]
            build = ("Makefile", PackTemplate.makefileCpp(name: name))
        case "rust":
            source = [
                ("Cargo.toml", PackTemplate.cargo(name: name)), ("src/lib.rs", PackTemplate.rust(name: name, id: packID)),
                ("src/ffi.rs", PackTemplate.rustFFI),
            ]
            build = ("Makefile", PackTemplate.makefileRust(name: name))
            if mkdir("\(directory)/src", 0o755) != 0 {
                Console.error("cannot create \(directory)/src: \(String(cString: strerror(errno)))")
                throw Exit.cannotCreate
            }
        case "swift":
            let url = formworkURL ?? ""
            source = [
                ("Package.swift", PackTemplate.swiftPackage(name: name, url: url, identity: Self.packageIdentity(url) ?? "formwork")),
                ("Sources/\(name)/\(name).swift", PackTemplate.swift(name: name, id: packID)),
            ]
            build = ("Makefile", PackTemplate.makefileSwift(name: name))
            for sub in ["\(directory)/Sources", "\(directory)/Sources/\(name)"] where mkdir(sub, 0o755) != 0 {
                Console.error("cannot create \(sub): \(String(cString: strerror(errno)))")
                throw Exit.cannotCreate
            }
        default:
            source = [("\(name).c", PackTemplate.c(name: name, symbol: symbol, id: packID))]
            build = ("Makefile", PackTemplate.makefile(name: name))
        }
        let readme =
            switch lang {
            case "swift": PackTemplate.readmeSwift(name: name, id: packID)
            case "rust": PackTemplate.readmeRust(name: name, id: packID)
            default: PackTemplate.readme(name: name, id: packID)
            }
        // Cargo exports only the #[no_mangle] entry by itself; the others link with the version script.
        let exports = lang == "rust" ? [] : [("exports.map", PackTemplate.exports)]
        let files = source + exports + [build, ("form.yaml", PackTemplate.form(name: name, id: packID)), ("README.md", readme)]
        for (file, contents) in files {
            let path = "\(directory)/\(file)"
            do { try OutputFile.write(contents, to: path) } catch {
                Console.error("cannot write \(path): \(error)")
                throw Exit.cannotCreate
            }
        }
        Console.out(
            """
            Wrote \(TerminalText.safe(directory))/: \(files.map(\.0).joined(separator: ", ")).
            Next: cd \(TerminalText.safe(directory)) && make check

            """)
    }

    /// The number of entries in `path` when it is a directory; nil when it does not exist.
    static func entries(of path: String) -> Int? {
        guard let dir = opendir(path) else { return nil }
        defer { closedir(dir) }
        var count = 0
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { count += 1 }
        }
        return count
    }
}

/// The files `new-pack` writes.
enum PackTemplate {
    static func c(name: String, symbol: String, id: String) -> String {
        """
        /*
         * The \(name) pack: one cell type, \(id), a text field with a title.
         * Start here: add model fields to `fields`, read them in `configure`, draw them in `render`, and check what
         * the user types in `value_changed`. The header documents every function, with who calls it and what it
         * may keep (formwork.h); `make check` tells you what the host thinks of the result.
         */
        #include "formwork.h"

        #include <stdlib.h>
        #include <string.h>

        typedef struct \(symbol)_cell {
            char *title;
            char *value;
            char reason[96];
        } \(symbol)_cell;

        static const fw_field fields[] = {
            { .struct_size = sizeof(fw_field), .type = FW_FIELD_STRING, .name = "title", .label = "Title",
              .flags = FW_FIELD_REQUIRED, .max_length = 200, .doc = "The label shown with the value." },
            { .struct_size = sizeof(fw_field), .type = FW_FIELD_STRING, .name = "value", .label = "Value",
              .max_length = 200, .doc = "What the user typed." },
        };

        static char *copy(const char *s) {
            if (!s) return NULL;
            size_t n = strlen(s) + 1;
            char *p = malloc(n);
            if (p) memcpy(p, s, n);
            return p;
        }

        /* Called by the host on its thread; the cell is the pack's until destroy. */
        static void *\(symbol)_create(const fw_cell_type *type, const fw_host *host) {
            (void)type;
            (void)host;
            return calloc(1, sizeof(\(symbol)_cell));
        }

        static void \(symbol)_destroy(void *p) {
            \(symbol)_cell *cell = p;
            free(cell->title);
            free(cell->value);
            free(cell);
        }

        /* The values are the host's for the call only: copy what you keep. An absent value has type 0. */
        static fw_status \(symbol)_configure(void *p, const fw_value *values, uint32_t count) {
            \(symbol)_cell *cell = p;
            if (count != 2) return FW_INVALID_ARGUMENT;
            char *title = copy(values[0].type ? values[0].as.string : "\(name)");
            char *value = values[1].type ? copy(values[1].as.string) : NULL;
            if (!title || (values[1].type && !value)) {
                free(title);
                free(value);
                return FW_ERROR;
            }
            free(cell->title);
            free(cell->value);
            cell->title = title;
            cell->value = value;
            return FW_OK;
        }

        static fw_status \(symbol)_render(void *p, const fw_canvas *canvas, void *ctx) {
            \(symbol)_cell *cell = p;
            canvas->text_input(ctx, "value", cell->title, cell->value, NULL, 0);
            return FW_OK;
        }

        /* Refuse a value with a reason the host shows under the field (the reason must outlive the call). */
        static fw_status \(symbol)_value_changed(void *p, const char *field, const fw_value *value, const char **message) {
            \(symbol)_cell *cell = p;
            if (strcmp(field, "value") != 0 || value->type != FW_FIELD_STRING || !value->as.string) return FW_OK;
            if (strchr(value->as.string, '<')) {
                strcpy(cell->reason, "'<' is not allowed here");
                *message = cell->reason;
                return FW_REJECTED;
            }
            return FW_OK;
        }

        static const fw_cell_type cell_types[] = { {
            .struct_size = sizeof(fw_cell_type),
            .id = "\(id)",
            .name = "\(name)",
            .summary = "A text field with a title (written by formwork new-pack).",
            .fields = fields,
            .field_count = 2,
            .text_input_kind = FW_TEXT_INPUT_TEXT_FIELD,
            .text_input_field = "value",
            .create = \(symbol)_create,
            .destroy = \(symbol)_destroy,
            .configure = \(symbol)_configure,
            .render = \(symbol)_render,
            .value_changed = \(symbol)_value_changed,
        } };

        static const fw_pack pack = {
            .abi = FW_ABI_VERSION_INIT,
            .struct_size = sizeof(fw_pack),
            .id = "\(id)",
            .name = "\(name)",
            .version = "0.1.0",
            .vendor = "",
            .license = "",
            .cell_types = cell_types,
            .cell_type_count = 1,
        };

        FW_EXPORT const fw_pack *formwork_pack_v1(void) { return &pack; }

        """
    }

    /// The C pack's cell in C++17: descriptors filled in a function called once (C++17 has no designated
    /// initialisers), the cell a class, its strings `std::string`.
    static func cpp(name: String, id: String) -> String {
        """
        // The \(name) pack: one cell type, \(id), a text field with a title, in C++17.
        // Start here: add model fields in `build`, read them in `configure`, draw them in `render`, and check what the
        // user types in `value_changed`. The header documents every function, with who calls it and what it may keep
        // (formwork.h); `make check` tells you what the host thinks of the result. No exception may leave a callback:
        // each one catches what it could throw.
        #include "formwork.h"

        #include <array>
        #include <cstring>
        #include <new>
        #include <string>

        namespace {

        struct Cell {
            std::string title;
            std::string value;
            bool has_value = false;
            std::string reason;
        };

        std::array<fw_field, 2> fields;
        fw_cell_type cell_type;
        fw_pack pack;

        // Called by the host on its thread; the cell is the pack's until destroy.
        void *create(const fw_cell_type *, const fw_host *) { return new (std::nothrow) Cell(); }
        void destroy(void *cell) { delete static_cast<Cell *>(cell); }

        // The values are the host's for the call only: copy what you keep. An absent value has type 0.
        fw_status configure(void *p, const fw_value *values, uint32_t count) {
            if (count != fields.size()) return FW_INVALID_ARGUMENT;
            auto *cell = static_cast<Cell *>(p);
            try {
                cell->title = values[0].type == FW_FIELD_STRING && values[0].as.string ? values[0].as.string : "\(name)";
                cell->has_value = values[1].type == FW_FIELD_STRING && values[1].as.string;
                cell->value = cell->has_value ? values[1].as.string : "";
            } catch (...) {
                return FW_OUT_OF_MEMORY;
            }
            return FW_OK;
        }

        fw_status render(void *p, const fw_canvas *canvas, void *ctx) {
            const auto *cell = static_cast<const Cell *>(p);
            canvas->text_input(ctx, "value", cell->title.c_str(), cell->has_value ? cell->value.c_str() : nullptr, nullptr, 0u);
            return FW_OK;
        }

        // Refuse a value with a reason the host shows under the field (the reason must outlive the call: the cell keeps it).
        fw_status value_changed(void *p, const char *field, const fw_value *value, const char **message) {
            if (std::strcmp(field, "value") != 0 || value->type != FW_FIELD_STRING || !value->as.string) return FW_OK;
            if (std::strchr(value->as.string, '<')) {
                auto *cell = static_cast<Cell *>(p);
                try {
                    cell->reason = "'<' is not allowed here";
                } catch (...) {
                    return FW_OUT_OF_MEMORY;
                }
                *message = cell->reason.c_str();
                return FW_REJECTED;
            }
            return FW_OK;
        }

        fw_field field(const char *name, const char *label, const char *doc) {
            fw_field f = fw_field();
            f.struct_size = sizeof(fw_field);
            f.type = FW_FIELD_STRING;
            f.name = name;
            f.label = label;
            f.max_length = 200;
            f.doc = doc;
            return f;
        }

        void build() {
            fields[0] = field("title", "Title", "The label shown with the value.");
            fields[0].flags = fw::flags::field_required;
            fields[1] = field("value", "Value", "What the user typed.");

            cell_type = fw_cell_type();
            cell_type.struct_size = sizeof(fw_cell_type);
            cell_type.id = "\(id)";
            cell_type.name = "\(name)";
            cell_type.summary = "A text field with a title (written by formwork new-pack).";
            cell_type.fields = fields.data();
            cell_type.field_count = static_cast<uint32_t>(fields.size());
            cell_type.text_input_kind = FW_TEXT_INPUT_TEXT_FIELD;
            cell_type.text_input_field = "value";
            cell_type.create = create;
            cell_type.destroy = destroy;
            cell_type.configure = configure;
            cell_type.render = render;
            cell_type.value_changed = value_changed;

            pack = fw_pack();
            pack.abi = FW_ABI_VERSION_INIT;
            pack.struct_size = sizeof(fw_pack);
            pack.id = "\(id)";
            pack.name = "\(name)";
            pack.version = "0.1.0";
            pack.vendor = "";
            pack.license = "";
            pack.cell_types = &cell_type;
            pack.cell_type_count = 1;
        }

        }  // namespace

        // Declared in formwork.h inside extern "C": C linkage, exported by FW_EXPORT there.
        const fw_pack *formwork_pack_v1(void) {
            static const bool built = (build(), true);
            (void)built;
            return &pack;
        }

        """
    }

    static let exports = """
        /* Export the entry and nothing else. */
        {
            global: formwork_pack_v1;
            local: *;
        };

        """

    static func makefile(name: String) -> String {
        """
        # Builds the \(name) pack against formwork.h: FORMWORK_INCLUDE when set, else pkg-config (an installed Formwork).
        FORMWORK ?= formwork
        FORMWORK_INCLUDE ?= $(shell pkg-config --variable=includedir formwork 2>/dev/null)
        CC ?= cc
        CFLAGS ?= -std=c99 -O2 -Wall -Wextra -Werror
        PACK_CFLAGS = -shared -fPIC -fvisibility=hidden -I$(FORMWORK_INCLUDE)
        LDFLAGS ?= -Wl,--version-script=exports.map

        all: lib\(name).so

        lib\(name).so: \(name).c exports.map
        \t@test -f "$(FORMWORK_INCLUDE)/formwork.h" || { echo "formwork.h not found: install Formwork (pkg-config formwork) or set FORMWORK_INCLUDE"; exit 1; }
        \t$(CC) $(CFLAGS) $(PACK_CFLAGS) \(name).c $(LDFLAGS) -o $@

        # Conformance (every entry of every cell type), then the pack's form rendered with it.
        check: lib\(name).so
        \t$(FORMWORK) check ./lib\(name).so
        \t$(FORMWORK) render form.yaml --pack-path .

        clean:
        \trm -f lib\(name).so

        .PHONY: all check clean

        """
    }

    static func makefileCpp(name: String) -> String {
        """
        # Builds the \(name) pack against formwork.h: FORMWORK_INCLUDE when set, else pkg-config (an installed Formwork).
        FORMWORK ?= formwork
        FORMWORK_INCLUDE ?= $(shell pkg-config --variable=includedir formwork 2>/dev/null)
        CXX ?= c++
        CXXFLAGS ?= -std=c++17 -O2 -pedantic -Wall -Wextra -Werror
        PACK_FLAGS = -shared -fPIC -fvisibility=hidden -fvisibility-inlines-hidden -I$(FORMWORK_INCLUDE)
        # The version script hides the weak STL symbols -fvisibility=hidden leaves exported; the C++ runtime is linked in,
        # so the pack does not depend on the host's libstdc++.
        LDFLAGS ?= -Wl,--version-script=exports.map -static-libstdc++ -static-libgcc

        all: lib\(name).so

        lib\(name).so: \(name).cpp exports.map
        \t@test -f "$(FORMWORK_INCLUDE)/formwork.h" || { echo "formwork.h not found: install Formwork (pkg-config formwork) or set FORMWORK_INCLUDE"; exit 1; }
        \t$(CXX) $(CXXFLAGS) $(PACK_FLAGS) \(name).cpp $(LDFLAGS) -o $@

        # Conformance (every entry of every cell type), then the pack's form rendered with it.
        check: lib\(name).so
        \t$(FORMWORK) check ./lib\(name).so
        \t$(FORMWORK) render form.yaml --pack-path .

        clean:
        \trm -f lib\(name).so

        .PHONY: all check clean

        """
    }

    /// A SwiftPM package: the pack is a dynamic library product, FormworkPluginKit a dependency by version (this
    /// formwork's), and the version script keeps every symbol but the entry local.
    static func swiftPackage(name: String, url: String, identity: String) -> String {
        """
        // swift-tools-version:6.0
        // The \(name) pack: `swift build` writes .build/debug/lib\(name).so; `make check` checks and renders it.
        import PackageDescription

        let package = Package(
            name: "\(name)",
            products: [.library(name: "\(name)", type: .dynamic, targets: ["\(name)"])],
            dependencies: [.package(url: "\(url)", from: "\(FormworkVersion.string)")],
            targets: [
                .target(
                    name: "\(name)",
                    dependencies: [.product(name: "FormworkPluginKit", package: "\(identity)")],
                    // Export the entry and nothing else: the host sees formwork_pack_v1, not the Swift runtime's symbols.
                    linkerSettings: [.unsafeFlags(["-Xlinker", "--version-script=\\(Context.packageDirectory)/exports.map"])]
                )
            ]
        )

        """
    }

    /// The C pack's cell written with FormworkPluginKit: Swift types, never C structs.
    static func swift(name: String, id: String) -> String {
        let type = name.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined() + "Cell"
        return """
            // The \(name) pack: one cell type, \(id), a text field with a title.
            // Start here: add model fields to `Model.fields`, read them in `Model.init`, draw them in `render`, and check
            // what the user types in `valueChanged`. FormworkPluginKit turns this into the C ABI (formwork.h); `make check`
            // tells you what the host thinks of the result.
            import FormworkPluginKit

            final class \(type): ValueObservingCell {
                struct Model: CellModel {
                    static let fields: [Field] = [
                        .string("title", label: "Title", doc: "The label shown with the value.", required: true, maxLength: 200),
                        .string("value", label: "Value", doc: "What the user typed.", maxLength: 200),
                    ]
                    var title: String
                    var value: String?
                    init(_ values: ModelValues) {
                        title = values.string("title") ?? "\(name)"
                        value = values.string("value")
                    }
                }

                static let identifier = "\(id)"
                static let displayName = "\(name)"
                static let summary: String? = "A text field with a title (written by formwork new-pack)."
                static let textInput = TextInput.textField("value")

                private var model = Model(ModelValues([:]))
                init() {}
                func configure(model: Model) throws { self.model = model }
                func render(into canvas: Canvas) {
                    canvas.textInput(field: "value", label: model.title, text: model.value, placeholder: nil)
                }
                // A refusal's reason is shown under the field.
                func valueChanged(field: String, to value: ModelValue?) -> ValueChange {
                    if field == "value", case .string(let text)? = value, text.contains("<") {
                        return .reject("'<' is not allowed here")
                    }
                    return .accept
                }
            }

            let pack = CellPack(id: "\(id)", name: "\(name)", version: "0.1.0", cells: [\(type).self])

            @_cdecl("formwork_pack_v1")
            public func formworkPackV1() -> UnsafeRawPointer { pack.entry }

            """
    }

    /// A Rust pack without crates: Cargo.toml, the cell in src/lib.rs, the ABI's declarations in src/ffi.rs.
    static func cargo(name: String) -> String {
        """
        [package]
        name = "\(name)"
        version = "0.1.0"
        edition = "2021"
        description = "A Formwork cell pack (written by formwork new-pack). No crates."
        publish = false

        [lib]
        # lib\(name.replacing("-", with: "_")).so; only `formwork_pack_v1` is exported (#[no_mangle] in src/lib.rs).
        name = "\(name.replacing("-", with: "_"))"
        crate-type = ["cdylib"]
        path = "src/lib.rs"

        [dependencies]

        # A panic must never unwind into the host.
        [profile.release]
        panic = "abort"

        [profile.dev]
        panic = "abort"

        """
    }

    static func rust(name: String, id: String) -> String {
        #"""
        //! The \#(name) pack: one cell type, \#(id), a text field with a title.
        //! Start here: add model fields to `FIELDS`, read them in `configure`, draw them in `render`, and check what
        //! the user types in `value_changed`. src/ffi.rs declares the parts of formwork.h (ABI 1.0) used here, with
        //! their layouts pinned; the header documents every function, with who calls it and what it may keep.
        //! `make check` tells you what the host thinks of the result.

        mod ffi;

        use ffi::*;
        use std::ffi::CStr;
        use std::os::raw::{c_char, c_void};

        struct Cell {
            title: Vec<u8>,        // NUL-terminated, as the canvas takes it
            value: Option<Vec<u8>>,
            reason: Vec<u8>,
        }

        const FIELD: u32 = std::mem::size_of::<FwField>() as u32;

        static FIELDS: Static<[FwField; 2]> = Static([
            FwField {
                struct_size: FIELD, type_: FW_FIELD_STRING, name: cstr!("title"), label: cstr!("Title"),
                doc: cstr!("The label shown with the value."), flags: FW_FIELD_REQUIRED, choice_count: 0,
                choices: std::ptr::null(), default_value: FwValue::NONE, minimum: 0.0, maximum: 0.0,
                min_length: 0, max_length: 200, options_field: std::ptr::null(),
            },
            FwField {
                struct_size: FIELD, type_: FW_FIELD_STRING, name: cstr!("value"), label: cstr!("Value"),
                doc: cstr!("What the user typed."), flags: 0, choice_count: 0,
                choices: std::ptr::null(), default_value: FwValue::NONE, minimum: 0.0, maximum: 0.0,
                min_length: 0, max_length: 200, options_field: std::ptr::null(),
            },
        ]);

        /// A copy of a host string, NUL-terminated (the host's strings are its own for the call only).
        unsafe fn copy(p: *const c_char) -> Option<Vec<u8>> {
            if p.is_null() { None } else { Some(CStr::from_ptr(p).to_bytes_with_nul().to_vec()) }
        }

        // Called by the host on its thread; the cell is the pack's until destroy.
        unsafe extern "C" fn create(_type: *const FwCellType, _host: *const FwHost) -> *mut c_void {
            let cell = Cell { title: b"\#(name)\0".to_vec(), value: None, reason: Vec::new() };
            Box::into_raw(Box::new(cell)) as *mut c_void
        }

        unsafe extern "C" fn destroy(cell: *mut c_void) {
            if !cell.is_null() {
                drop(Box::from_raw(cell as *mut Cell));
            }
        }

        // The values in schema order; an absent value has type FW_FIELD_NONE.
        unsafe extern "C" fn configure(cell: *mut c_void, values: *const FwValue, count: u32) -> FwStatus {
            if cell.is_null() || values.is_null() || count != 2 {
                return FW_INVALID_ARGUMENT;
            }
            let v = std::slice::from_raw_parts(values, 2);
            let cell = &mut *(cell as *mut Cell);
            cell.title = if v[0].type_ == FW_FIELD_STRING { copy(v[0].as_.string) } else { None }
                .unwrap_or_else(|| b"\#(name)\0".to_vec());
            cell.value = if v[1].type_ == FW_FIELD_STRING { copy(v[1].as_.string) } else { None };
            FW_OK
        }

        unsafe extern "C" fn render(cell: *mut c_void, canvas: *const FwCanvas, ctx: *mut c_void) -> FwStatus {
            let cell = &*(cell as *const Cell);
            if let Some(text_input) = (*canvas).text_input {
                let value = cell.value.as_ref().map_or(std::ptr::null(), |v| v.as_ptr() as *const c_char);
                text_input(ctx, cstr!("value"), cell.title.as_ptr() as *const c_char, value, std::ptr::null(), 0);
            }
            FW_OK
        }

        // Refuse a value with a reason the host shows under the field (the reason must outlive the call: the cell
        // keeps it).
        unsafe extern "C" fn value_changed(cell: *mut c_void, field: *const c_char, value: *const FwValue,
                                           message: *mut *const c_char) -> FwStatus {
            let cell = &mut *(cell as *mut Cell);
            if field.is_null() || CStr::from_ptr(field).to_bytes() != b"value" || value.is_null()
                || (*value).type_ != FW_FIELD_STRING || (*value).as_.string.is_null() {
                return FW_OK;
            }
            if CStr::from_ptr((*value).as_.string).to_bytes().contains(&b'<') {
                cell.reason = b"'<' is not allowed here\0".to_vec();
                *message = cell.reason.as_ptr() as *const c_char;
                return FW_REJECTED;
            }
            FW_OK
        }

        static CELLS: Static<[FwCellType; 1]> = Static([FwCellType {
            struct_size: std::mem::size_of::<FwCellType>() as u32,
            flags: 0,
            id: cstr!("\#(id)"),
            name: cstr!("\#(name)"),
            summary: cstr!("A text field with a title (written by formwork new-pack)."),
            fields: &FIELDS.0 as *const [FwField; 2] as *const FwField,
            field_count: 2,
            text_input_kind: FW_TEXT_INPUT_TEXT_FIELD,
            text_input_field: cstr!("value"),
            text_traits: std::ptr::null(),
            create: Some(create),
            destroy: Some(destroy),
            configure: Some(configure),
            render: Some(render),
            did_set_selected: None,
            did_set_highlighted: None,
            value_changed: Some(value_changed),
            typed_convention: 0,
            model_alignment: 0,
            model_size: 0,
            typed_configure: None,
        }]);

        static PACK: Static<FwPack> = Static(FwPack {
            abi: FwVersion { major: 1, minor: 0, patch: 0 },
            struct_size: std::mem::size_of::<FwPack>() as u32,
            id: cstr!("\#(id)"),
            name: cstr!("\#(name)"),
            version: cstr!("0.1.0"),
            vendor: cstr!(""),
            license: cstr!(""),
            description: cstr!("Written by formwork new-pack."),
            init: None,
            deinit: None,
            cell_types: &CELLS.0 as *const [FwCellType; 1] as *const FwCellType,
            cell_type_count: 1,
            reserved: 0,
        });

        /// The one exported entry.
        #[no_mangle]
        pub extern "C" fn formwork_pack_v1() -> *const FwPack {
            &PACK.0
        }

        """#
    }

    /// The parts of formwork.h a Rust pack uses, with their layouts pinned; Examples/Packs/tip-rust/src/ffi.rs is
    /// this text (a test keeps them equal).
    static let rustFFI = #"""
        //! The parts of `formwork.h` (ABI 1.0) this pack uses, written by hand.
        //! Layouts must match the header exactly; `formwork check` verifies them.
        #![allow(dead_code)]

        use std::os::raw::{c_char, c_void};

        pub type FwStatus = i32;
        pub const FW_OK: FwStatus = 0;
        pub const FW_INVALID_ARGUMENT: FwStatus = 2;
        pub const FW_REJECTED: FwStatus = 4;

        pub const FW_FIELD_NONE: u32 = 0;
        pub const FW_FIELD_STRING: u32 = 1;
        pub const FW_FIELD_BOOL: u32 = 3;
        pub const FW_FIELD_INTEGER: u32 = 4;
        pub const FW_FIELD_NUMBER: u32 = 5;

        pub const FW_FIELD_REQUIRED: u32 = 1 << 0;
        pub const FW_FIELD_HAS_MINIMUM: u32 = 1 << 1;
        pub const FW_FIELD_HAS_MAXIMUM: u32 = 1 << 2;

        pub const FW_CELL_TYPED_CONFIGURE: u32 = 1 << 2;
        pub const FW_TYPED_BY_POINTER: u32 = 2;
        pub const FW_TEXT_INPUT_NONE: u32 = 0;
        pub const FW_TEXT_INPUT_TEXT_FIELD: u32 = 1;
        pub const FW_LABEL_BODY: u32 = 0;
        pub const FW_MESSAGE_HINT: u32 = 0;

        #[repr(C)]
        #[derive(Clone, Copy)]
        pub struct FwVersion {
            pub major: u32,
            pub minor: u32,
            pub patch: u32,
        }

        #[repr(C)]
        #[derive(Clone, Copy)]
        pub struct FwStringList {
            pub items: *const *const c_char,
            pub count: usize,
        }

        #[repr(C)]
        #[derive(Clone, Copy)]
        pub union FwValueAs {
            pub string: *const c_char,
            pub boolean: bool,
            pub integer: i64,
            pub number: f64,
            pub list: FwStringList,
        }

        #[repr(C)]
        #[derive(Clone, Copy)]
        pub struct FwValue {
            pub type_: u32,
            pub reserved: u32,
            pub as_: FwValueAs,
        }

        impl FwValue {
            pub const NONE: FwValue = FwValue { type_: FW_FIELD_NONE, reserved: 0, as_: FwValueAs { integer: 0 } };
            pub const fn integer(v: i64) -> FwValue {
                FwValue { type_: FW_FIELD_INTEGER, reserved: 0, as_: FwValueAs { integer: v } }
            }
            pub const fn number(v: f64) -> FwValue {
                FwValue { type_: FW_FIELD_NUMBER, reserved: 0, as_: FwValueAs { number: v } }
            }
            pub const fn boolean(v: bool) -> FwValue {
                FwValue { type_: FW_FIELD_BOOL, reserved: 0, as_: FwValueAs { boolean: v } }
            }
        }

        #[repr(C)]
        pub struct FwChoice {
            pub struct_size: u32,
            pub reserved: u32,
            pub value: *const c_char,
            pub label: *const c_char,
        }

        #[repr(C)]
        pub struct FwField {
            pub struct_size: u32,
            pub type_: u32,
            pub name: *const c_char,
            pub label: *const c_char,
            pub doc: *const c_char,
            pub flags: u32,
            pub choice_count: u32,
            pub choices: *const FwChoice,
            pub default_value: FwValue,
            pub minimum: f64,
            pub maximum: f64,
            pub min_length: u32,
            pub max_length: u32,
            pub options_field: *const c_char,
        }

        #[repr(C)]
        pub struct FwHost {
            pub abi: FwVersion,
            pub struct_size: u32,
            pub name: *const c_char,
            pub version: *const c_char,
            pub host_data: *mut c_void,
            pub log: Option<unsafe extern "C" fn(*const FwHost, u32, *const c_char)>,
            pub get_extension: Option<unsafe extern "C" fn(*const FwHost, *const c_char) -> *const c_void>,
        }

        #[repr(C)]
        pub struct FwCanvas {
            pub struct_size: u32,
            pub reserved: u32,
            pub begin_group: Option<unsafe extern "C" fn(*mut c_void, *const c_char, *const c_char)>,
            pub end_group: Option<unsafe extern "C" fn(*mut c_void)>,
            pub label: Option<unsafe extern "C" fn(*mut c_void, *const c_char, u32)>,
            pub value: Option<unsafe extern "C" fn(*mut c_void, *const c_char, *const c_char)>,
            pub text_input: Option<unsafe extern "C" fn(*mut c_void, *const c_char, *const c_char, *const c_char, *const c_char, u32)>,
            pub toggle: Option<unsafe extern "C" fn(*mut c_void, *const c_char, *const c_char, bool, u32)>,
            pub button: Option<unsafe extern "C" fn(*mut c_void, *const c_char, *const c_char, u32, u32)>,
            pub choice: Option<unsafe extern "C" fn(*mut c_void, *const c_char, *const c_char, *const FwChoice, u32, *const c_char, u32, u32)>,
            pub date: Option<unsafe extern "C" fn(*mut c_void, *const c_char, *const c_char, bool, f64, u32, u32)>,
            pub message: Option<unsafe extern "C" fn(*mut c_void, u32, *const c_char)>,
        }

        pub type TypedConfigure = unsafe extern "C" fn();

        #[repr(C)]
        pub struct FwCellType {
            pub struct_size: u32,
            pub flags: u32,
            pub id: *const c_char,
            pub name: *const c_char,
            pub summary: *const c_char,
            pub fields: *const FwField,
            pub field_count: u32,
            pub text_input_kind: u32,
            pub text_input_field: *const c_char,
            pub text_traits: *const c_void,
            pub create: Option<unsafe extern "C" fn(*const FwCellType, *const FwHost) -> *mut c_void>,
            pub destroy: Option<unsafe extern "C" fn(*mut c_void)>,
            pub configure: Option<unsafe extern "C" fn(*mut c_void, *const FwValue, u32) -> FwStatus>,
            pub render: Option<unsafe extern "C" fn(*mut c_void, *const FwCanvas, *mut c_void) -> FwStatus>,
            pub did_set_selected: Option<unsafe extern "C" fn(*mut c_void, bool)>,
            pub did_set_highlighted: Option<unsafe extern "C" fn(*mut c_void, bool)>,
            pub value_changed: Option<unsafe extern "C" fn(*mut c_void, *const c_char, *const FwValue, *mut *const c_char) -> FwStatus>,
            pub typed_convention: u32,
            pub model_alignment: u32,
            pub model_size: u64,
            pub typed_configure: Option<TypedConfigure>,
        }

        #[repr(C)]
        pub struct FwPack {
            pub abi: FwVersion,
            pub struct_size: u32,
            pub id: *const c_char,
            pub name: *const c_char,
            pub version: *const c_char,
            pub vendor: *const c_char,
            pub license: *const c_char,
            pub description: *const c_char,
            pub init: Option<unsafe extern "C" fn(*const FwHost) -> FwStatus>,
            pub deinit: Option<unsafe extern "C" fn()>,
            pub cell_types: *const FwCellType,
            pub cell_type_count: u32,
            pub reserved: u32,
        }

        /// Statics holding raw pointers: they point only to other statics.
        #[repr(transparent)]
        pub struct Static<T>(pub T);
        unsafe impl<T> Sync for Static<T> {}

        /// A NUL-terminated literal.
        #[macro_export]
        macro_rules! cstr {
            ($s:expr) => {
                concat!($s, "\0").as_ptr() as *const std::os::raw::c_char
            };
        }

        // Layout pins, as in formwork.h (LP64).
        const _: () = assert!(std::mem::size_of::<FwValue>() == 24);
        const _: () = assert!(std::mem::size_of::<FwChoice>() == 24);
        const _: () = assert!(std::mem::size_of::<FwField>() == 104);
        const _: () = assert!(std::mem::size_of::<FwHost>() == 56);
        const _: () = assert!(std::mem::size_of::<FwCanvas>() == 88);
        const _: () = assert!(std::mem::size_of::<FwCellType>() == 144);
        const _: () = assert!(std::mem::size_of::<FwPack>() == 96);

        """#

    static func makefileRust(name: String) -> String {
        """
        # Builds the \(name) pack with cargo (no crates: the ABI's declarations are in src/ffi.rs).
        FORMWORK ?= formwork
        PROFILE ?= release
        LIB = target/$(PROFILE)/lib\(name.replacing("-", with: "_")).so

        all:
        \tcargo build --offline $(if $(filter release,$(PROFILE)),--release,)

        # Conformance (every entry of every cell type), then the pack's form rendered with it.
        check: all
        \t$(FORMWORK) check ./$(LIB)
        \t$(FORMWORK) render form.yaml --pack-path ./target/$(PROFILE)

        clean:
        \tcargo clean

        .PHONY: all check clean

        """
    }

    static func readmeRust(name: String, id: String) -> String {
        """
        # \(name)

        A Formwork cell pack in Rust, without crates, with one cell type, `\(id)`.

        - `make` (or `cargo build --release`) builds `target/release/lib\(name.replacing("-", with: "_")).so`.
        - `make check` runs `formwork check` on it and renders `form.yaml` with it.
        - `src/ffi.rs` declares the parts of `formwork.h` (ABI 1.0) the pack uses; their sizes are pinned at compile time.
        - Install it: copy the `.so` into `$(pkg-config --variable=packsdir formwork)` or `~/.local/share/formwork/packs`,
          then `formwork list`.

        """
    }

    static func makefileSwift(name: String) -> String {
        """
        # Builds the \(name) pack with SwiftPM (FormworkPluginKit is fetched by version, see Package.swift).
        FORMWORK ?= formwork
        CONFIGURATION ?= debug

        all:
        \tswift build -c $(CONFIGURATION)

        # Conformance (every entry of every cell type), then the pack's form rendered with it.
        check: all
        \t$(FORMWORK) check ./.build/$(CONFIGURATION)/lib\(name).so
        \t$(FORMWORK) render form.yaml --pack-path ./.build/$(CONFIGURATION)

        clean:
        \trm -rf .build

        .PHONY: all check clean

        """
    }

    static func readmeSwift(name: String, id: String) -> String {
        """
        # \(name)

        A Formwork cell pack in Swift with one cell type, `\(id)`, written with FormworkPluginKit.

        - `make` (or `swift build`) builds `.build/debug/lib\(name).so`; `make CONFIGURATION=release` a release build.
        - `make check` runs `formwork check` on it and renders `form.yaml` with it.
        - Install it: copy `.build/release/lib\(name).so` into `$(pkg-config --variable=packsdir formwork)` or
          `~/.local/share/formwork/packs`, then `formwork list`. It needs the Swift runtime it was built with
          (`swift build -c release -Xswiftc -static-stdlib` carries its own).

        """
    }

    static func form(name: String, id: String) -> String {
        """
        # A form that uses the \(name) pack's cell: formwork render form.yaml --pack-path .
        formwork: 1
        id: \(name)-example
        title: The \(name) pack
        sections:
          - id: main
            fields:
              - id: answer
                cell: \(id)
                required: true
                model: { title: Your answer }

        """
    }

    static func readme(name: String, id: String) -> String {
        """
        # \(name)

        A Formwork cell pack with one cell type, `\(id)`.

        - `make` builds `lib\(name).so` against `formwork.h` (pkg-config `formwork`, or `make FORMWORK_INCLUDE=…`).
        - `make check` runs `formwork check` on it and renders `form.yaml` with it.
        - Install it: copy `lib\(name).so` into `$(pkg-config --variable=packsdir formwork)` or
          `~/.local/share/formwork/packs`, then `formwork list`.

        """
    }
}
