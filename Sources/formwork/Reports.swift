import FormworkCore
import FormworkHost

/// The `list` and `inspect` outputs: JSON (a stable contract, see docs/cli.md) and text tables.
enum Reports {
    // MARK: JSON

    /// `formwork list --json`.
    static func listJSON(_ registry: Registry) -> JSON {
        let winners = shadowWinners(registry)
        return .object([
            (
                "packs",
                .array(
                    registry.packs.map { pack in
                        .object([
                            ("path", .string(pack.path)), ("id", .string(pack.id)), ("name", .string(pack.name)),
                            ("version", .string(pack.version)), ("abi", .string(pack.abi.description)),
                            ("vendor", .optional(pack.vendor)), ("license", .optional(pack.license)),
                            ("choiceSources", pack.choiceSources.isEmpty ? nil : .array(pack.choiceSources.map(JSON.string))),
                            (
                                "cells",
                                .array(
                                    pack.cellTypes.map { cell in
                                        var members: [(String, JSON)] = [
                                            ("id", .string(cell.id)), ("name", .string(cell.name)),
                                            ("textInput", .string(cell.textInput.kind.rawValue)),
                                            ("configure", .string(cell.configure.name)),
                                            ("roles", .object(cell.roles.named.map { ($0.role, .string($0.field)) })),
                                            (
                                                "fields",
                                                .array(
                                                    cell.fields.map { field in
                                                        .object([
                                                            ("name", .string(field.name)), ("type", .string(field.type.rawValue)),
                                                            ("required", .bool(field.required)),
                                                        ])
                                                    })
                                            ),
                                        ]
                                        if let winner = winners[pack.path]?[cell.id] { members.append(("shadowedBy", .string(winner))) }
                                        return .object(members)
                                    })
                            ),
                        ])
                    })
            ),
            (
                "errors",
                .array(
                    registry.failures.map {
                        let quarantined = if case .quarantined = $0.reason { true } else { false }
                        return .object([("path", .string($0.path)), ("message", .string($0.message)), ("quarantined", .bool(quarantined))])
                    })
            ),
            (
                "shadowed",
                .array(
                    registry.shadowed.map {
                        .object([("id", .string($0.id)), ("path", .string($0.path)), ("winner", .string($0.winner))])
                    })
            ),
        ])
    }

    /// `formwork inspect CELL-ID --json`.
    static func inspectJSON(_ cell: CellType) -> JSON {
        var configure: [(String, JSON)] = [("style", .string(cell.configure.name))]
        if case .typed(let convention, let size, let alignment) = cell.configure {
            configure += [
                ("convention", .string(convention.rawValue)), ("modelSize", .integer(Int64(size))),
                ("modelAlignment", .integer(Int64(alignment))),
            ]
            configure.append(("offsets", .object(zip(cell.fields, cell.modelOffsets).map { ($0.name, .integer(Int64($1))) })))
        }
        return .object([
            ("id", .string(cell.id)), ("name", .string(cell.name)), ("summary", .optional(cell.summary)),
            (
                "pack",
                .object([("id", .string(cell.packID)), ("path", .string(cell.packPath)), ("abi", .string(cell.packABI.description))])
            ),
            ("fields", .array(cell.fields.map(fieldJSON))),
            (
                "textInput",
                .object([
                    ("kind", .string(cell.textInput.kind.rawValue)), ("field", .optional(cell.textInput.field)),
                    ("traits", TraitKey.json(cell.textInput.traits)),
                ])
            ),
            ("capabilities", .array(cell.capabilities.names.map(JSON.string))),
            ("configure", .object(configure)),
            ("roles", .object(cell.roles.named.map { ($0.role, .string($0.field)) })),
        ])
    }

    static func fieldJSON(_ field: FieldSchema) -> JSON {
        .object([
            ("name", .string(field.name)), ("type", .string(field.type.rawValue)), ("required", .bool(field.required)),
            ("label", .string(field.label)),
            ("doc", field.doc.map(JSON.string)),
            ("default", field.defaultValue.map { $0.json(as: field.type) }),
            ("minimum", field.minimum.map(field.boundJSON)),
            ("maximum", field.maximum.map(field.boundJSON)),
            ("exclusiveMinimum", field.exclusiveMinimum ? .bool(true) : nil),
            ("exclusiveMaximum", field.exclusiveMaximum ? .bool(true) : nil),
            ("step", field.step.map(field.boundJSON)),
            ("minLength", field.minLength.map { .integer(Int64($0)) }),
            ("maxLength", field.maxLength.map { .integer(Int64($0)) }),
            (
                "choices",
                field.choices.isEmpty
                    ? nil
                    : .array(
                        field.choices.map {
                            .object([("value", .string($0.value)), ("label", .string($0.label))])
                        })
            ),
            ("options", field.optionsField.map(JSON.string)),
        ])
    }

