import Dispatch
import Hummingbird
import HTTPTypes
import Metrics
import Synchronization

/// Requests, errors and durations per route, under the names Hummingbird's `MetricsMiddleware` uses
/// (`hb.requests`, `hb.request.errors`, `http.server.request.duration`, `http.server.active_requests`), so
/// `/metrics` reads the same.
///
/// Why not Hummingbird's own: it wraps every response's body in a closure to stop its clock once the body is
/// written, and a body that is a closure loses Hummingbird's single write of head, body and end — each response
/// went out in two `write` calls (the head, then the page), each a wake-up of the event loop and a TCP segment of its
/// own. Every body this server answers with is already whole in memory, so the clock stops when the response is
/// made, and the body stays the buffer it is (docs/performance.md, "The web runtime").
struct RequestMetrics<Context: RequestContext>: RouterMiddleware {
    private let cache = Cache()

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = DispatchTime.now().uptimeNanoseconds
        let active = cache.active(request.method)
        active.increment()
        defer { active.decrement() }
        do {
            let response = try await next(request, context)
            let route = cache.route(context.endpointPath ?? "Unknown", request.method, response.status)
            route.counter.increment()
            route.timer.recordNanoseconds(Int64(DispatchTime.now().uptimeNanoseconds - start))
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status ?? .internalServerError
            let route = cache.route(context.endpointPath ?? "NotFound", request.method, status)
            route.counter.increment()
            route.errors.increment()
            throw error
        }
    }

    /// The metric objects, made once per method and per route, method and status (a metric's factory looks its
    /// label and dimensions up under a lock of its own).
    final class Cache: Sendable {
        struct Route: Sendable {
            let counter: Counter
            let timer: Metrics.Timer
            let errors: Counter
        }
        private struct Key: Hashable {
            let route: String
            let method: HTTPRequest.Method
            let status: Int
        }
        private let methods = Mutex<[HTTPRequest.Method: Meter]>([:])
        private let routes = Mutex<[Key: Route]>([:])

        func active(_ method: HTTPRequest.Method) -> Meter {
            methods.withLock { made in
                if let meter = made[method] { return meter }
                let meter = Meter(label: "http.server.active_requests", dimensions: [("http.request.method", method.description)])
                made[method] = meter
                return meter
            }
        }

        func route(_ route: String, _ method: HTTPRequest.Method, _ status: HTTPResponse.Status) -> Route {
            routes.withLock { made in
                let key = Key(route: route, method: method, status: status.code)
                if let found = made[key] { return found }
                let dimensions = [("http.route", route), ("http.request.method", method.description)]
                let code = String(status.code)
                let metrics = Route(
                    counter: Counter(label: "hb.requests", dimensions: dimensions + [("http.response.status_code", code)]),
                    timer: Metrics.Timer(
                        label: "http.server.request.duration", dimensions: dimensions + [("http.response.status_code", code)],
                        preferredDisplayUnit: .seconds),
                    errors: Counter(label: "hb.request.errors", dimensions: dimensions + [("error.type", code)]))
                made[key] = metrics
                return metrics
            }
        }
    }
}
