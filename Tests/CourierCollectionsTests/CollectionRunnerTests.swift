import CourierTestSupport
import CourierDemo
import CourierHTTP
import Foundation
import Synchronization
import Testing
@testable import CourierCollections

/// A transport double answering from a table, recording what it was sent.
private final class StubTransport: Transport, Sendable {
    private let sent = Mutex<[HTTPRequest]>([])
    private let answer: @Sendable (HTTPRequest) -> HTTPResponse

    init(answer: @escaping @Sendable (HTTPRequest) -> HTTPResponse) { self.answer = answer }

    func send(_ request: HTTPRequest, context: RequestContext) async throws(APIError) -> HTTPResponse {
        sent.withLock { $0.append(request) }
        return answer(request)
    }

    var requests: [HTTPRequest] { sent.withLock { $0 } }
}

@Suite("Running collections")
struct CollectionRunnerTests {
    static let text = """
        # @name login
        POST https://api.test/login

        ###
        # @name me
        GET https://api.test/me
        Authorization: Bearer {{login.response.body.$.token}}

        ###
        # @name broken
        GET https://api.test/{{missing}}

        ###
        # @name gone
        # @expect-status 404
        GET https://api.test/gone

        ###
        # @name fails
        GET https://api.test/fails

        ###
        # @name socket
        WEBSOCKET wss://api.test/ws
        """

    private func runner(_ transport: StubTransport) -> CollectionRunner {
        let client = HTTPClient(configuration: .init(transport: transport, retry: nil))
        return CollectionRunner(file: HTTPFile(path: "r.http", text: Self.text), baseFolder: URL(fileURLWithPath: "/"),
                                context: VariableContext(processEnvironment: [:])) { request, context async throws(APIError) in
            try await client.send(request, context: context)
        }
    }

    private static func answer(_ request: HTTPRequest) -> HTTPResponse {
        switch request.url.path {
        case "/login": HTTPResponse(status: 200, body: .data(Data(#"{"token":"t-1"}"#.utf8)), url: request.url)
        case "/gone", "/fails": HTTPResponse(status: request.url.path == "/gone" ? 404 : 500, url: request.url)
        default: HTTPResponse(status: 200, url: request.url)
        }
    }

    @Test func requestsRunInFileOrderAndNamedResponsesFeedLaterOnes() async {
        // Given a collection whose second request uses the first one's token
        let transport = StubTransport(answer: Self.answer)
        // When every request runs
        let outcomes = await runner(transport).run(HTTPFile(path: "r.http", text: Self.text).requests)
        // Then they ran in order, the token was substituted, and each outcome says what happened
        #expect(transport.requests.map(\.url.path) == ["/login", "/me", "/gone", "/fails"])
        #expect(transport.requests[1].headers["Authorization"] == "Bearer t-1")
        #expect(outcomes.map(\.template.name) == ["login", "me", "broken", "gone", "fails", "socket"])
        #expect(outcomes.map(\.succeeded) == [true, true, false, true, false, true])
        guard case .collection(.unknownVariable("missing", "broken")) = outcomes[2].failure else {
            Issue.record("expected an unknown variable failure"); return
        }
        guard case .status(500) = outcomes[4].failure else { Issue.record("expected a status failure"); return }
        #expect(outcomes[5].skipped != nil)
    }

    @Test func aRunThatNeedNotKeepEveryOutcomeKeepsOnlyThoseItLooksBackAt() async {
        // Given a runner told that its caller counts each outcome as it is reported
        let transport = StubTransport(answer: Self.answer)
        var runner = runner(transport)
        runner.keepsEveryOutcome = false
        let reported = Mutex<[String?]>([])
        // When every request runs
        let kept = await runner.runKeepingState(HTTPFile(path: "r.http", text: Self.text).requests) { outcome in
            reported.withLock { $0.append(outcome.template.name) }
        }
        // Then every outcome was reported, the token still reached `me`, and only the failed and skipped are kept
        #expect(reported.withLock { $0 } == ["login", "me", "broken", "gone", "fails", "socket"])
        #expect(transport.requests[1].headers["Authorization"] == "Bearer t-1")
        #expect(kept.outcomes.map(\.template.name) == ["broken", "fails", "socket"])
        #expect(kept.responses.answeredNames.contains("login"))
    }

    @Test func failFastStopsAfterTheFirstFailure() async {
        let transport = StubTransport(answer: Self.answer)
        let outcomes = await runner(transport).run(HTTPFile(path: "r.http", text: Self.text).requests, failFast: true)
        #expect(outcomes.map(\.template.name) == ["login", "me", "broken"])
    }

    @Test func selectingByNamePullsInTheRequestsWhoseResponsesItUses() throws {
        let file = HTTPFile(path: "r.http", text: Self.text)
        #expect(try CollectionRunner.selection(of: file, names: ["me"], all: false).map(\.name) == ["login", "me"])
        #expect(try CollectionRunner.selection(of: file, names: ["fails", "gone"], all: false).map(\.name) == ["gone", "fails"])
        #expect(try CollectionRunner.selection(of: file, names: [], all: true).count == 6)
        #expect(throws: CollectionError.unknownRequest(name: "nope", available: ["login", "me", "broken", "gone", "fails", "socket"])) {
            try CollectionRunner.selection(of: file, names: ["nope"], all: false)
        }
    }

    @Test func theDemoCollectionRunsEndToEndAgainstTheEmbeddedServer() async throws {
        // Given the demo server on a free port and the demo collection with its environment
        let server = try DemoServer.start()
        defer { server.stop() }
        let url = DemoCollection.file
        let loaded = try CollectionLoader.loadFile(url, displayPath: "demo.http")
        #expect(loaded.file.diagnostics.isEmpty, "\(loaded.file.diagnostics)")
        let environment = try EnvironmentSet.discover(near: url, root: url.deletingLastPathComponent())
            .environment(named: "demo")
        let base = server.baseURL.absoluteString.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        let client = HTTPClient(configuration: .init(transport: CurlTransport(), retry: RetryPolicy(deadline: .seconds(20))))
        let runner = CollectionRunner(file: loaded.file, baseFolder: url.deletingLastPathComponent(),
                                      context: VariableContext(overrides: ["base": base], environment: environment)) {
            request, context async throws(APIError) in try await client.send(request, context: context)
        }
        // When every request runs
        let outcomes = await runner.run(loaded.file.requests)
        // Then every HTTP request succeeded, the auth flow used the login token, the OAuth 2.0 requests their
        // Security.Auth tokens, and WebSockets were skipped
        for outcome in outcomes where !outcome.succeeded {
            Issue.record("\(outcome.template.displayName): \(String(describing: outcome.failure))")
        }
        #expect(outcomes.count == loaded.file.requests.count)
        #expect(outcomes.first { $0.template.name == "me" }?.response?.status == 200)
        #expect(outcomes.filter { $0.skipped != nil }.map(\.template.name) == ["wsEcho", "wsTicker"])
        #expect(server.requestCount(path: "/me") == 3)
        #expect(server.requestCount(path: "/oauth/token") >= 2)
        #expect(server.requestCount(path: "/flaky") == 3)
    }
}
