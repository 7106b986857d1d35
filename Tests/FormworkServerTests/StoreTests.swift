import CSQLite
import Crypto
import Foundation
import FormworkCore
import FormworkTestSupport
import Logging
import Testing

@testable import FormworkServer

/// Where the store suite runs: SQLite always; PostgreSQL when `scripts/with-postgres` started one
/// (`FORMWORK_TEST_POSTGRES`; `scripts/test` runs the suite that way).
enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite, postgres
    var testDescription: String { rawValue }

    static var postgresURL: String? { ProcessInfo.processInfo.environment["FORMWORK_TEST_POSTGRES"] }
    static var available: [StoreKind] { postgresURL == nil ? [.sqlite] : [.sqlite, .postgres] }

    func make(_ name: String) async throws -> any SubmissionStore {
        switch self {
        case .sqlite:
            let path = "\(Scratch.directory)/store-\(name).sqlite"
            for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
            return try SQLiteStore(path: path)
        case .postgres:
            var logger = Logger(label: "test")
            logger.logLevel = .critical
            return try await PostgresStore(url: Self.postgresURL!, logger: logger)
        }
    }

    /// Transactions and submissions the store committed.
    static func commits(_ store: any SubmissionStore) async -> (transactions: Int, submissions: Int) {
        if let s = store as? SQLiteStore { return (s.commits, s.committedSubmissions) }
        if let s = store as? PostgresStore { return (await s.commits, await s.committedSubmissions) }
        return (0, 0)
    }
}

// One test at a time: they share one PostgreSQL. On a loaded CI machine the drafts test's statements once went
// unanswered past their 5 s deadline, most likely while the migration test's CREATE DATABASE (a checkpoint) ran.
@Suite("Submission stores", .serialized)
struct StoreTests {
    /// A form id of the test's own (the PostgreSQL database is shared by the tests of a run).
    func form(_ name: String) -> String { "\(name)-\(UInt64.random(in: 0...UInt64.max))" }

