import Foundation
import FormworkServer
import FormworkTestSupport
import Testing

/// `formwork serve` as a user runs it: a real process on a free port of 127.0.0.1, driven over HTTP.
@Suite("formwork serve, the process", .serialized)
struct ProcessTests {
    @Test("serves, stores, and stops on SIGTERM after the requests in flight are answered and committed")
    func serveAndDrain() async throws {
        let folder = try formsFolder("drain", forms: ["signup.yaml", "login.yaml"])
        let server = try ServeProcess([folder])
        let index = try await server.request(.GET, "/")
        #expect(index.status == 200)
        #expect(index.body.contains("/forms/signup"))
        #expect(try await server.request(.GET, "/healthz").status == 200)
        let metrics = try await server.request(.GET, "/metrics")
        #expect(metrics.status == 200)
        // A burst of submissions, and SIGTERM while they are in flight: every one answered 201 is stored.
        let acknowledged = try await withThrowingTaskGroup(of: String?.self) { group in
            for i in 0..<40 {
                group.addTask {
                    let response = try? await server.request(
                        .POST, "/api/forms/signup/submissions", body: #"{"name": "Ada \#(i)", "email": "ada@example.com", "age": 36}"#,
                        headers: [("Content-Type", "application/json")])
                    return response?.status == 201 ? response?.headers.first(name: "Location") : nil
                }
            }
            try await Task.sleep(for: .milliseconds(20))
            kill(server.process.processIdentifier, SIGTERM)
            var out: [String] = []
            for try await location in group { if let location { out.append(location) } }
            return out
        }
        server.process.waitUntilExit()
        #expect(server.process.terminationStatus == 0)
        let store = try SQLiteStore(path: "\(folder)/formwork-submissions.sqlite")
        let stored = Set(try await store.list(formID: "signup", after: 0, limit: 1000).map(\.submission.id))
        for location in acknowledged { #expect(stored.contains(String(location.split(separator: "/").last!))) }
        await store.close()
    }

    @Test("kill -9 in the middle of a load: every submission answered 201 is in the store afterwards, none twice")
    func durableAcrossKill() async throws {
        let folder = try formsFolder("kill", forms: ["signup.yaml"])
        let server = try ServeProcess([folder])
        let start = Date()
        let acknowledged = try await withThrowingTaskGroup(of: [(String, String)].self) { group in
            for client in 0..<16 {
                group.addTask {
                    var mine: [(String, String)] = []
                    var n = 0
                    while Date().timeIntervalSince(start) < 6 {
                        n += 1
                        let key = "c\(client)-\(n)"
                        guard
                            let response = try? await server.request(
                                .POST, "/api/forms/signup/submissions", body: #"{"name": "Ada", "email": "ada@example.com", "age": 36}"#,
                                headers: [("Content-Type", "application/json"), ("Idempotency-Key", key)])
                        else { break }
                        if response.status == 201, let location = response.headers.first(name: "Location") {
                            mine.append((key, String(location.split(separator: "/").last!)))
                        }
                    }
                    return mine
                }
            }
            // Killed after 3 s of load: a loaded CI machine acknowledged only 16 submissions in 1.5 s once.
            try await Task.sleep(for: .milliseconds(3000))
            kill(server.process.processIdentifier, SIGKILL)
            var all: [(String, String)] = []
            for try await part in group { all += part }
            return all
        }
        server.process.waitUntilExit()
        #expect(acknowledged.count > 10, "the load acknowledged too few submissions to mean anything")
        let store = try SQLiteStore(path: "\(folder)/formwork-submissions.sqlite")
        let rows = try await store.list(formID: "signup", after: 0, limit: 1_000_000).map(\.submission)
        let byID = Dictionary(rows.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        for (key, id) in acknowledged { #expect(byID[id]?.idempotencyKey == "api:" + key) }
        let keys = rows.compactMap(\.idempotencyKey)
        #expect(Set(keys).count == keys.count)
        await store.close()
    }

    @Test("a page goes out in one write: head and body together, each response one wake-up of the client")
    func oneWriteAResponse() async throws {
        // Hummingbird writes a response whose body is one buffer in a single batch (head, body, end); a middleware
        // that wraps the body in a closure (its own MetricsMiddleware does, to time the body's writing) made it two
        // writes, the head and then the page. Counted as the write calls of the server's event-loop threads (the
        // other threads' writes are wake-ups): about one a response, two before.
        let folder = try formsFolder("one-write", forms: ["login.yaml"])
        let server = try ServeProcess([folder])
        defer { _ = server.stop() }
        let pid = server.process.processIdentifier
        func eventLoopWrites() throws -> Int {
            let tasks = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")
            var total = 0
            for task in tasks {
                let name = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/comm", encoding: .utf8)) ?? ""
                guard name.hasPrefix("NIO-"), let io = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/io", encoding: .utf8),
                    let line = io.split(separator: "\n").first(where: { $0.hasPrefix("syscw:") }),
                    let count = Int(line.dropFirst("syscw:".count).trimmingCharacters(in: .whitespaces))
                else { continue }
                total += count
            }
            return total
        }
        #expect(try await server.request(.GET, "/forms/login").status == 200)  // the page cached, a connection open
        let before = try eventLoopWrites()
        for _ in 0..<50 { #expect(try await server.request(.GET, "/forms/login").status == 200) }
        let writes = try eventLoopWrites() - before
        #expect(writes >= 50 && writes <= 65, "\(writes) writes for 50 pages")
        let metrics = try await server.request(.GET, "/metrics")
        // The requests are still counted, per route, method and status, under Hummingbird's names.
        let counted = metrics.body.split(separator: "\n").filter { $0.hasPrefix("hb_requests") }
        #expect(
            counted.contains {
                $0.contains(#"http_route="/forms/{form}""#) && $0.contains(#"http_request_method="GET""#) && $0.hasSuffix(" 51")
            },
            "\(counted)")
        #expect(metrics.body.contains(#"http_server_request_duration_count{http_route="/forms/{form}""#))
    }

    @Test("a document edited on disk is served in its new version; an edit that does not decode keeps the last good one")
    func reload() async throws {
        let folder = try formsFolder("reload", forms: ["login.yaml"])
        let server = try ServeProcess([folder])
        defer { _ = server.stop() }
        let path = "\(folder)/login.yaml"
        let original = try String(contentsOfFile: path, encoding: .utf8)
        #expect(try await server.request(.GET, "/forms/login").body.contains("<h1>Sign in</h1>"))
        try original.replacingOccurrences(of: "title: Sign in", with: "title: Welcome back").write(
            toFile: path, atomically: true, encoding: .utf8)
        try await Task.sleep(for: .milliseconds(1200))
        let edited = try await server.request(.GET, "/forms/login")
        #expect(edited.body.contains("<h1>Welcome back</h1>"))
        try (original + "\n  - this is: [not a form").write(toFile: path, atomically: true, encoding: .utf8)
        try await Task.sleep(for: .milliseconds(1200))
        let broken = try await server.request(.GET, "/forms/login")
        #expect(broken.status == 200)
        #expect(broken.body.contains("<h1>Welcome back</h1>"))
        try
            "formwork: 1\nid: added\ntitle: Added later\nsections: [{id: s, fields: [{id: a, cell: org.formwork.text-field, model: {title: A}}]}]\n"
            .write(toFile: "\(folder)/added.yaml", atomically: true, encoding: .utf8)
        try await Task.sleep(for: .milliseconds(1200))
        #expect(try await server.request(.GET, "/forms/added").status == 200)
    }

    @Test("a client that sends half a request is disconnected after the idle timeout; the server goes on serving")
    func slowClient() async throws {
        let folder = try formsFolder("slow", forms: ["login.yaml"])
        let server = try ServeProcess([folder, "--idle-timeout", "1"])
        defer { _ = server.stop() }
        let fd = try Self.openConnection(port: server.port)
        defer { close(fd) }
        let partial = "POST /forms/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\nusername=a"
        _ = partial.withCString { send(fd, $0, strlen($0), 0) }
        let began = Date()
        var buffer = [UInt8](repeating: 0, count: 4096)
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        while recv(fd, &buffer, buffer.count, 0) > 0 {}
        #expect(Date().timeIntervalSince(began) < 5)
        #expect(try await server.request(.GET, "/healthz").status == 200)
    }

    @Test("a client that trickles a request, never silent, is cut off at the request deadline, in the head and in the body")
    func tricklingClient() async throws {
        let folder = try formsFolder("trickle", forms: ["login.yaml"])
        // The idle timeout (5 s) is longer than the request deadline (2 s): only the deadline can cut these clients off.
        // (Hummingbird's idle timer sees request parts, not bytes, so a head trickled for longer than it is cut off
        // by it too; a body sent a byte at a time is a stream of parts, which only the deadline stops.)
        let server = try ServeProcess([folder, "--idle-timeout", "5", "--request-timeout", "2"])
        defer { _ = server.stop() }
        let body = "username=ada&password=secret-enough"
        let head = "POST /forms/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(body.utf8.count)\r\n\r\n"
        for (what, prefix, trickled) in [("head", "", head), ("body", head, body + String(repeating: "x", count: 100))] {
            let fd = try Self.openConnection(port: server.port)
            defer { close(fd) }
            if !prefix.isEmpty { _ = prefix.withCString { send(fd, $0, strlen($0), 0) } }
            let began = Date()
            var cutOff = false
            for byte in trickled.utf8 {
                var one = byte
                if send(fd, &one, 1, Int32(MSG_NOSIGNAL)) < 0 { cutOff = true; break }
                // The server closes its end: a read then sees the end of the stream (or a reset).
                var probe = UInt8(0)
                let got = recv(fd, &probe, 1, Int32(MSG_DONTWAIT))
                if got == 0 || (got < 0 && errno != EAGAIN && errno != EWOULDBLOCK) { cutOff = true; break }
                if Date().timeIntervalSince(began) > 8 { break }
                try await Task.sleep(for: .milliseconds(300))
            }
            let elapsed = Date().timeIntervalSince(began)
            #expect(cutOff, "a request trickled in its \(what) was not cut off")
            #expect(elapsed > 1.5 && elapsed < 5, "cut off after \(elapsed) s, the deadline being 2 s (\(what))")
        }
        // Keep-alive: requests sent 0.8 s apart on one connection are all answered though together they outlast the
        // deadline: the clock restarts per request.
        let fd = try Self.openConnection(port: server.port)
        defer { close(fd) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        for _ in 0..<4 {
            let get = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
            _ = get.withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
            // The head and the body may come in separate reads: read until the body's end.
            var answer = ""
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !answer.hasSuffix("}\n") {
                let got = recv(fd, &buffer, buffer.count, 0)
                guard got > 0 else { break }
                answer += String(decoding: buffer[0..<got], as: UTF8.self)
            }
            #expect(answer.hasPrefix("HTTP/1.1 200") && answer.hasSuffix("}\n"), "\(answer.debugDescription.prefix(300))")
            try await Task.sleep(for: .milliseconds(800))
        }
        // The connection's one timer was set for the first request's clock and moved on since: half a head sent now
        // on the same connection is still cut off one deadline after the last response (before the 5 s idle timeout).
        let began = Date()
        _ = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n".withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
        var rest = [UInt8](repeating: 0, count: 4096)
        while recv(fd, &rest, rest.count, 0) > 0 {}
        let waited = Date().timeIntervalSince(began)
        #expect(waited > 0.5 && waited < 4, "half a head after keep-alive requests was cut off after \(waited) s (deadline 2 s)")
        #expect(try await server.request(.GET, "/healthz").status == 200)
    }

    static func openConnection(port: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(fd)
            throw POSIXError(.ECONNREFUSED)
        }
        return fd
    }

    @Test("a cell that crashes or hangs fails that request with 503 and a clear page; the server goes on serving")
    func failingCells() async throws {
        for how in ["CRASH", "HANG"] {
            let pack = try CCompiler.pack(
                "serve_hostile_\(how.lowercased())", source: Source.fixture("hostile_pack.c"),
                defines: ["HOSTILE_AT_VALUE_CHANGED", "HOSTILE_\(how)"], include: Source.include)
            let form = """
                formwork: 1
                id: risky
                title: Risky
                sections: [{id: s, fields: [{id: name, cell: org.formwork.text-field, model: {title: Name}},
                                            {id: evil, cell: com.hostile.cell, model: {title: Evil}}]}]
                """
            let folder = try formsFolder("hostile-\(how)", forms: ["login.yaml"], extra: ["risky.yaml": form])
            let server = try ServeProcess([folder, "--pack-path", (pack as NSString).deletingLastPathComponent, "--timeout", "1"])
            defer { _ = server.stop() }
            #expect(try await server.request(.GET, "/forms/risky").status == 200)
            let failed = try await server.request(
                .POST, "/api/forms/risky/submissions", body: #"{"name": "a", "evil": "b"}"#, headers: [("Content-Type", "application/json")]
            )
            #expect(failed.status == 503, "\(how): \(failed.body)")
            #expect(failed.body.contains("com.hostile.cell"))
            let fine = try await server.request(
                .POST, "/api/forms/login/submissions", body: #"{"username": "ada@example.com", "password": "pw"}"#,
                headers: [("Content-Type", "application/json")])
            #expect(fine.status == 201, "\(how): \(fine.body)")
        }
    }

    @Test("formwork submissions list and export read what was stored (JSON lines, and RFC 4180 CSV)")
    func export() async throws {
        let folder = try formsFolder("export", forms: ["signup.yaml"])
        let server = try ServeProcess([folder])
        for (i, name) in ["Ada, \"the first\"", "Grace Hopper"].enumerated() {
            let values: [String: Any] = ["name": name, "email": "e\(i)@example.com", "age": 40, "interests": ["Music"]]
            let body = String(decoding: try JSONSerialization.data(withJSONObject: values), as: UTF8.self)
            let response = try await server.request(
                .POST, "/api/forms/signup/submissions", body: body, headers: [("Content-Type", "application/json")])
            #expect(response.status == 201, "\(response.body)")
        }
        #expect(server.stop() == 0)
        let list = try run(Build.formwork, ["submissions", "list", "signup", "--forms", folder])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.split(separator: "\n").count == 2)
        let jsonl = try run(Build.formwork, ["submissions", "export", "signup", "--forms", folder, "--format", "jsonl"])
        let lines = jsonl.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        let first = try #require(JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect((first["values"] as? [String: Any])?["name"] as? String == "Ada, \"the first\"")
        let csv = try run(Build.formwork, ["submissions", "export", "signup", "--forms", folder, "--format", "csv"])
        #expect(csv.stdout.hasPrefix("id,receivedAt,revision,name,email,age,interests"))
        #expect(csv.stdout.contains("\"Ada, \"\"the first\"\"\""))
        #expect(csv.stdout.contains(",Grace Hopper,"))
        #expect(csv.stdout.contains("\"[\"\"Music\"\"]\""))
        // An object's fields are columns of their own; the values export keeps them nested.
        let nested = try formsFolder("export-objects", forms: ["shipping.yaml"])
        let shippingServer = try ServeProcess([nested])
        let stored = try await shippingServer.request(
            .POST, "/api/forms/shipping/submissions",
            body:
                #"{"name": "Ada", "billing": {"street": "Keizersgracht 1", "postcode": "1015 CJ", "city": "Amsterdam"}, "parcels": [{"name": "Books"}]}"#,
            headers: [("Content-Type", "application/json")])
        #expect(stored.status == 201, "\(stored.body)")
        #expect(shippingServer.stop() == 0)
        let objectsCSV = try run(Build.formwork, ["submissions", "export", "shipping", "--forms", nested, "--format", "csv"])
        #expect(
            objectsCSV.stdout.hasPrefix("id,receivedAt,revision,name,sameAddress,billing.street,billing.postcode,billing.city,parcels"),
            "\(objectsCSV.stdout)")
        #expect(objectsCSV.stdout.contains(",Keizersgracht 1,1015 CJ,Amsterdam,"), "\(objectsCSV.stdout)")
        let objectsJSONL = try run(Build.formwork, ["submissions", "export", "shipping", "--forms", nested])
        #expect(objectsJSONL.stdout.contains(#""billing":{"street":"Keizersgracht 1""#), "\(objectsJSONL.stdout)")
        // Usage errors of the server's commands are in `formwork`'s one style.
        for arguments in [["submissions", "export"], ["serve", "--port", "99999"]] {
            let usage = try run(Build.formwork, arguments)
            #expect(usage.status == 64)
            #expect(usage.stderr.hasPrefix("formwork: error: ") && usage.stderr.split(separator: "\n").count == 1, "\(usage.stderr)")
            #expect(usage.stderr.contains("(see 'formwork \(arguments[0])"))
        }
    }
}
