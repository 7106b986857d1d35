import Logging
import PostgresNIO
import Synchronization

/// Submissions in PostgreSQL, for several `formwork serve` instances that share one database.
///
/// A commit is durable when PostgreSQL answers it (`synchronous_commit` on, its default). Group commit as in
/// `SQLiteStore`: the inserts waiting in this instance are stored by one transaction (one multi-row `INSERT` from
/// arrays) and answered after its commit. A transient failure (the connection lost, the server restarting) is
/// retried: every submission carries its id (and its idempotency key) from the first attempt, and the insert does
/// nothing for a row that is there already, so a retry after a commit whose answer was lost never stores twice.
/// The schema is the store's own, created and upgraded by versioned migrations under an advisory lock (instances
/// starting together migrate once).
public actor PostgresStore: SubmissionStore {
    /// The schema version this code writes; `migrations[v]` takes a database from version `v` to `v + 1`.
    static let migrations: [[String]] = [
        [
            """
            CREATE TABLE IF NOT EXISTS formwork_submissions (
                sequence BIGSERIAL PRIMARY KEY,
                id TEXT NOT NULL UNIQUE,
                form_id TEXT NOT NULL,
                revision TEXT NOT NULL,
                idempotency_key TEXT,
                received_at DOUBLE PRECISION NOT NULL,
                stored_at TIMESTAMPTZ NOT NULL DEFAULT now(),
                submission_values TEXT NOT NULL
            )
            """,
            """
            CREATE UNIQUE INDEX IF NOT EXISTS formwork_submissions_idempotency
                ON formwork_submissions (form_id, idempotency_key) WHERE idempotency_key IS NOT NULL
            """,
            "CREATE INDEX IF NOT EXISTS formwork_submissions_form ON formwork_submissions (form_id, sequence)",
        ],
        [
            """
            CREATE TABLE IF NOT EXISTS formwork_drafts (
                form_id TEXT NOT NULL,
                key TEXT NOT NULL,
                revision TEXT NOT NULL,
                saved_at DOUBLE PRECISION NOT NULL,
                expires_at DOUBLE PRECISION NOT NULL,
                draft_values TEXT NOT NULL,
                submission_id TEXT,
                PRIMARY KEY (form_id, key)
            )
            """,
            "CREATE INDEX IF NOT EXISTS formwork_drafts_expiry ON formwork_drafts (expires_at)",
            """
            CREATE TABLE IF NOT EXISTS formwork_revisions (
                form_id TEXT NOT NULL,
                revision TEXT NOT NULL,
                document TEXT NOT NULL,
                first_seen DOUBLE PRECISION NOT NULL,
                PRIMARY KEY (form_id, revision)
            )
            """,
        ],
        [
            """
            CREATE TABLE IF NOT EXISTS formwork_files (
                submission_id TEXT NOT NULL REFERENCES formwork_submissions (id),
                field TEXT NOT NULL,
                name TEXT NOT NULL,
                type TEXT NOT NULL,
                size BIGINT NOT NULL,
                sha256 TEXT NOT NULL,
                content BYTEA NOT NULL,
                PRIMARY KEY (submission_id, field)
            )
            """
        ],
    ]

    private struct Pending {
        let id: String
        let submission: NewSubmission
        let continuation: CheckedContinuation<Result<StoredSubmission, StoreError>, Never>
    }

    private let client: PostgresClient
    private let runTask: Task<Void, Never>
    private let logger: Logger
    private var pending: [Pending] = []
    private var flushing = false
    private var closed = false
    /// Transactions and submissions committed (the metrics, and the group-commit test).
    public private(set) var commits = 0
    public private(set) var committedSubmissions = 0
    let batchLimit = 512
    /// How long a batch is retried through transient failures before its submissions fail (503, nothing stored).
    let retryFor: Duration
    /// How long one attempt (a transaction, a query) may take before it counts as a transient failure.
    let attemptDeadline = Duration.seconds(5)

    /// Connects to `url` (`postgres://user:password@host:port/database`), runs the migrations, and keeps a pool of
    /// connections. `retryFor`: how long transient failures are retried.
    public init(url: String, logger: Logger, retryFor: Duration = .seconds(10)) async throws(StoreError) {
        let configuration = try Self.configuration(url)
        client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        let client = client
        runTask = Task { await client.run() }
        self.logger = logger
        self.retryFor = retryFor
        // The pool keeps trying to connect to a server that does not answer: the first use has a deadline.
        let migration = Task { [client, logger] in try await Self.migrate(client, logger) }
        let timeout = Task {
            try? await Task.sleep(for: .seconds(10))
            migration.cancel()
        }
        defer { timeout.cancel() }
        do { try await migration.value } catch {
            runTask.cancel()
            let reason = migration.isCancelled ? "no answer in 10 s" : ((error as? StoreError)?.message ?? "\(error)")
            throw StoreError("PostgreSQL at \(Self.redacted(url)): \(reason)")
        }
    }

    /// The client configuration of a `postgres://` URL (no TLS: loopback or a trusted network).
    static func configuration(_ url: String) throws(StoreError) -> PostgresClient.Configuration {
        let redacted = Self.redacted(url)
        guard url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") else {
            throw StoreError("'\(redacted)' is not a postgres:// URL (postgres://user:password@host:port/database)")
        }
        var rest = Substring(url[url.index(after: url.firstIndex(of: "/")!)...].dropFirst())
        var user = "postgres", password: String? = nil
        if let at = rest.lastIndex(of: "@") {
            let credentials = rest[..<at]
            rest = rest[rest.index(after: at)...]
            if let colon = credentials.firstIndex(of: ":") {
                user = Self.percentDecoded(credentials[..<colon])
                password = Self.percentDecoded(credentials[credentials.index(after: colon)...])
            } else {
                user = Self.percentDecoded(credentials)
            }
        }
        let slash = rest.firstIndex(of: "/")
        let hostPort = slash.map { rest[..<$0] } ?? rest
        var database = slash.map { String(rest[rest.index(after: $0)...]) } ?? user
        if let question = database.firstIndex(of: "?") { database = String(database[..<question]) }
        var host = String(hostPort), port = 5432
        if let colon = hostPort.lastIndex(of: ":"), let p = Int(hostPort[hostPort.index(after: colon)...]) {
            host = String(hostPort[..<colon])
            port = p
        }
        guard !host.isEmpty, (1...65535).contains(port), !database.isEmpty else {
            throw StoreError("'\(redacted)' names no host, port or database (postgres://user:password@host:port/database)")
        }
        var configuration = PostgresClient.Configuration(
            host: host, port: port, username: user, password: password, database: database, tls: .disable)
        configuration.options.maximumConnections = 8
        configuration.options.connectTimeout = .seconds(5)
        return configuration
    }

    /// `url` without its password, for messages and logs.
    public static func redacted(_ url: String) -> String {
        guard let scheme = url.range(of: "://"), let at = url.lastIndex(of: "@"), at > scheme.upperBound else { return url }
        let credentials = url[scheme.upperBound..<at]
        guard let colon = credentials.firstIndex(of: ":") else { return url }
        return String(url[..<colon]) + ":***" + String(url[at...])
    }

    static func percentDecoded(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        var i = text.utf8.startIndex
        let utf8 = text.utf8
        while i < utf8.endIndex {
            if utf8[i] == UInt8(ascii: "%"), let a = utf8.index(i, offsetBy: 1, limitedBy: utf8.endIndex), a < utf8.endIndex,
                let b = utf8.index(i, offsetBy: 2, limitedBy: utf8.endIndex), b < utf8.endIndex,
                let high = SubmissionBody.hexValue(utf8[a]), let low = SubmissionBody.hexValue(utf8[b])
            {
                bytes.append(high << 4 | low)
                i = utf8.index(after: b)
            } else {
                bytes.append(utf8[i])
                i = utf8.index(after: i)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Brings the database to the latest schema, once, whichever instance comes first.
    static func migrate(_ client: PostgresClient, _ logger: Logger) async throws(StoreError) {
        do {
            try await client.withTransaction(logger: logger) { connection in
                try await connection.query("SELECT pg_advisory_xact_lock(724201)", logger: logger)
                try await connection.query("CREATE TABLE IF NOT EXISTS formwork_schema (version INTEGER NOT NULL)", logger: logger)
                var version = 0
                for try await (v) in try await connection.query("SELECT version FROM formwork_schema", logger: logger).decode(Int.self) {
                    version = v
                }
                if version > Self.migrations.count {
                    throw StoreError(
                        "the database has formwork schema version \(version), newer than this Formwork's \(Self.migrations.count); use a newer formwork"
                    )
                }
                // Up to date: nothing is written (an instance starting writes nothing it need not).
                guard version < Self.migrations.count else { return }
                for v in version..<Self.migrations.count {
                    for statement in Self.migrations[v] { try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger) }
                }
                try await connection.query("DELETE FROM formwork_schema", logger: logger)
                let latest = Self.migrations.count
                try await connection.query("INSERT INTO formwork_schema (version) VALUES (\(latest))", logger: logger)
            }
        } catch {
            throw StoreError("cannot prepare the submissions schema: \(Self.describe(error))")
        }
    }

    public func insert(_ submission: NewSubmission) async throws(StoreError) -> StoredSubmission {
        if closed { throw StoreError("the submissions store is closed") }
        let id = FormTokens.hex(FormTokens.randomBytes(16))
        let result = await withCheckedContinuation { continuation in
            pending.append(Pending(id: id, submission: submission, continuation: continuation))
            if !flushing {
                flushing = true
                Task { await self.flush() }
            }
        }
        return try result.get()
    }

    /// Stores what waits, a batch per transaction, until nothing waits.
    private func flush() async {
        while !pending.isEmpty {
            let batch = Array(pending.prefix(batchLimit))
            pending.removeFirst(batch.count)
            let results = await commitRetrying(batch)
            for (item, result) in zip(batch, results) { item.continuation.resume(returning: result) }
        }
        flushing = false
    }

    private func commitRetrying(_ batch: [Pending]) async -> [Result<StoredSubmission, StoreError>] {
        let deadline = ContinuousClock.now + retryFor
        var delay = Duration.milliseconds(50)
        while true {
            do {
                // Each attempt has a deadline: under load while PostgreSQL restarted, a call into the pool was seen to
                // wait for ever (every thread idle, the batch never answered, SIGTERM never finishing). A late
                // answer to an abandoned attempt is harmless: the retry inserts the same ids, which conflict.
                let stored = try await Self.withDeadline(attemptDeadline) { try await self.commit(batch) }
                commits += 1
                committedSubmissions += stored.filter(\.created).count
                return stored.map { .success($0) }
            } catch {
                let message = Self.describe(error)
                if ContinuousClock.now + delay > deadline {
                    logger.error(
                        "submissions not stored: PostgreSQL keeps failing", metadata: ["error": "\(message)", "batch": "\(batch.count)"])
                    return batch.map { _ in .failure(StoreError("PostgreSQL: \(message)")) }
                }
                logger.warning("PostgreSQL failed; the batch is retried", metadata: ["error": "\(message)", "batch": "\(batch.count)"])
                try? await Task.sleep(for: delay)
                delay = min(delay * 2, .seconds(1))
            }
        }
    }

    /// One transaction: the batch inserted from arrays (a row already there is left alone), then the rows that were
    /// there already read back.
    private func commit(_ batch: [Pending]) async throws -> [StoredSubmission] {
        let ids = batch.map(\.id)
        let forms = batch.map(\.submission.formID)
        let revisions = batch.map(\.submission.revision)
        let keys = batch.map { $0.submission.idempotencyKey ?? "" }
        let received = batch.map(\.submission.receivedAt)
        let values = batch.map(\.submission.values)
        return try await client.withTransaction(logger: logger) { connection in
            var created: Set<String> = []
            let inserted = try await connection.query(
                """
                INSERT INTO formwork_submissions (id, form_id, revision, idempotency_key, received_at, submission_values)
                SELECT i, f, r, NULLIF(k, ''), t, v FROM UNNEST(\(ids)::text[], \(forms)::text[], \(revisions)::text[], \(keys)::text[],
                    \(received)::float8[], \(values)::text[]) AS batch(i, f, r, k, t, v)
                ON CONFLICT DO NOTHING RETURNING id
                """, logger: self.logger)
            for try await id in inserted.decode(String.self) { created.insert(id) }
            var out: [StoredSubmission] = []
            for item in batch {
                let s = item.submission
                if created.contains(item.id) {
                    // The files in the same transaction: a submission is acknowledged with its files or not at all.
                    for file in s.files {
                        try await connection.query(
                            """
                            INSERT INTO formwork_files (submission_id, field, name, type, size, sha256, content)
                            VALUES (\(item.id), \(file.field), \(file.name), \(file.type), \(Int64(file.size)), \(file.sha256), \(ByteBuffer(bytes: file.content)))
                            """, logger: self.logger)
                    }
                    out.append(
                        StoredSubmission(
                            id: item.id, formID: s.formID, revision: s.revision, values: s.values, idempotencyKey: s.idempotencyKey,
                            receivedAt: s.receivedAt, created: true))
                    continue
                }
                let rows =
                    if let key = s.idempotencyKey {
                        try await connection.query(
                            "SELECT id, revision, submission_values, received_at FROM formwork_submissions WHERE form_id = \(s.formID) AND idempotency_key = \(key)",
                            logger: self.logger)
                    } else {
                        try await connection.query(
                            "SELECT id, revision, submission_values, received_at FROM formwork_submissions WHERE id = \(item.id)",
                            logger: self.logger)
                    }
                var found: StoredSubmission?
                for try await (id, revision, values, at) in rows.decode((String, String, String, Double).self) {
                    // Its own id (random, made by this insert): an earlier attempt of this very insert committed and its
                    // answer was lost (its deadline passed): this insert stored it. Another id: stored before, by another.
                    found = StoredSubmission(
                        id: id, formID: s.formID, revision: revision, values: values, idempotencyKey: s.idempotencyKey, receivedAt: at,
                        created: id == item.id)
                }
                guard let found else { throw StoreError("a conflicting submission could not be read back") }
                out.append(found)
            }
            return out
        }
    }

    public func file(formID: String, submissionID: String, field: String) async throws(StoreError) -> StoredFile? {
        do {
            let rows = try await client.query(
                """
                SELECT f.field, f.name, f.type, f.size, f.sha256, f.content FROM formwork_files f
                JOIN formwork_submissions s ON s.id = f.submission_id
                WHERE s.form_id = \(formID) AND f.submission_id = \(submissionID) AND f.field = \(field)
                """, logger: logger)
            for try await (field, name, type, size, sha256, content) in rows.decode(
                (String, String, String, Int64, String, ByteBuffer).self)
            {
                return StoredFile(
                    field: field, name: name, type: type, size: Int(size), sha256: sha256, content: Array(content.readableBytesView))
            }
            return nil
        } catch {
            throw StoreError("PostgreSQL: \(Self.describe(error))")
        }
    }

    public func files(formID: String, submissionID: String) async throws(StoreError) -> [StoredFile] {
        do {
            let rows = try await client.query(
                """
                SELECT f.field, f.name, f.type, f.size, f.sha256 FROM formwork_files f
                JOIN formwork_submissions s ON s.id = f.submission_id
                WHERE s.form_id = \(formID) AND f.submission_id = \(submissionID) ORDER BY f.field
                """, logger: logger)
            var out: [StoredFile] = []
            for try await (field, name, type, size, sha256) in rows.decode((String, String, String, Int64, String).self) {
                out.append(StoredFile(field: field, name: name, type: type, size: Int(size), sha256: sha256, content: []))
            }
            return out
        } catch {
            throw StoreError("PostgreSQL: \(Self.describe(error))")
        }
    }

    public func submission(formID: String, id: String) async throws(StoreError) -> StoredSubmission? {
        do {
            let rows = try await client.query(
                "SELECT id, form_id, revision, submission_values, idempotency_key, received_at FROM formwork_submissions WHERE form_id = \(formID) AND id = \(id)",
                logger: logger)
            for try await row in rows.decode((String, String, String, String, String?, Double).self) { return Self.stored(row) }
            return nil
        } catch {
            throw StoreError("PostgreSQL: \(Self.describe(error))")
        }
    }

    public func list(formID: String, after: Int64, limit: Int) async throws(StoreError) -> [(sequence: Int64, submission: StoredSubmission)]
    {
        do {
            let rows = try await client.query(
                """
                SELECT id, form_id, revision, submission_values, idempotency_key, received_at, sequence FROM formwork_submissions
                WHERE form_id = \(formID) AND sequence > \(after) ORDER BY sequence LIMIT \(limit)
                """, logger: logger)
            var out: [(Int64, StoredSubmission)] = []
            for try await (id, form, revision, values, key, at, sequence) in rows.decode(
                (String, String, String, String, String?, Double, Int64).self)
            {
                out.append((sequence, Self.stored((id, form, revision, values, key, at))))
            }
            return out
        } catch {
            throw StoreError("PostgreSQL: \(Self.describe(error))")
        }
    }

    static func stored(_ row: (String, String, String, String, String?, Double)) -> StoredSubmission {
        StoredSubmission(id: row.0, formID: row.1, revision: row.2, values: row.3, idempotencyKey: row.4, receivedAt: row.5, created: false)
    }

    // MARK: Drafts and revisions (few: one statement each, through the pool, retried like submissions)

    /// Runs `body`, retrying transient failures for `retryFor` (every statement here can be repeated safely).
    private func retrying<T: Sendable>(_ what: String, _ body: @escaping @Sendable () async throws -> T) async throws(StoreError) -> T {
        let deadline = ContinuousClock.now + retryFor
        var delay = Duration.milliseconds(50)
        while true {
            do { return try await Self.withDeadline(attemptDeadline, body) } catch {
                let message = Self.describe(error)
                if ContinuousClock.now + delay > deadline || closed { throw StoreError("PostgreSQL (\(what)): \(message)") }
                try? await Task.sleep(for: delay)
                delay = min(delay * 2, .seconds(1))
            }
        }
    }

    public func saveDraft(_ draft: Draft) async throws(StoreError) -> Draft {
        let client = client, logger = logger
        let stored = try await retrying("saving a draft") { () async throws -> Draft? in
            try await client.query(
                """
                INSERT INTO formwork_drafts (form_id, key, revision, saved_at, expires_at, draft_values)
                VALUES (\(draft.formID), \(draft.key), \(draft.revision), \(draft.savedAt), \(draft.expiresAt), \(draft.values))
                ON CONFLICT (form_id, key) DO UPDATE SET revision = excluded.revision, saved_at = excluded.saved_at,
                    expires_at = excluded.expires_at, draft_values = excluded.draft_values
                WHERE formwork_drafts.submission_id IS NULL
                """, logger: logger)
            return try await Self.readDraft(client, logger, formID: draft.formID, key: draft.key)
        }
        guard let stored else { throw StoreError("PostgreSQL: a saved draft could not be read back") }
        return stored
    }

    static func readDraft(_ client: PostgresClient, _ logger: Logger, formID: String, key: String) async throws -> Draft? {
        let rows = try await client.query(
            """
            SELECT revision, draft_values, saved_at, expires_at, submission_id FROM formwork_drafts
            WHERE form_id = \(formID) AND key = \(key)
            """, logger: logger)
        for try await (revision, values, saved, expires, submission) in rows.decode((String, String, Double, Double, String?).self) {
            return Draft(
                key: key, formID: formID, revision: revision, values: values, savedAt: saved, expiresAt: expires, submissionID: submission)
        }
        return nil
    }

    public func draft(formID: String, key: String) async throws(StoreError) -> Draft? {
        let client = client, logger = logger
        return try await retrying("reading a draft") { try await Self.readDraft(client, logger, formID: formID, key: key) }
    }

    public func finishDraft(formID: String, key: String, submissionID: String) async throws(StoreError) {
        let client = client, logger = logger
        try await retrying("finishing a draft") {
            try await client.query(
                """
                UPDATE formwork_drafts SET submission_id = \(submissionID), draft_values = '{}' WHERE form_id = \(formID) AND key = \(key)
                """, logger: logger)
        }
    }

    public func purgeDrafts(expiredBefore time: Double) async throws(StoreError) -> Int {
        let client = client, logger = logger
        return try await retrying("deleting expired drafts") { () async throws -> Int in
            var count = 0
            let rows = try await client.query("DELETE FROM formwork_drafts WHERE expires_at < \(time) RETURNING key", logger: logger)
            for try await _ in rows.decode(String.self) { count += 1 }
            return count
        }
    }

    public func recordRevision(_ revision: FormRevision) async throws(StoreError) {
        let client = client, logger = logger
        try await retrying("recording a revision") {
            try await client.query(
                """
                INSERT INTO formwork_revisions (form_id, revision, document, first_seen)
                VALUES (\(revision.formID), \(revision.revision), \(revision.document), \(revision.firstSeen)) ON CONFLICT DO NOTHING
                """, logger: logger)
        }
    }

    public func revisions(formID: String) async throws(StoreError) -> [FormRevision] {
        let client = client, logger = logger
        return try await retrying("reading revisions") { () async throws -> [FormRevision] in
            let rows = try await client.query(
                "SELECT revision, document, first_seen FROM formwork_revisions WHERE form_id = \(formID) ORDER BY first_seen, revision",
                logger: logger)
            var out: [FormRevision] = []
            for try await (revision, document, seen) in rows.decode((String, String, Double).self) {
                out.append(FormRevision(formID: formID, revision: revision, document: document, firstSeen: seen))
            }
            return out
        }
    }

    /// `body`'s answer, or a `StoreError` once `duration` passed without one (`body`'s task is then cancelled and left to
    /// end on its own: a pool that does not honour the cancellation cannot hold the caller).
    static func withDeadline<T: Sendable>(_ duration: Duration, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        let pending = OnceContinuation<T>()
        return try await withCheckedThrowingContinuation { continuation in
            pending.continuation.withLock { $0 = continuation }
            let work = Task {
                do {
                    let value = try await body()
                    pending.take()?.resume(returning: value)
                } catch {
                    pending.take()?.resume(throwing: error)
                }
            }
            Task {
                try? await Task.sleep(for: duration)
                if let continuation = pending.take() {
                    work.cancel()
                    continuation.resume(throwing: StoreError("no answer from PostgreSQL in \(duration.components.seconds) s"))
                }
            }
        }
    }

    public func close() async {
        closed = true
        while flushing { try? await Task.sleep(for: .milliseconds(5)) }
        runTask.cancel()
    }

    /// A PostgreSQL error as one line: the server's message when it sent one.
    static func describe(_ error: any Error) -> String {
        if let error = error as? StoreError { return error.message }
        if let error = error as? PostgresTransactionError {
            if let inner = error.beginError ?? error.closureError ?? error.commitError ?? error.rollbackError { return describe(inner) }
        }
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] { return message }
            return "\(error.code)"
        }
        return "\(error)"
    }
}

/// A continuation resumed once: by an answer or by a deadline, whichever comes first.
final class OnceContinuation<T: Sendable>: Sendable {
    let continuation = Mutex<CheckedContinuation<T, any Error>?>(nil)

    func take() -> CheckedContinuation<T, any Error>? {
        continuation.withLock { c in
            defer { c = nil }
            return c
        }
    }
}