    func submission(_ form: String, _ i: Int, key: String? = nil) -> NewSubmission {
        NewSubmission(formID: form, revision: "r1", values: #"{"n": \#(i)}"#, idempotencyKey: key, receivedAt: 1_700_000_000 + Double(i))
    }

    @Test(
        "files are stored with their submission, read back byte for byte, and stored once for a repeated insert",
        arguments: StoreKind.available)
    func files(kind: StoreKind) async throws {
        let store = try await kind.make("files")
        let form = form("files")
        let content: [UInt8] = Array("%PDF-1.4\n".utf8) + (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let file = StoredFile(
            field: "documents.cv", name: "cv é.pdf", type: "application/pdf", size: content.count, sha256: "ab12", content: content)
        var new = submission(form, 1, key: "files-key")
        new.files = [file]
        let first = try await store.insert(new)
        let again = try await store.insert(new)
        #expect(first.created && !again.created && first.id == again.id)
        let read = try await store.file(formID: form, submissionID: first.id, field: "documents.cv")
        #expect(read == file)
        let listed = try await store.files(formID: form, submissionID: first.id)
        #expect(listed.map(\.name) == ["cv é.pdf"] && listed.allSatisfy { $0.content.isEmpty && $0.size == content.count })
        // Another form's id, another field, another submission: nothing.
        #expect(try await store.file(formID: form + "x", submissionID: first.id, field: "documents.cv") == nil)
        #expect(try await store.file(formID: form, submissionID: first.id, field: "photo") == nil)
        let other = try await store.insert(submission(form, 2))
        #expect(try await store.files(formID: form, submissionID: other.id).isEmpty)
        await store.close()
    }

    @Test("concurrent inserts are committed in batches (fewer commits than inserts), every one stored once", arguments: StoreKind.available)
    func groupCommit(kind: StoreKind) async throws {
        let store = try await kind.make("group")
        let form = form("group")
        let ids = try await withThrowingTaskGroup(of: String.self) { group in
            for i in 0..<400 { group.addTask { try await store.insert(self.submission(form, i, key: "k\(i)")).id } }
            var out: [String] = []
            for try await id in group { out.append(id) }
            return out
        }
        #expect(Set(ids).count == 400)
        let commits = await StoreKind.commits(store)
        #expect(commits.submissions == 400)
        #expect(commits.transactions < 400, "every insert committed on its own: no group commit")
        let listed = try await store.list(formID: form, after: 0, limit: 1000)
        #expect(listed.count == 400)
        #expect(listed.map(\.sequence) == listed.map(\.sequence).sorted())
        await store.close()
    }

    @Test(
        "an idempotency key stores once, even when both inserts are in the same batch; another form's same key is its own",
        arguments: StoreKind.available)
    func idempotency(kind: StoreKind) async throws {
        let store = try await kind.make("idempotent")
        let form = form("idempotent"), other = form + "-other"
        async let a = store.insert(submission(form, 1, key: "same"))
        async let b = store.insert(submission(form, 2, key: "same"))
        let (first, second) = try await (a, b)
        #expect(first.id == second.id)
        #expect([first.created, second.created].filter { $0 }.count == 1)
        #expect(try await store.insert(submission(other, 3, key: "same")).created)
        #expect(try await store.insert(submission(form, 4)).created)
        #expect(try await store.insert(submission(form, 5)).created)
        #expect(try await store.list(formID: form, after: 0, limit: 10).count == 3)
        let read = try await store.submission(formID: form, id: first.id)
        #expect(read?.values == first.values)
        #expect(read?.idempotencyKey == "same")
        #expect(try await store.submission(formID: other, id: first.id) == nil)
        await store.close()
    }

    @Test(
        "drafts: saved, replaced, read, finished once (a finished draft is not replaced), purged after expiry; revisions kept once",
        arguments: StoreKind.available)
    func draftsAndRevisions(kind: StoreKind) async throws {
        let store = try await kind.make("drafts")
        let form = form("drafts")
        let draft = Draft(key: "k1", formID: form, revision: "r1", values: #"{"name":"Ada"}"#, savedAt: 100, expiresAt: 200)
        #expect(try await store.saveDraft(draft) == draft)
        var replaced = draft
        replaced.values = #"{"name":"Ada King"}"#
        replaced.revision = "r2"
        #expect(try await store.saveDraft(replaced).values == replaced.values)
        #expect(try await store.draft(formID: form, key: "k1")?.revision == "r2")
        #expect(try await store.draft(formID: form + "-other", key: "k1") == nil)
        try await store.finishDraft(formID: form, key: "k1", submissionID: "s1")
        let finished = try #require(try await store.draft(formID: form, key: "k1"))
        #expect(finished.submissionID == "s1" && finished.values == "{}")
        // A finished draft stays as it is: saving it again returns it, finished.
        #expect(try await store.saveDraft(replaced).submissionID == "s1")
        _ = try await store.saveDraft(Draft(key: "k2", formID: form, revision: "r1", values: "{}", savedAt: 100, expiresAt: 150))
        #expect(try await store.purgeDrafts(expiredBefore: 175) >= 1)
        #expect(try await store.draft(formID: form, key: "k2") == nil)
        #expect(try await store.draft(formID: form, key: "k1") != nil)
        for revision in ["r1", "r2", "r1"] {
            try await store.recordRevision(
                FormRevision(formID: form, revision: revision, document: "doc \(revision)", firstSeen: revision == "r1" ? 1 : 2))
        }
        let revisions = try await store.revisions(formID: form)
        #expect(revisions.map(\.revision) == ["r1", "r2"])
        #expect(revisions.first?.document == "doc r1")
        await store.close()
    }

    @Test("secure values are taken out of objects too, and only the secure field's: the same name elsewhere is kept")
    func secureValuesInObjects() throws {
        let document = """
            {"formwork": 1, "id": "accounts", "sections": [
              {"id": "me", "fields": [{"id": "secret", "cell": "org.formwork.text-field", "model": {"title": "Motto"}}]},
              {"id": "acct", "object": "account", "fields": [
                {"id": "user", "cell": "org.formwork.text-field", "model": {"title": "User"}},
                {"id": "secret", "cell": "org.formwork.text-field", "model": {"title": "Password"}, "textInput": {"secure": true}}]}]}
            """
        let form = try FormDecoder.decode(text: document, json: true, registry: firstPartyRegistry())
        let values = JSON.parse(#"{"secret": "carpe diem", "account": {"user": "ada", "secret": "hunter2"}}"#)!
        let kept = FormService.withoutSecureValues(values, of: form).serialized(pretty: false)
        #expect(!kept.contains("hunter2"), "\(kept)")
        #expect(kept.contains("carpe diem") && kept.contains("ada"), "\(kept)")
    }

    @Test("secure values are taken out of repeated groups' items too (a refused page, a draft)")
    func secureValuesInItems() throws {
        let document = """
            {"formwork": 1, "id": "accounts", "sections": [
              {"id": "me", "fields": [{"id": "pin", "cell": "org.formwork.text-field", "model": {"title": "PIN"}, "textInput": {"secure": true}}]},
              {"id": "logins", "repeat": true, "fields": [
                {"id": "site", "cell": "org.formwork.text-field", "model": {"title": "Site"}},
                {"id": "secret", "cell": "org.formwork.text-field", "model": {"title": "Password"}, "textInput": {"secure": true}}]}]}
            """
        let form = try FormDecoder.decode(text: document, json: true, registry: firstPartyRegistry())
        let values = JSON.parse(#"{"pin": "1234", "logins": [{"site": "a.example", "secret": "hunter2"}, {"site": "b.example"}]}"#)!
        let kept = FormService.withoutSecureValues(values, of: form).serialized(pretty: false)
        #expect(!kept.contains("1234") && !kept.contains("hunter2"))
        #expect(kept.contains("a.example") && kept.contains("b.example"))
    }

    @Test("SQLite: the file is the owner's alone, and a file from a newer schema is refused with a clear message")
    func sqliteFileAndSchema() async throws {
        let path = "\(Scratch.directory)/store-schema.sqlite"
        for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
        let store = try SQLiteStore(path: path)
        _ = try await store.insert(submission("f", 1))
        await store.close()
        var info = stat()
        stat(path, &info)
        #expect(info.st_mode & 0o077 == 0)
        var db: OpaquePointer?
        sqlite3_open(path, &db)
        sqlite3_exec(db, "PRAGMA user_version=99;", nil, nil, nil)
        sqlite3_close(db)
        #expect {
            _ = try SQLiteStore(path: path)
        } throws: { error in
            "\(error)".contains("schema version 99") && "\(error)".contains(path)
        }
    }

    @Test("SQLite: a store that cannot be opened says which file and why")
    func sqliteUnopenable() {
        #expect {
            _ = try SQLiteStore(path: "/nonexistent-folder/x.sqlite")
        } throws: { error in
            "\(error)".contains("/nonexistent-folder/x.sqlite") && "\(error)".contains("cannot open")
        }
    }

    @Test("PostgreSQL: a bad URL, or a server that does not answer, is one clear line without the password")
    func postgresUnreachable() async throws {
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        await #expect {
            _ = try await PostgresStore(url: "mysql://x", logger: logger)
        } throws: { error in
            "\(error)".contains("not a postgres:// URL")
        }
        await #expect {
            _ = try await PostgresStore(url: "postgres://ada:s3cret-pw@127.0.0.1:1/formwork", logger: logger)
        } throws: { error in
            !"\(error)".contains("s3cret-pw") && "\(error)".contains("PostgreSQL")
        }
        #expect(PostgresStore.redacted("postgres://ada:s3cret@db:5432/f") == "postgres://ada:***@db:5432/f")
    }

    @Test(
        "PostgreSQL: instances starting together migrate once; a database of a newer schema is refused",
        .enabled(if: StoreKind.postgresURL != nil))
    func postgresMigrations() async throws {
        // A database of its own: the other tests share the run's database, and a newer schema there would refuse them.
        let shared = StoreKind.postgresURL!
        let name = "formwork_migrations_\(getpid())"
        let server = String(shared[..<shared.lastIndex(of: "/")!])
        _ = try run("/usr/bin/psql", [server + "/postgres", "-c", "DROP DATABASE IF EXISTS \(name)"])
        let created = try run("/usr/bin/psql", [server + "/postgres", "-c", "CREATE DATABASE \(name)"])
        #expect(created.status == 0, "\(created.stderr)")
        let url = server + "/" + name
        var quiet = Logger(label: "test")
        quiet.logLevel = .critical
        let logger = quiet
        let stores = try await withThrowingTaskGroup(of: PostgresStore.self) { group in
            for _ in 0..<4 { group.addTask { try await PostgresStore(url: url, logger: logger) } }
            var out: [PostgresStore] = []
            for try await store in group { out.append(store) }
            return out
        }
        for store in stores { await store.close() }
        let psql = try run("/usr/bin/psql", [url, "-tAc", "SELECT version FROM formwork_schema"])
        #expect(psql.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == String(PostgresStore.migrations.count))
        _ = try run("/usr/bin/psql", [url, "-c", "UPDATE formwork_schema SET version = 99"])
        await #expect {
            _ = try await PostgresStore(url: url, logger: logger)
        } throws: { error in
            "\(error)".contains("schema version 99")
        }
    }
}

