import ArgumentParser
import CSV
import FormworkCore
import FormworkServer
import Foundation
import Logging

/// `formwork submissions list|export`: what a form received, read from the store.
struct Submissions: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "submissions", abstract: "List or export the submissions a served form received.",
        subcommands: [ListSubmissions.self, Export.self])
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
    @OptionGroup var options: StoreOptions

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
        await store.close()
        switch format {
        case .jsonl:
            for s in rows {
                let values = JSON.parse(s.values) ?? .object([])
                let line = JSON.object([
                    ("id", .string(s.id)), ("form", .string(s.formID)), ("revision", .string(s.revision)),
                    ("receivedAt", .string(DateFormat.iso8601(s.receivedAt.rounded(.down)))), ("values", values),
                ])
                print(line.serialized(pretty: false))
            }
        case .csv:
            let parsed = rows.map { (s: $0, values: JSON.parse($0.values) ?? .object([])) }
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
}