    // MARK: text

    /// `formwork list`: packs, their cells as an aligned table, then problems.
    static func listText(_ registry: Registry) -> String {
        // Written as bytes: `String` appends were most of a listing's cost, more than reading the descriptors.
        let out = ByteBuffer(capacity: registry.packs.count * 256 + registry.failures.count * 128 + 256)
        if registry.packs.isEmpty {
            out.append("No packs found. Searched: \(registry.locations.map(\.path).joined(separator: ", "))\n")
        }
        let winners = shadowWinners(registry)
        // Each pack's block (its table's columns are its own) is made on the cores, in runs of 32 packs.
        let packs = registry.packs
        let runs = (packs.count + 31) / 32
        let blocks = Parallel.map(runs, worthIt: runs >= 2) { run -> ByteBuffer in
            let out = ByteBuffer(capacity: 32 * 300)
            for pack in packs[(run * 32)..<min(packs.count, run * 32 + 32)] {
                out.append(pack.name)
                out.append(" — ")
                out.append(pack.id)
                out.byte(0x20)
                out.append(pack.version)
                out.append(" (ABI ")
                out.append(pack.abi.description)
                out.append(")\n  ")
                out.append(pack.path)
                out.byte(0x0A)
                if !pack.choiceSources.isEmpty {
                    out.append("  choices: ")
                    out.append(pack.choiceSources.joined(separator: ", "))
                    out.byte(0x0A)
                }
                let shadowedHere = winners[pack.path]
                let rows = pack.cellTypes.map { cell -> [String] in
                    let note = shadowedHere?[cell.id].map { "shadowed by \($0)" } ?? ""
                    return [cell.id, cell.name, cell.textInput.kind.rawValue, cell.configure.name, String(cell.fields.count), note]
                }
                table(header: listHeader, rows: rows, indent: "  ", into: out)
                out.byte(0x0A)
            }
            return out
        }
        for block in blocks { out.append(block) }
        if !registry.failures.isEmpty {
            out.append("Problems:\n")
            for failure in registry.failures {
                out.append("  ")
                out.append(failure.description)
                out.byte(0x0A)
            }
        }
        return out.string
    }

    private static let listHeader = ["CELL", "NAME", "TEXT INPUT", "CONFIGURE", "FIELDS", ""]

    /// Pack path → cell id → the path of the pack whose cell type of that id wins (one look-up per cell).
    static func shadowWinners(_ registry: Registry) -> [String: [String: String]] {
        var winners: [String: [String: String]] = [:]
        for s in registry.shadowed where winners[s.path]?[s.id] == nil { winners[s.path, default: [:]][s.id] = s.winner }
        return winners
    }

