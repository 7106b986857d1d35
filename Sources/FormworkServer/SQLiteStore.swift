import CSQLite
import FormworkCore
import Glibc

/// Submissions in one SQLite file (WAL, `synchronous=FULL`: a commit is on disk when it returns).
///
/// Group commit: inserts are handed to one writer thread, which takes every insert waiting, stores them in one
/// transaction and syncs once, then answers them all. Under load a sync covers many submissions; alone, an insert
/// waits for its own sync only. Reads go through a second connection (WAL lets them run beside the writer).
public final class SQLiteStore: SubmissionStore, @unchecked Sendable {
    /// The schema version this code writes (`PRAGMA user_version`); older files are upgraded by `migrations`.
    static let schemaVersion: Int32 = 3
    /// Each migration takes the file from version `index` to `index + 1`.
    static let migrations: [String] = [
        """
        CREATE TABLE submissions (
            sequence INTEGER PRIMARY KEY AUTOINCREMENT,
            id TEXT NOT NULL UNIQUE,
            form_id TEXT NOT NULL,
            revision TEXT NOT NULL,
            idempotency_key TEXT,
            received_at REAL NOT NULL,
            stored_at REAL NOT NULL,
            submission_values TEXT NOT NULL
        );
        CREATE UNIQUE INDEX submissions_idempotency ON submissions(form_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
        CREATE INDEX submissions_form ON submissions(form_id, sequence);
        """,
        """
        CREATE TABLE drafts (
            form_id TEXT NOT NULL,
            key TEXT NOT NULL,
            revision TEXT NOT NULL,
            saved_at REAL NOT NULL,
            expires_at REAL NOT NULL,
            draft_values TEXT NOT NULL,
            submission_id TEXT,
            PRIMARY KEY (form_id, key)
        );
        CREATE INDEX drafts_expiry ON drafts(expires_at);
        CREATE TABLE revisions (
            form_id TEXT NOT NULL,
            revision TEXT NOT NULL,
            document TEXT NOT NULL,
            first_seen REAL NOT NULL,
            PRIMARY KEY (form_id, revision)
        );
        """,
        """
        CREATE TABLE files (
            submission_id TEXT NOT NULL REFERENCES submissions(id),
            field TEXT NOT NULL,
            name TEXT NOT NULL,
            type TEXT NOT NULL,
            size INTEGER NOT NULL,
            sha256 TEXT NOT NULL,
            content BLOB NOT NULL,
            PRIMARY KEY (submission_id, field)
        );
        """,
    ]

    private struct Pending {
        let submission: NewSubmission
        let answer: @Sendable (Result<StoredSubmission, StoreError>) -> Void
    }

    public let path: String
    private let writer: OpaquePointer
    private let reader: OpaquePointer
    private let readLock = Condition()
    /// Drafts and revisions are written through a connection of their own, one transaction at a time: they are
    /// few, and SQLite serializes them with the submissions' writer (busy_timeout) without sharing its transaction.
    private let draftWriter: OpaquePointer
    private let draftLock = Condition()
    private let queue = Condition()
    private var pending: [Pending] = []
    private var closed = false
    private var thread: Thread?
    /// How many transactions and submissions the writer committed (for the metrics and the group-commit test).
    public private(set) var commits = 0
    public private(set) var committedSubmissions = 0
    /// At most this many submissions in one transaction.
    let batchLimit = 512
    /// The writer's statements, prepared on its first commit and kept: each commit prepared its three statements
    /// and parsed its `BEGIN` and `COMMIT` again (`sqlite3Parser` in a profile of the server under POSTs). Used
    /// by the writer thread only; finalized when the store is released.
    private var writerStatements: WriterStatements?

    private struct WriterStatements {
        let begin: Statement
        let commit: Statement
        let rollback: Statement
        let insert: Statement
        let existing: Statement
        let insertFile: Statement

        init(_ db: OpaquePointer) throws(StoreError) {
            begin = try Statement(db, "BEGIN IMMEDIATE;")
            commit = try Statement(db, "COMMIT;")
            rollback = try Statement(db, "ROLLBACK;")
            insert = try Statement(
                db,
                """
                INSERT INTO submissions (id, form_id, revision, idempotency_key, received_at, stored_at, submission_values)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT DO NOTHING;
                """)
            existing = try Statement(
                db, "SELECT id, revision, submission_values, received_at FROM submissions WHERE form_id = ?1 AND idempotency_key = ?2;")
            insertFile = try Statement(
                db, "INSERT INTO files (submission_id, field, name, type, size, sha256, content) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7);")
        }

