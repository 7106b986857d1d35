// An app of its own that also takes two Formwork forms: its routes, and the forms' pages, posts and JSON API
// mounted beside them. Build: `swift build --product formwork-example-server`; run it from the repository root
// (`.build/debug/formwork-example-server`), then open http://127.0.0.1:8090/. See docs/server.md.
import FormworkHummingbird
import FormworkServer
import Hummingbird
import Logging

@main
struct ExampleServer {
    static func main() async throws {
        let logger = Logger(label: "example")
        // The two forms; cells run in cell hosts started from the installed (here: built) `formwork`.
        let site = try FormSite(
            forms: ["Examples/Forms/login.yaml", "Examples/Forms/signup.yaml"], storePath: "example-submissions.sqlite",
            cellHost: ".build/debug/formwork", packPaths: [".build/debug"], logger: logger)
        let router = Router()
        // The app's own pages.
        router.get("/about") { _, _ in "An app that also collects two forms.\n" }
        // GET / (the forms), /forms/{id} (page and post), /api/forms/{id}/submissions, /openapi.json, /healthz.
        FormworkRoutes.add(to: router, service: site.service, limits: SubmissionLimits())
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 8090)), logger: logger)
        try await app.runService()
        // After a graceful stop: what the store holds is committed, the cell hosts end.
        await site.stop()
    }
}
