import FormworkServer
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import Prometheus
import ServiceLifecycle

/// How `formwork serve` (or an app embedding the forms) listens.
public struct ListenConfiguration: Sendable {
    /// 127.0.0.1 unless told otherwise: a server reachable from elsewhere is a choice.
    public var host: String = "127.0.0.1"
    public var port: Int = 8080
    /// Seconds a connection may stay silent (between requests, or sending a request's head or body) before it is
    /// closed.
    public var idleTimeout: Double = 15
    /// Seconds a request may take to arrive in full, head and body, counted from when the server is ready for it:
    /// a client that trickles bytes (and so is never silent) cannot hold a connection longer than this.
    public var requestTimeout: Double = 30
    public var limits = SubmissionLimits()

    public init(
        host: String = "127.0.0.1", port: Int = 8080, idleTimeout: Double = 15, requestTimeout: Double = 30,
        limits: SubmissionLimits = SubmissionLimits()
    ) {
        self.host = host
        self.port = port
        self.idleTimeout = idleTimeout
        self.requestTimeout = requestTimeout
        self.limits = limits
    }
}

/// The web runtime as a Hummingbird application: the routes, `/metrics` (Prometheus), and a graceful stop that
/// drains in-flight requests, then commits what the store holds and stops the cell lanes.
public enum FormworkApplication {
    public static func make(
        service: FormService, lanes: CellLanes, listen: ListenConfiguration, metrics: PrometheusCollectorRegistry?, logger: Logger,
        onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        let router = Router()
        router.add(middleware: RequestLogging())
        // Requests, errors and durations per route (swift-metrics, read by /metrics), the bodies left as they are made.
        router.add(middleware: RequestMetrics())
        FormworkRoutes.add(to: router, service: service, limits: listen.limits)
        if let metrics {
            router.get("/metrics") { _, _ in
                Response(
                    status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                    body: .init(byteBuffer: ByteBuffer(bytes: metrics.emitToBuffer())))
            }
        }
        let deadline = TimeAmount.milliseconds(Int64(listen.requestTimeout * 1000))
        var http = HTTP1Channel.Configuration(additionalChannelHandlers: [RequestDeadlineHandler(deadline: deadline)])
        http.idleTimeout = .milliseconds(Int64(listen.idleTimeout * 1000))
        return Application(
            router: router, server: .http1(configuration: http),
            configuration: .init(address: .hostname(listen.host, port: listen.port), serverName: "formwork"),
            services: [StopAfterServer(service: service, lanes: lanes, logger: logger)],
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? listen.port) },
            logger: logger)
    }
}

/// Runs until the server has stopped taking requests, then closes the store (what is pending is committed and
/// answered first) and stops the cell lanes.
struct StopAfterServer: Service {
    let service: FormService
    let lanes: CellLanes
    let logger: Logger

    func run() async throws {
        try? await gracefulShutdown()
        await service.store.close()
        lanes.stop()
        logger.info("store closed and cells stopped")
    }
}

/// One line per request: method, path, status, duration and the request id — never a query string, a body or a
/// header value (they may hold answers), and never a draft's token (it opens the draft's answers).
struct RequestLogging<Context: RequestContext>: RouterMiddleware {
    /// `path` with the segment after `drafts/` replaced: `/forms/f/drafts/TOKEN` → `/forms/f/drafts/…`.
    static func redacted(_ path: String) -> String {
        guard path.contains("/drafts/") else { return path }
        var parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        for i in parts.indices.dropLast() where parts[i] == "drafts" { parts[i + 1] = "…" }
        return parts.joined(separator: "/")
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        var status = 500
        defer {
            let elapsed = ContinuousClock.now - start
            context.logger.info(
                "request",
                metadata: [
                    "method": "\(request.method)", "path": "\(Self.redacted(request.uri.path))", "status": "\(status)",
                    "ms": "\(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000)",
                ])
        }
        do {
            let response = try await next(request, context)
            status = response.status.code
            return response
        } catch let error as HTTPResponseError {
            status = error.status.code
            throw error
        }
    }
}