        /// Runs a statement without results (`BEGIN`, `COMMIT`, `ROLLBACK`) and leaves it ready for the next time.
        static func run(_ statement: Statement, _ db: OpaquePointer) throws(StoreError) {
            statement.reset()
            let status = statement.step()
            statement.reset()
            guard status == SQLITE_DONE else { throw StoreError("SQLite: \(String(cString: sqlite3_errmsg(db)))") }
        }
    }

    /// Opens (creating it if needed) the store at `path`; the file and its WAL are readable by the owner only.
    public init(path: String) throws(StoreError) {
        self.path = path
        let old = umask(0o077)
        defer { umask(old) }
        writer = try Self.open(path)
        reader = try Self.open(path)
        draftWriter = try Self.open(path)
        try Self.execute(writer, "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA busy_timeout=10000;")
        try Self.execute(draftWriter, "PRAGMA synchronous=FULL; PRAGMA busy_timeout=10000;")
        try Self.execute(reader, "PRAGMA busy_timeout=10000; PRAGMA query_only=1;")
        try migrate()
        thread = Thread { [unowned self] in self.writeLoop() }
    }

    deinit {
        sqlite3_close_v2(writer)
        sqlite3_close_v2(reader)
        sqlite3_close_v2(draftWriter)
    }

    static func open(_ path: String) throws(StoreError) -> OpaquePointer {
        var db: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX | SQLITE_OPEN_NOFOLLOW
        let status = sqlite3_open_v2(path, &db, flags, nil)
        guard status == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status))
            sqlite3_close_v2(db)
            throw StoreError("\(path): cannot open the submissions store: \(message)")
        }
        return db
    }

    static func execute(_ db: OpaquePointer, _ sql: String) throws(StoreError) {
        var error: UnsafeMutablePointer<CChar>?
        if sqlite3_exec(db, sql, nil, nil, &error) != SQLITE_OK {
            let message = error.map { String(cString: $0) } ?? "unknown error"
            sqlite3_free(error)
            throw StoreError("SQLite: \(message)")
        }
    }

    /// Brings the file to `schemaVersion`, one migration per transaction; a file from a newer Formwork is refused.
    func migrate() throws(StoreError) {
        let version = try Self.userVersion(writer)
        if version > Self.schemaVersion {
            throw StoreError(
                "\(path): the store has schema version \(version), newer than this Formwork's \(Self.schemaVersion); use a newer formwork")
        }
        for v in Int(version)..<Int(Self.schemaVersion) {
            try Self.execute(writer, "BEGIN IMMEDIATE;")
            do throws(StoreError) {
                try Self.execute(writer, Self.migrations[v])
                try Self.execute(writer, "PRAGMA user_version=\(v + 1);")
                try Self.execute(writer, "COMMIT;")
            } catch {
                try? Self.execute(writer, "ROLLBACK;")
                throw error
            }
        }
    }

    static func userVersion(_ db: OpaquePointer) throws(StoreError) -> Int32 {
        let statement = try Statement(db, "PRAGMA user_version;")
        guard statement.step() == SQLITE_ROW else { return 0 }
        return sqlite3_column_int(statement.handle, 0)
    }

    public func insert(_ submission: NewSubmission) async throws(StoreError) -> StoredSubmission {
        let result: Result<StoredSubmission, StoreError> = await withCheckedContinuation { continuation in
            queue.lock()
            if closed {
                queue.unlock()
                continuation.resume(returning: .failure(StoreError("the submissions store is closed")))
                return
            }
            pending.append(Pending(submission: submission) { continuation.resume(returning: $0) })
            queue.signal()
            queue.unlock()
        }
        return try result.get()
    }

    /// The writer: a batch of waiting inserts per transaction, answered after the commit.
    private func writeLoop() {
        while true {
            queue.lock()
            while pending.isEmpty && !closed { queue.wait() }
            if pending.isEmpty && closed {
                queue.unlock()
                return
            }
            let batch = Array(pending.prefix(batchLimit))
            pending.removeFirst(batch.count)
            queue.unlock()
            let results = commit(batch.map(\.submission))
            for (item, result) in zip(batch, results) { item.answer(result) }
        }
    }

    /// Stores `batch` in one transaction; every submission gets its answer (all fail together if the commit fails).
    func commit(_ batch: [NewSubmission]) -> [Result<StoredSubmission, StoreError>] {
        let statements: WriterStatements
        do throws(StoreError) {
            if let kept = writerStatements {
                statements = kept
            } else {
                statements = try WriterStatements(writer)
                writerStatements = statements
            }
        } catch {
            return batch.map { _ in .failure(error) }
        }
        let insert = statements.insert, existing = statements.existing, insertFile = statements.insertFile
        do throws(StoreError) {
            try WriterStatements.run(statements.begin, writer)
            var stored: [StoredSubmission] = []
            do {
                // Reset after the batch too: a statement left at a row would hold its read open past the commit.
                defer {
                    insert.reset()
                    existing.reset()
                    insertFile.reset()
                }
                let now = WallClock.seconds
                for s in batch {
                    let id = FormTokens.hex(FormTokens.randomBytes(16))
                    insert.reset()
                    insert.bind(1, id)
                    insert.bind(2, s.formID)
                    insert.bind(3, s.revision)
                    insert.bind(4, s.idempotencyKey)
                    insert.bind(5, s.receivedAt)
                    insert.bind(6, now)
                    insert.bind(7, s.values)
                    guard insert.step() == SQLITE_DONE else { throw StoreError("SQLite: \(String(cString: sqlite3_errmsg(writer)))") }
                    if sqlite3_changes(writer) == 1 {
                        // The files in the same transaction: a submission is acknowledged with its files or not at all.
                        for file in s.files {
                            insertFile.reset()
                            insertFile.bind(1, id)
                            insertFile.bind(2, file.field)
                            insertFile.bind(3, file.name)
                            insertFile.bind(4, file.type)
                            insertFile.bind(5, Int64(file.size))
                            insertFile.bind(6, file.sha256)
                            insertFile.bind(7, blob: file.content)
                            guard insertFile.step() == SQLITE_DONE else {
                                throw StoreError("SQLite: \(String(cString: sqlite3_errmsg(writer)))")
                            }
                        }
                        stored.append(
                            StoredSubmission(
                                id: id, formID: s.formID, revision: s.revision, values: s.values, idempotencyKey: s.idempotencyKey,
                                receivedAt: s.receivedAt, created: true))
                        continue
                    }
                    existing.reset()
                    existing.bind(1, s.formID)
                    existing.bind(2, s.idempotencyKey)
                    guard existing.step() == SQLITE_ROW else { throw StoreError("SQLite: a conflicting submission could not be read") }
                    stored.append(
                        StoredSubmission(
                            id: existing.text(0), formID: s.formID, revision: existing.text(1), values: existing.text(2),
                            idempotencyKey: s.idempotencyKey, receivedAt: sqlite3_column_double(existing.handle, 3), created: false))
                }
            }
            try WriterStatements.run(statements.commit, writer)
            commits += 1
            committedSubmissions += stored.filter(\.created).count
            return stored.map { .success($0) }
        } catch {
            try? WriterStatements.run(statements.rollback, writer)
            return batch.map { _ in .failure(error) }
        }
    }

    public func file(formID: String, submissionID: String, field: String) async throws(StoreError) -> StoredFile? {
        readLock.lock()
        defer { readLock.unlock() }
        let s = try Statement(
            reader,
            """
            SELECT f.field, f.name, f.type, f.size, f.sha256, f.content FROM files f JOIN submissions s ON s.id = f.submission_id
            WHERE s.form_id = ?1 AND f.submission_id = ?2 AND f.field = ?3;
            """)
        s.bind(1, formID)
        s.bind(2, submissionID)
        s.bind(3, field)
        guard s.step() == SQLITE_ROW else { return nil }
        return StoredFile(
            field: s.text(0), name: s.text(1), type: s.text(2), size: Int(sqlite3_column_int64(s.handle, 3)), sha256: s.text(4),
            content: s.blob(5))
    }

    public func files(formID: String, submissionID: String) async throws(StoreError) -> [StoredFile] {
        readLock.lock()
        defer { readLock.unlock() }
        let s = try Statement(
            reader,
            """
            SELECT f.field, f.name, f.type, f.size, f.sha256 FROM files f JOIN submissions s ON s.id = f.submission_id
            WHERE s.form_id = ?1 AND f.submission_id = ?2 ORDER BY f.field;
            """)
        s.bind(1, formID)
        s.bind(2, submissionID)
        var out: [StoredFile] = []
        while s.step() == SQLITE_ROW {
            out.append(
                StoredFile(
                    field: s.text(0), name: s.text(1), type: s.text(2), size: Int(sqlite3_column_int64(s.handle, 3)), sha256: s.text(4),
                    content: []))
        }
        return out
    }

    public func submission(formID: String, id: String) async throws(StoreError) -> StoredSubmission? {
        readLock.lock()
        defer { readLock.unlock() }
        let s = try Statement(
            reader,
            "SELECT id, form_id, revision, submission_values, idempotency_key, received_at FROM submissions WHERE form_id = ?1 AND id = ?2;"
        )
        s.bind(1, formID)
        s.bind(2, id)
        guard s.step() == SQLITE_ROW else { return nil }
        return Self.row(s)
    }

    public func list(formID: String, after: Int64, limit: Int) async throws(StoreError) -> [(sequence: Int64, submission: StoredSubmission)]
    {
        readLock.lock()
        defer { readLock.unlock() }
        let s = try Statement(
            reader,
            """
            SELECT id, form_id, revision, submission_values, idempotency_key, received_at, sequence FROM submissions
            WHERE form_id = ?1 AND sequence > ?2 ORDER BY sequence LIMIT ?3;
            """)
        s.bind(1, formID)
        sqlite3_bind_int64(s.handle, 2, after)
        sqlite3_bind_int64(s.handle, 3, Int64(limit))
        var out: [(Int64, StoredSubmission)] = []
        while true {
            let status = s.step()
            if status == SQLITE_DONE { break }
            guard status == SQLITE_ROW else { throw StoreError("SQLite: \(String(cString: sqlite3_errmsg(reader)))") }
            out.append((sqlite3_column_int64(s.handle, 6), Self.row(s)))
        }
        return out
    }

    static func row(_ s: Statement) -> StoredSubmission {
        StoredSubmission(
            id: s.text(0), formID: s.text(1), revision: s.text(2), values: s.text(3),
            idempotencyKey: sqlite3_column_type(s.handle, 4) == SQLITE_NULL ? nil : s.text(4),
            receivedAt: sqlite3_column_double(s.handle, 5), created: false)
    }

    /// The form ids that have submissions.
    public func formIDs() throws(StoreError) -> [String] {
        readLock.lock()
        defer { readLock.unlock() }
        let s = try Statement(reader, "SELECT DISTINCT form_id FROM submissions ORDER BY form_id;")
        var out: [String] = []
        while s.step() == SQLITE_ROW { out.append(s.text(0)) }
        return out
    }

    // MARK: Drafts and revisions

    /// Runs `body` in one immediate transaction on the drafts' connection.
    private func drafting<T>(_ body: (OpaquePointer) throws(StoreError) -> T) throws(StoreError) -> T {
        draftLock.lock()
        defer { draftLock.unlock() }
        try Self.execute(draftWriter, "BEGIN IMMEDIATE;")
        do throws(StoreError) {
            let result = try body(draftWriter)
            try Self.execute(draftWriter, "COMMIT;")
            return result
        } catch {
            try? Self.execute(draftWriter, "ROLLBACK;")
            throw error
        }
    }

    private func check(_ status: Int32, _ db: OpaquePointer) throws(StoreError) {
        guard status == SQLITE_DONE || status == SQLITE_ROW else { throw StoreError("SQLite: \(String(cString: sqlite3_errmsg(db)))") }
    }

    public func saveDraft(_ draft: Draft) async throws(StoreError) -> Draft {
        try drafting { (db) throws(StoreError) -> Draft in
            let upsert = try Statement(
                db,
                """
                INSERT INTO drafts (form_id, key, revision, saved_at, expires_at, draft_values) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
                ON CONFLICT (form_id, key) DO UPDATE SET revision = excluded.revision, saved_at = excluded.saved_at,
                    expires_at = excluded.expires_at, draft_values = excluded.draft_values
                WHERE drafts.submission_id IS NULL;
                """)
            upsert.bind(1, draft.formID)
            upsert.bind(2, draft.key)
            upsert.bind(3, draft.revision)
            upsert.bind(4, draft.savedAt)
            upsert.bind(5, draft.expiresAt)
            upsert.bind(6, draft.values)
            try check(upsert.step(), db)
            guard let stored = try Self.readDraft(db, formID: draft.formID, key: draft.key) else {
                throw StoreError("SQLite: a saved draft could not be read back")
            }
            return stored
        }
    }

    static func readDraft(_ db: OpaquePointer, formID: String, key: String) throws(StoreError) -> Draft? {
        let s = try Statement(
            db,
            "SELECT revision, draft_values, saved_at, expires_at, submission_id FROM drafts WHERE form_id = ?1 AND key = ?2;")
        s.bind(1, formID)
        s.bind(2, key)
        guard s.step() == SQLITE_ROW else { return nil }
        return Draft(
            key: key, formID: formID, revision: s.text(0), values: s.text(1), savedAt: sqlite3_column_double(s.handle, 2),
            expiresAt: sqlite3_column_double(s.handle, 3), submissionID: sqlite3_column_type(s.handle, 4) == SQLITE_NULL ? nil : s.text(4))
    }

    public func draft(formID: String, key: String) async throws(StoreError) -> Draft? {
        readLock.lock()
        defer { readLock.unlock() }
        return try Self.readDraft(reader, formID: formID, key: key)
    }

    public func finishDraft(formID: String, key: String, submissionID: String) async throws(StoreError) {
        try drafting { (db) throws(StoreError) in
            let s = try Statement(db, "UPDATE drafts SET submission_id = ?3, draft_values = '{}' WHERE form_id = ?1 AND key = ?2;")
            s.bind(1, formID)
            s.bind(2, key)
            s.bind(3, submissionID)
            try check(s.step(), db)
        }
    }

    public func purgeDrafts(expiredBefore time: Double) async throws(StoreError) -> Int {
        try drafting { (db) throws(StoreError) -> Int in
            let s = try Statement(db, "DELETE FROM drafts WHERE expires_at < ?1;")
            s.bind(1, time)
            try check(s.step(), db)
            return Int(sqlite3_changes(db))
        }
    }

    public func recordRevision(_ revision: FormRevision) async throws(StoreError) {
        try drafting { (db) throws(StoreError) in
            let s = try Statement(
                db, "INSERT INTO revisions (form_id, revision, document, first_seen) VALUES (?1, ?2, ?3, ?4) ON CONFLICT DO NOTHING;")
            s.bind(1, revision.formID)
            s.bind(2, revision.revision)
            s.bind(3, revision.document)
            s.bind(4, revision.firstSeen)
            try check(s.step(), db)
        }
    }

    public func revisions(formID: String) async throws(StoreError) -> [FormRevision] {
        readLock.lock()
        defer { readLock.unlock() }
        let s = try Statement(
            reader, "SELECT revision, document, first_seen FROM revisions WHERE form_id = ?1 ORDER BY first_seen, rowid;")
        s.bind(1, formID)
        var out: [FormRevision] = []
        while true {
            let status = s.step()
            if status == SQLITE_DONE { break }
            try check(status, reader)
            out.append(
                FormRevision(formID: formID, revision: s.text(0), document: s.text(1), firstSeen: sqlite3_column_double(s.handle, 2)))
        }
        return out
    }

    public func close() async {
        queue.lock()
        let writer = closed ? nil : thread
        closed = true
        thread = nil
        queue.signal()
        queue.unlock()
        writer?.join()
    }
}

