import ArgumentParser
import CSV
import FormworkCore
import FormworkHost
import FormworkServer
import Foundation
import Logging

/// `formwork submissions list|export`: what a form received, read from the store.
struct Submissions: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "submissions", abstract: "List or export the submissions a served form received.",
        subcommands: [ListSubmissions.self, Export.self, ExportFile.self])
}

struct StoreOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Where submissions are kept (as for serve; FORMWORK_STORE too).", valueName: "store")) var store:
        StoreLocation?
    @Option(help: ArgumentHelp("The folder (or a form) served, whose store is the default.", valueName: "dir-or-file")) var forms = "."

    func open() async throws -> any SubmissionStore {
        let location = try store ?? StoreLocation.fromEnvironment() ?? StoreLocation.beside([forms])
        if case .sqlite(let path) = location.kind, access(path, F_OK) != 0 {
            throw ServeError("\(path): no submissions store here; name it with --store sqlite:PATH, or --forms DIR for the folder served")
        }
        var logger = Logger(label: "formwork.submissions")
        logger.logLevel = .error
        return try await location.open(logger: logger)
    }
}

struct ListSubmissions: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "One line per submission of FORM: id, time, revision.")
    @Argument(help: "The form's id.") var form: String
    @OptionGroup var options: StoreOptions

    func run() async throws {
        let store = try await options.open()
        var after: Int64 = 0
        var total = 0
        while true {
            let page = try await store.list(formID: form, after: after, limit: 1000)
            for (sequence, s) in page {
                print("\(s.id)  \(DateFormat.iso8601(s.receivedAt.rounded(.down)))  revision \(s.revision)")
                after = sequence
            }
            total += page.count
            if page.count < 1000 { break }
        }
        if total == 0 { FileHandle.standardError.write(Data("formwork: no submissions of form '\(form)'\n".utf8)) }
        await store.close()
    }
}

struct Export: AsyncParsableCommand {
    enum Format: String, ExpressibleByArgument { case jsonl, csv }
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Every submission of FORM as JSON lines (one object each) or CSV (RFC 4180, a column per field).")
    @Argument(help: "The form's id.") var form: String
    @Option(help: "jsonl or csv.") var format: Format = .jsonl
    @Flag(
        name: .customLong("as-current"),
        help: ArgumentHelp(
            "Every answer in the current revision's shape (renamed, dropped or kept as the document declares), with a report of what changed and what today's rules refuse."
        ))
    var asCurrent = false
    @Option(
        help: ArgumentHelp(
            "The current revision of the form (default: the newest the server recorded); with --as-current.", valueName: "file"))
    var document: String?
    @Option(
        name: .customLong("pack-path"), help: ArgumentHelp("Packs the current document's cells come from; repeatable.", valueName: "path"))
    var packPaths: [String] = []
    @OptionGroup var options: StoreOptions

    func validate() throws {
        if !asCurrent && (document != nil || !packPaths.isEmpty) {
            throw ValidationError("--document and --pack-path go with --as-current")
        }
    }

    func run() async throws {
        let store = try await options.open()
        var rows: [StoredSubmission] = []
        var after: Int64 = 0
        while true {
            let page = try await store.list(formID: form, after: after, limit: 1000)
            rows += page.map(\.submission)
            after = page.last?.sequence ?? after
            if page.count < 1000 { break }
        }
        var answers: [CurrentAnswers]? = nil
        if asCurrent {
            let reader = try await revisionReader(store)
            answers = rows.map { reader.read($0.values, revision: $0.revision) }
        }
        // The files of file fields: named, typed and hashed in the export, with where the server serves each.
        var files: [[StoredFile]] = []
        for row in rows { files.append(try await store.files(formID: form, submissionID: row.id)) }
        func link(_ row: StoredSubmission, _ file: StoredFile) -> String {
            "/api/forms/\(Self.segment(form))/submissions/\(row.id)/files/\(Self.segment(file.field))"
        }
        await store.close()
        switch format {
        case .jsonl:
            for (i, s) in rows.enumerated() {
                var members: [(String, JSON)] = [
                    ("id", .string(s.id)), ("form", .string(s.formID)), ("revision", .string(s.revision)),
                    ("receivedAt", .string(DateFormat.iso8601(s.receivedAt.rounded(.down)))),
                ]
                if let current = answers?[i] {
                    members.append(("values", current.values))
                    if !current.kept.isEmpty { members.append(("kept", .object(current.kept))) }
                    members.append(("report", current.report))
                } else {
                    members.append(("values", JSON.parse(s.values) ?? .object([])))
                }
                if !files[i].isEmpty {
                    members.append(
                        (
                            "files",
                            .array(
                                files[i].map { file in
                                    .object([
                                        ("field", .string(file.field)), ("name", .string(file.name)), ("type", .string(file.type)),
                                        ("size", .integer(Int64(file.size))), ("sha256", .string(file.sha256)),
                                        ("href", .string(link(s, file))),
                                    ])
                                })
                        ))
                }
                print(JSON.object(members).serialized(pretty: false))
            }
        case .csv:
            let parsed = rows.enumerated().map { i, row in
                var values = answers?[i].values ?? JSON.parse(row.values) ?? .object([])
                if let current = answers?[i], case .object(var members) = values {
                    members += current.kept
                    members.append(("report", .string(current.summary)))
                    values = .object(members)
                }
                // A column per field: an object's fields are columns of their own (`billing.city`, `billing.address.city`).
                if case .object(let members) = values, members.contains(where: { if case .object = $0.1 { true } else { false } }) {
                    func flat(_ key: String, _ value: JSON) -> [(String, JSON)] {
                        guard case .object(let inner) = value else { return [(key, value)] }
                        return inner.flatMap { flat("\(key).\($0.0)", $0.1) }
                    }
                    values = .object(members.flatMap { flat($0.0, $0.1) })
                }
                // A file field's column holds the file's name; beside it, where the server serves the file and its hash.
                if case .object(var members) = values, !files[i].isEmpty {
                    for file in files[i] {
                        members.append(("\(file.field).href", .string(link(row, file))))
                        members.append(("\(file.field).sha256", .string(file.sha256)))
                    }
                    values = .object(members)
                }
                return (s: row, values: values)
            }
            // A column per value, in the order they first appear.
            var columns: [String] = []
            var seen: Set<String> = []
            for row in parsed {
                guard case .object(let members) = row.values else { continue }
                for (key, _) in members where seen.insert(key).inserted { columns.append(key) }
            }
            let csv = try CSVWriter(stream: .toMemory())
            try csv.write(row: ["id", "receivedAt", "revision"] + columns)
            for row in parsed {
                var cells = [row.s.id, DateFormat.iso8601(row.s.receivedAt.rounded(.down)), row.s.revision]
                for column in columns {
                    switch row.values[column] {
                    case nil, .null?: cells.append("")
                    case .string(let text)?: cells.append(text)
                    case let value?: cells.append(value.serialized(pretty: false))
                    }
                }
                try csv.write(row: cells)
            }
            csv.stream.close()
            if let data = csv.stream.property(forKey: .dataWrittenToMemoryStreamKey) as? Data {
                FileHandle.standardOutput.write(data)
            }
        }
    }

