import CSQLite
import Foundation
import FormworkServer
import FormworkTestSupport
import Testing

@Suite("SQLite store")
struct StoreTests {
    func store(_ name: String) throws -> (SQLiteStore, String) {
        let path = "\(Scratch.directory)/store-\(name).sqlite"
        for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
        return (try SQLiteStore(path: path), path)
    }

    func submission(_ i: Int, key: String? = nil) -> NewSubmission {
        NewSubmission(formID: "f", revision: "r1", values: #"{"n": \#(i)}"#, idempotencyKey: key, receivedAt: 1_700_000_000 + Double(i))
    }

    @Test("concurrent inserts are committed in batches (fewer commits than inserts), every one stored once")
    func groupCommit() async throws {
        let (store, _) = try store("group")
        let ids = try await withThrowingTaskGroup(of: String.self) { group in
            for i in 0..<400 { group.addTask { try await store.insert(self.submission(i, key: "k\(i)")).id } }
            var out: [String] = []
            for try await id in group { out.append(id) }
            return out
        }
        #expect(Set(ids).count == 400)
        #expect(store.committedSubmissions == 400)
        #expect(store.commits < 400, "every insert synced on its own: no group commit")
        let listed = try await store.list(formID: "f", after: 0, limit: 1000)
        #expect(listed.count == 400)
        await store.close()
    }

    @Test("an idempotency key stores once, even when both inserts are in the same batch; another form's same key is its own")
    func idempotency() async throws {
        let (store, _) = try store("idempotent")
        async let a = store.insert(submission(1, key: "same"))
        async let b = store.insert(submission(2, key: "same"))
        let (first, second) = try await (a, b)
        #expect(first.id == second.id)
        #expect([first.created, second.created].filter { $0 }.count == 1)
        var other = submission(3, key: "same")
        other.formID = "g"
        #expect(try await store.insert(other).created)
        #expect(try await store.insert(submission(4)).created)
        #expect(try await store.insert(submission(5)).created)
        #expect(try await store.list(formID: "f", after: 0, limit: 10).count == 3)
        await store.close()
    }

    @Test("the file is the owner's alone, in WAL mode, and a file from a newer schema is refused with a clear message")
    func fileAndSchema() async throws {
        let (store, path) = try store("schema")
        _ = try await store.insert(submission(1))
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

    @Test("a store that cannot be opened says which file and why")
    func unopenable() {
        #expect {
            _ = try SQLiteStore(path: "/nonexistent-folder/x.sqlite")
        } throws: { error in
            "\(error)".contains("/nonexistent-folder/x.sqlite") && "\(error)".contains("cannot open")
        }
    }
}