/// A prepared statement, finalized when released.
final class Statement {
    let handle: OpaquePointer

    init(_ db: OpaquePointer, _ sql: String) throws(StoreError) {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw StoreError("SQLite: \(String(cString: sqlite3_errmsg(db)))")
        }
        handle = statement
    }

    deinit { sqlite3_finalize(handle) }

    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    func step() -> Int32 { sqlite3_step(handle) }

    func bind(_ index: Int32, _ text: String?) {
        guard let text else {
            sqlite3_bind_null(handle, index)
            return
        }
        sqlite3_bind_text(handle, index, text, -1, fw_sqlite_transient())
    }

    func bind(_ index: Int32, _ value: Double) { sqlite3_bind_double(handle, index, value) }
    func bind(_ index: Int32, _ value: Int64) { sqlite3_bind_int64(handle, index, value) }
    func bind(_ index: Int32, blob: [UInt8]) {
        blob.withUnsafeBytes {
            sqlite3_bind_blob64(handle, index, $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1), UInt64($0.count), fw_sqlite_transient())
        }
    }

    func blob(_ column: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let bytes = sqlite3_column_blob(handle, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: bytes, count: count))
    }

    func text(_ column: Int32) -> String {
        guard let bytes = sqlite3_column_text(handle, column) else { return "" }
        return String(cString: bytes)
    }
}

enum WallClock {
    static var seconds: Double {
        var t = timespec()
        clock_gettime(CLOCK_REALTIME, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}