    /// `text` as one path segment of a URL (percent-encoded but for unreserved characters).
    static func segment(_ text: String) -> String {
        text.utf8.map { b in
            let c = Character(UnicodeScalar(b))
            return b < 0x80 && (c.isLetter || c.isNumber || "-._~".contains(c)) ? String(c) : String(format: "%%%02X", b)
        }.joined()
    }

    /// The current revision (`--document`, or the newest the store recorded) and, when its cell types are found,
    /// its form: today's rules then judge every migrated answer.
    func revisionReader(_ store: any SubmissionStore) async throws -> RevisionReader {
        let revisions = try await store.revisions(formID: form)
        let text: String
        let file: String
        if let document {
            guard let bytes = try? FileBytes.read(document, limit: 32 << 20) else {
                throw ServeError("\(document): cannot read the current document; name a form document")
            }
            text = String(decoding: bytes, as: UTF8.self)
            file = document
        } else if let newest = revisions.last {
            text = newest.document
            file = "revision \(newest.revision) of '\(form)'"
        } else {
            throw ServeError(
                "no revision of form '\(form)' is recorded in the store (a server records one with its first submission); name the current document with --document FILE"
            )
        }
        var logger = Logger(label: "formwork.submissions")
        logger.logLevel = .error
        let (registry, _) = FormSite.registry(packPaths: packPaths, cellHost: CheckRunner.currentExecutable, timeout: 5, logger: logger)
        let json = text.drop { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" }.first == "{"
        var form: Form?
        do { form = try FormDecoder.decode(text: text, json: json, registry: registry, file: file) } catch {
            FileHandle.standardError.write(
                Data("formwork: warning: \(file) does not decode (\(error)); answers are migrated but not checked against its rules\n".utf8)
            )
        }
        let revision = FormTokens.revision(of: Array(text.utf8))
        return RevisionReader(revisions: revisions, currentRevision: revision, currentDocument: text, form: form)
    }
}

/// `formwork submissions file FORM SUBMISSION FIELD`: the file sent for a file field, as it was stored.
struct ExportFile: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "file", abstract: "Write the file a submission sent for a file field (to standard output, or -o FILE).")
    @Argument(help: "The form's id.") var form: String
    @Argument(help: "The submission's id (formwork submissions list FORM).") var submission: String
    @Argument(help: "The file field's id (documents.cv for a field of an object).") var field: String
    @Option(name: .shortAndLong, help: ArgumentHelp("Write the file here (created 0600; - is standard output).", valueName: "file"))
    var output: String?
    @OptionGroup var options: StoreOptions

    func run() async throws {
        let store = try await options.open()
        let file = try await store.file(formID: form, submissionID: submission, field: field)
        await store.close()
        guard let file else {
            throw ServeError(
                "submission '\(TerminalText.safe(submission))' of form '\(TerminalText.safe(form))' has no file for '\(TerminalText.safe(field))'; formwork submissions export \(TerminalText.safe(form)) lists the files"
            )
        }
        let data = Data(file.content)
        if let output, output != "-" {
            // An uploaded file is someone's document: readable by the owner only.
            guard FileManager.default.createFile(atPath: output, contents: data, attributes: [.posixPermissions: 0o600]) else {
                throw ServeError("\(output): cannot write the file: \(String(cString: strerror(errno)))")
            }
            FileHandle.standardError.write(
                Data(
                    "formwork: wrote \(TerminalText.safe(file.name)) (\(file.type), \(file.size) bytes, sha256 \(file.sha256)) to \(TerminalText.safe(output))\n"
                        .utf8))
        } else {
            FileHandle.standardOutput.write(data)
        }
    }
}
