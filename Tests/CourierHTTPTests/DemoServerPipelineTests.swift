import CourierTestSupport
import CourierDemo
import Foundation
import Synchronization
import Testing
@testable import CourierHTTP

/// The policy paths once more, through the full pipeline on CurlTransport against the demo server.
/// Backoff waits go through an instant sleeper, so the real network is used but no test sleeps.
@Suite struct DemoServerPipelineTests {
    let server: DemoServer
    let transport = CurlTransport()

    init() throws { server = try DemoServer.start() }

    func url(_ pathAndQuery: String) -> URL { URL(string: server.baseURL.absoluteString + pathAndQuery)! }

    func client(events: EventSink = .none, auth: AuthMiddleware? = nil) -> HTTPClient {
        HTTPClient(configuration: .init(transport: transport, auth: auth, sleeper: InstantSleeper(), events: events))
    }

    @Test func flakyIsRetriedWithItsRetryAfterUntilItSucceeds() async throws {
        defer { server.stop() }
        let recorder = AttemptRecorder()
        let context = RequestContext()
        let response = try await client(events: recorder.sink).send(HTTPRequest(url: url("/flaky?key=get")), context: context)
        let attempts = recorder.attempts(for: context.id)
        #expect(response.status == 200)
        #expect(attempts.map(\.status) == [503, 503, 200])
        #expect(attempts.map(\.delayBeforeNext) == [.seconds(1), .seconds(1), nil])
        #expect(attempts.map(\.reusedConnection) == [false, true, true])
        #expect(server.requestCount(path: "/flaky") == 3)
    }

    @Test func aPostToFlakyMakesExactlyOneAttempt() async throws {
        defer { server.stop() }
        let response = try await client().send(HTTPRequest(method: .post, url: url("/flaky?key=post")))
        #expect(response.status == 503)
        #expect(server.requestCount(path: "/flaky") == 1)
    }

