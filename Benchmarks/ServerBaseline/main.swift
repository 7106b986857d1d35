// The ceiling of a Hummingbird 2 server on this machine: one route that returns a fixed string, built and run as
// `formwork serve` is (release, HTTP/1.1, the same event loops). Benchmarks/server-bench measures `formwork serve`
// against it in the same run.
import Hummingbird

@main
struct ServerBaseline {
    static func main() async throws {
        let port = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 8081 : 8081
        let router = Router()
        router.get("/") { _, _ in "Hello, world\n" }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)))
        try await app.runService()
    }
}
