import AsyncHTTPClient
import Foundation
import FormworkTestSupport
import NIOCore
import NIOHTTP1

/// A real `formwork serve` process (the `formwork` executable, which starts `formwork-server`), on a free port of
/// 127.0.0.1, read from the line it prints when it listens.
final class ServeProcess: @unchecked Sendable {
    let process = Process()
    let port: Int
    let stderr: Pipe
    var base: String { "http://127.0.0.1:\(port)" }
    /// A client of its own whose pool has a connection for each concurrent request of a test (the shared client's
    /// 8 make further requests wait in its queue, and those still waiting when a test kills the server wait for
    /// their timeout).
    let client: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 64)
        configuration.timeout.connect = .seconds(5)
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }()

    init(_ arguments: [String], environment: [String: String] = [:]) throws {
        process.executableURL = URL(fileURLWithPath: Build.formwork)
        process.arguments = ["serve", "--port", "0", "--pack-path", Build.directory, "--log-level", "warning"] + arguments
        var env = ProcessInfo.processInfo.environment
        env["XDG_CACHE_HOME"] = "\(Scratch.directory)/serve-cache"
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe()
        stderr = Pipe()
        process.standardOutput = out
        process.standardError = stderr
        try process.run()
        // The one line on standard output: "formwork: serving N forms on http://127.0.0.1:PORT (…)".
        var line = Data()
        let deadline = Date().addingTimeInterval(60)
        while !line.contains(UInt8(ascii: "\n")) && Date() < deadline {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let range = text.range(of: "http://127.0.0.1:"), let port = Int(text[range.upperBound...].prefix { $0.isNumber }) else {
            process.terminate()
            let err = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            throw ServeFailed(description: "formwork serve did not start: \(text) \(err)")
        }
        self.port = port
    }

    struct ServeFailed: Error, CustomStringConvertible { let description: String }

    /// Sends `signal` and waits for the process to end; its exit status (or the signal's number + 128).
    func stop(_ signal: Int32 = SIGTERM) -> Int32 {
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        let status = process.terminationReason == .uncaughtSignal ? process.terminationStatus + 128 : process.terminationStatus
        // A server that ends otherwise than expected says why in its log (and, under the sanitizers, their report):
        // shown with the test's output, since a test that expects 0 prints only the number.
        if status != 0 && signal == SIGTERM {
            let log = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile().suffix(8192), as: UTF8.self)
            FileHandle.standardError.write(
                Data("formwork serve ended with status \(status) after SIGTERM; its standard error:\n\(log)\n".utf8))
        }
        return status
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        try? client.syncShutdown()
    }

    /// One request: status, headers and body.
    func request(
        _ method: HTTPMethod, _ path: String, body: String? = nil, headers: [(String, String)] = []
    ) async throws -> (status: Int, headers: HTTPHeaders, body: String) {
        var request = HTTPClientRequest(url: base + path)
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(string: body)) }
        let response = try await client.execute(request, timeout: .seconds(30))
        let bytes = try await response.body.collect(upTo: 16 << 20)
        return (Int(response.status.code), response.headers, String(buffer: bytes))
    }
}

/// A folder of the test's own with the named example forms (and any extra documents).
func formsFolder(_ name: String, forms: [String], extra: [String: String] = [:]) throws -> String {
    let folder = "\(Scratch.directory)/serve-\(name)"
    try? FileManager.default.removeItem(atPath: folder)
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    for form in forms { try FileManager.default.copyItem(atPath: "\(Source.root)/Examples/Forms/\(form)", toPath: "\(folder)/\(form)") }
    for (file, text) in extra { try text.write(toFile: "\(folder)/\(file)", atomically: true, encoding: .utf8) }
    return folder
}