    @Test func aLongRetryAfterFromRateLimitedIsSurfaced() async throws {
        defer { server.stop() }
        let endpoint = Endpoint<EmptyResponse>.get(url("/rate-limited?retry_after=600"))
        await #expect {
            _ = try await client().send(endpoint)
        } throws: { error in
            if case .http(429, _, _) = error as? APIError { return true }
            return false
        }
        #expect(server.requestCount(path: "/rate-limited") == 1)
    }

    @Test(arguments: [400, 403, 404, 422])
    func clientErrorStatusesAreSentOnce(status: Int) async throws {
        defer { server.stop() }
        let response = try await client().send(HTTPRequest(url: url("/status/\(status)")))
        #expect(response.status == status)
        #expect(server.requestCount(path: "/status/\(status)") == 1)
    }

    @Test func serverErrorsAreRetriedThreeTimesOnOneConnection() async throws {
        defer { server.stop() }
        let response = try await client().send(HTTPRequest(url: url("/status/500")))
        #expect(response.status == 500)
        #expect(server.requestCount(path: "/status/500") == 3)
        #expect(server.connectionCount == 1)
    }

    @Test func anExpiredTokenIsRefreshedOnceForTenCallersAndEachReplays() async throws {
        defer { server.stop() }
        // Given a login whose access token is already expired
        let login = try await transport.send(HTTPRequest(method: .post, url: url("/auth/login?ttl=0"),
                                                         headers: ["Content-Type": "application/json"],
                                                         body: .data(Data(#"{"username":"ada"}"#.utf8))),
                                             context: RequestContext())
        let credentials = try TokenRefresher.json(url: url("/auth/refresh")).parse(login)
        let store = TokenStore(credentials: credentials)
        // (the refreshed token lives 60 s; without ?ttl= it would inherit the expired lifetime)
        let auth = AuthMiddleware(store: store, refresher: .json(url: url("/auth/refresh?ttl=60")), transport: transport)
        let client = client(auth: auth)
        // When ten requests for /me run at once
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<10 { group.addTask { try await client.send(HTTPRequest(url: url("/me"))).status } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        // Then all succeed after exactly one refresh
        #expect(statuses == Array(repeating: 200, count: 10))
        #expect(server.requestCount(path: "/auth/refresh") == 1)
        #expect(server.requestCount(path: "/me") == 20)
    }

    @Test func anUnknownRefreshTokenSignsOutWithoutLooping() async throws {
        defer { server.stop() }
        let store = TokenStore(credentials: Credentials(accessToken: "nope", refreshToken: "unknown"))
        let auth = AuthMiddleware(store: store, refresher: .json(url: url("/auth/refresh")), transport: transport)
        let response = try await client(auth: auth).send(HTTPRequest(url: url("/me")))
        #expect(response.status == 401)
        #expect(await store.isSignedIn == false)
        #expect(server.requestCount(path: "/auth/refresh") == 1)
        #expect(server.requestCount(path: "/me") == 1)
    }

    @Test func aCancelledSlowRequestIsSeenClosedByTheServer() async throws {
        defer { server.stop() }
        let client = client()
        let task = Task { try await client.send(HTTPRequest(url: url("/slow?ms=20000"))) }
        #expect(await LoopbackServer.eventually { server.requestCount(path: "/slow") == 1 })
        task.cancel()
        let result = await task.result
        guard case .failure(let error as APIError) = result else { Issue.record("expected cancellation"); return }
        #expect(error.kind == .cancelled)
        #expect(await LoopbackServer.eventually { server.abortedCount(path: "/slow") == 1 })
        #expect(server.completedCount(path: "/slow") == 0)
    }

    @Test func aTimeoutEndsASlowRequestAsTimedOutWithoutRetryPastTheDeadline() async throws {
        defer { server.stop() }
        var policy = RetryPolicy.standard
        policy.deadline = .milliseconds(300)
        let client = HTTPClient(configuration: .init(transport: transport, retry: policy, sleeper: SystemSleeper()))
        await #expect {
            _ = try await client.send(HTTPRequest(url: url("/slow?ms=20000"), timeout: .milliseconds(300)))
        } throws: { error in
            (error as? APIError)?.kind == .timedOut
        }
        #expect(server.requestCount(path: "/slow") == 1)
    }

    @Test func keepAliveRequestsReuseOneConnection() async throws {
        defer { server.stop() }
        let client = client()
        var reused: [Bool] = []
        for _ in 0..<4 {
            reused.append(try await client.send(HTTPRequest(url: url("/users"))).timing.reusedConnection)
        }
        #expect(reused == [false, true, true, true])
        #expect(server.connectionCount == 1)
    }

    @Test func aLargeBodyIsSpilledToAFileAndStreamedInChunks() async throws {
        defer { server.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let spilling = CurlTransport(configuration: .init(spillThreshold: 256 * 1024, temporaryDirectory: folder))
        let chunks = Mutex(0)
        let context = RequestContext(onChunk: { _ in chunks.withLock { $0 += 1 } })
        let response = try await spilling.send(HTTPRequest(url: url("/large?mb=2")), context: context)
        guard case .file(let file, let size) = response.body else { Issue.record("expected a file body"); return }
        #expect(size >= 2_000_000)
        #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int == size)
        #expect(chunks.withLock { $0 } > 1)
    }

    @Test func twentyLiveEditsThirtyMillisecondsApartCompleteAtMostOneSearch() async throws {
        defer { server.stop() }
        let client = client()
        let delivered = Mutex<[UInt64]>([])
        let latest = LatestOnly<Int>(debounce: .milliseconds(100)) { outcome in
            if case .completed(let generation, .success) = outcome { delivered.withLock { $0.append(generation) } }
        }
        for index in 1...20 {
            let query = String(repeating: "a", count: index)
            latest.submit { try await client.send(HTTPRequest(url: url("/search?q=\(query)"))).status }
            try await Task.sleep(for: .milliseconds(30))
        }
        #expect(await LoopbackServer.eventually { delivered.withLock { $0 } == [20] })
        #expect(server.completedCount(path: "/search") <= 1)
    }
}