    /// `formwork inspect CELL-ID`.
    static func inspectText(_ cell: CellType) -> String {
        var out = "\(cell.id) — \(cell.name)\n"
        if let summary = cell.summary { out += "  \(summary)\n" }
        out += "  pack:         \(cell.packID) (ABI \(cell.packABI))\n  path:         \(cell.packPath)\n"
        out += "  configure:    \(cell.configure.name)"
        if case .typed(let convention, let size, let alignment) = cell.configure {
            out += " (\(convention.rawValue), \(size) bytes, alignment \(alignment))"
        }
        out += "\n  capabilities: \(cell.capabilities.names.isEmpty ? "none" : cell.capabilities.names.joined(separator: ", "))\n"
        out += "  text input:   \(cell.textInput.kind.rawValue)\(cell.textInput.field.map { " → \($0)" } ?? "")\n"
        let roles = cell.roles.named.map { "\($0.role) → \($0.field)" }
        out += "  roles:        \(roles.isEmpty ? "none" : roles.joined(separator: ", "))"
        out += cell.packABI.minor == 0 ? " (ABI 1.0: by name)\n" : "\n"
        if case .object(let traits) = TraitKey.json(cell.textInput.traits), !traits.isEmpty {
            out += "  traits:       " + traits.map { "\($0.0)=\($0.1.serialized(pretty: false))" }.joined(separator: ", ") + "\n"
        }
        out += "\nFields:\n"
        let rows = cell.fields.map { f -> [String] in
            var constraints: [String] = []
            if let m = f.minimum {
                constraints.append((f.exclusiveMinimum ? "above " : "min ") + f.boundJSON(m).serialized(pretty: false))
            }
            if let m = f.maximum {
                constraints.append((f.exclusiveMaximum ? "below " : "max ") + f.boundJSON(m).serialized(pretty: false))
            }
            if let s = f.step { constraints.append("step \(f.boundJSON(s).serialized(pretty: false))") }
            if let m = f.minLength { constraints.append("min length \(m)") }
            if let m = f.maxLength { constraints.append("max length \(m)") }
            if !f.choices.isEmpty { constraints.append("one of " + f.choices.map(\.value).joined(separator: "|")) }
            if let o = f.optionsField { constraints.append("one of \(o)") }
            return [
                f.name, f.type.rawValue, f.required ? "yes" : "",
                f.defaultValue.map { $0.json(as: f.type).serialized(pretty: false) } ?? "",
                constraints.joined(separator: ", "), f.doc ?? "",
            ]
        }
        out += table(header: ["NAME", "TYPE", "REQUIRED", "DEFAULT", "CONSTRAINTS", "DOC"], rows: rows, indent: "  ")
        return out
    }

    /// An aligned table; the last column is not padded.
    static func table(header: [String], rows: [[String]], indent: String) -> String {
        let out = ByteBuffer()
        table(header: header, rows: rows, indent: indent, into: out)
        return out.string
    }

    /// Appends the table to `out`: columns padded to their widest cell plus two spaces, no
    /// trailing blanks.
    static func table(header: [String], rows: [[String]], indent: String, into out: ByteBuffer) {
        // Terminal columns, not characters (CJK is two wide); padding by hand (Foundation's
        // `padding(toLength:)` was a sixth of a warm `list`).
        var widths = header.map(\.columns)
        var cellWidths: [Int] = []
        cellWidths.reserveCapacity(rows.count * header.count)
        for row in rows {
            for (i, cell) in row.enumerated() {
                let w = cell.columns
                cellWidths.append(w)
                if w > widths[i] { widths[i] = w }
            }
        }
        func append(_ row: [String], _ width: (Int) -> Int) {
            let start = out.count
            out.append(indent)
            // The last non-empty cell ends the line.
            if let last = row.lastIndex(where: { !$0.isEmpty }) {
                for i in 0...last {
                    out.append(row[i])
                    if i < last { out.append(repeating: 0x20, count: widths[i] + 2 - width(i)) }
                }
            }
            out.trimTrailing(0x20, downTo: start)
            out.byte(0x0A)
        }
        append(header) { header[$0].columns }
        for (r, row) in rows.enumerated() { append(row) { cellWidths[r * header.count + $0] } }
    }
}

/// `formwork check`'s reports: text for people, JSON for tools (docs/cli.md).
enum CheckReport {
    /// `name` cut or padded with spaces to `width` characters.
    private static func fitted(_ name: String, _ width: Int) -> String {
        name.count >= width ? String(name.prefix(width)) : name + String(repeating: " ", count: width - name.count)
    }

    static func text(_ results: [(pack: String, results: [CheckResult])]) -> String {
        var out = ""
        for (pack, checks) in results {
            out += "\(pack)\n"
            let width = min(40, checks.map(\.check.count).max() ?? 0)
            for c in checks {
                out += "  \(c.passed ? "✓" : "✗") \(fitted(c.check, width))  \(c.message)\n"
            }
        }
        let all = results.flatMap(\.results)
        let failed = all.filter { !$0.passed }.count
        out += "\(results.count) pack\(results.count == 1 ? "" : "s"): \(all.count - failed) passed, \(failed) failed\n"
        return out
    }

    static func json(_ results: [(pack: String, results: [CheckResult])]) -> JSON {
        let all = results.flatMap(\.results)
        return .object([
            (
                "packs",
                .array(
                    results.map { pack, checks in
                        .object([
                            ("path", .string(pack)), ("passed", .bool(checks.allSatisfy(\.passed))), ("checks", .array(checks.map(\.json))),
                        ])
                    })
            ),
            ("passed", .integer(Int64(all.filter(\.passed).count))),
            ("failed", .integer(Int64(all.filter { !$0.passed }.count))),
        ])
    }
}