@Suite("Form tokens")
struct TokenTests {
    @Test("base64url round-trips every length and agrees with Foundation's base64 (RFC 4648 §5, no padding)")
    func base64url() {
        for count in 0..<70 {
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255) }
            let text = FormTokens.base64url(bytes)
            let foundation = Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            #expect(text == foundation)
            #expect(FormTokens.unbase64url(text) == bytes)
        }
        #expect(FormTokens.unbase64url("ab!c") == nil)
        // Leftover bits are zero in the one canonical text: "AB" and "AC" would decode to the same byte otherwise.
        #expect(FormTokens.unbase64url("AA") == [0])
        #expect(FormTokens.unbase64url("AB") == nil)
        // Every character of a token's signature matters.
        let tokens = FormTokens(secret: Array(repeating: 3, count: 32), lifetime: 60)
        let token = tokens.issue(formID: "f", cookie: "c", now: 1000)
        for i in token.indices.suffix(43) {
            for replacement in ["A", "B", "Q", "g", "w", "-"] where String(token[i]) != replacement {
                var changed = token
                changed.replaceSubrange(i...i, with: replacement)
                #expect(tokens.verify(changed, formID: "f", cookie: "c", now: 1001) == .forged, "\(changed)")
            }
        }
        #expect(FormTokens.unbase64url("a") == nil)
    }

    @Test("a token verifies for its form and cookie only, and expires")
    func verify() {
        let tokens = FormTokens(secret: Array(repeating: 1, count: 32), lifetime: 60)
        let token = tokens.issue(formID: "a.b", cookie: "c1", now: 1000)
        guard case .valid = tokens.verify(token, formID: "a.b", cookie: "c1", now: 1010) else {
            Issue.record("a fresh token was refused")
            return
        }
        #expect(tokens.verify(token, formID: "a.b", cookie: "c2", now: 1010) == .forged)
        #expect(tokens.verify(token, formID: "a", cookie: "c1", now: 1010) == .forged)
        #expect(tokens.verify(token, formID: "a.b", cookie: "c1", now: 1100) == .expired)
        #expect(FormTokens(secret: Array(repeating: 2, count: 32)).verify(token, formID: "a.b", cookie: "c1", now: 1010) == .forged)
        #expect(tokens.verify(String(repeating: "x", count: 600), formID: "a.b", cookie: "c1") == .forged)
    }

    @Test("a token's signature is HMAC-SHA256 with the secret, from threads at once; random bytes are never handed out twice")
    func signatureAndRandomness() async throws {
        let secret = Array((0..<32).map { UInt8($0) })
        let tokens = FormTokens(secret: secret)
        // Signed from many threads at once from the one keyed state: each signature is the standard one.
        let signed = await withTaskGroup(of: String.self) { group in
            for i in 0..<64 { group.addTask { tokens.issue(formID: "f\(i)", cookie: "c\(i)", now: 1000) } }
            return await group.reduce(into: [String]()) { $0.append($1) }
        }
        for token in signed {
            let parts = token.split(separator: ".")
            let body = parts[0..<4].joined(separator: ".")
            let formID = String(decoding: try #require(FormTokens.unbase64url(String(parts[1]))), as: UTF8.self)
            let cookie = "c" + formID.dropFirst()
            let expected = HMAC<SHA256>.authenticationCode(for: Array((body + "|" + cookie).utf8), using: SymmetricKey(data: secret))
            #expect(FormTokens.unbase64url(String(parts[4])) == Array(expected))
            #expect(tokens.verify(token, formID: formID, cookie: cookie, now: 1001) == .valid(nonce: String(parts[3])))
        }
        #expect(FormTokens.same([1, 2, 3], [1, 2, 3]) && !FormTokens.same([1, 2, 3], [1, 2, 4]) && !FormTokens.same([1], [1, 0]))
        // The signer is RFC 2104 over SHA256 itself: the same codes as swift-crypto's HMAC for keys shorter than,
        // as long as and longer than the hash's 64-byte block, and messages across the block's edges.
        for keyLength in [32, 63, 64, 65, 100, 200] {
            let key = (0..<keyLength).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ keyLength) }
            let signer = FormTokens.Signer(secret: key)
            for messageLength in [0, 1, 55, 56, 63, 64, 65, 119, 120, 128, 200, 1000] {
                let message = (0..<messageLength).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ messageLength) }
                #expect(
                    signer.code(message) == Array(HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: key))),
                    "key \(keyLength) bytes, message \(messageLength)")
            }
        }
        // Pool bytes: the counts asked for, none repeated across refills (16-byte draws colliding would be a broken
        // pool, not chance), and a draw larger than the pool read for itself.
        let draws = (0..<1000).map { _ in FormTokens.randomBytes(16) }
        #expect(draws.allSatisfy { $0.count == 16 } && Set(draws).count == draws.count)
        let large = FormTokens.randomBytes(10_000)
        #expect(large.count == 10_000 && Set(large).count > 200)
        #expect(Set([FormTokens.newCookie(), FormTokens.newCookie()]).count == 2)
    }
}
