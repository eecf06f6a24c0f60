import CourierMessage
import Foundation
import Synchronization
import Testing
@testable import CourierHTTP

/// The order of the pipeline, its events and the observers.
@Suite struct PipelineTests {
    let url = URL(string: "http://stub.test/items?token=secret")!

    /// A cache stand-in: answers /cached itself, passes everything else on.
    struct FreshHitCache: Middleware {
        func intercept(_ request: HTTPRequest, context: RequestContext,
                       next: Next) async throws(APIError) -> HTTPResponse {
            if request.url.path == "/cached" {
                context.events.emit(.cacheDecision(context.id, CacheReport(decision: .fresh)))
                return HTTPResponse(status: 200, url: request.url, cache: CacheReport(decision: .fresh))
            }
            return try await next(request, context)
        }
    }

    @Test func thePipelineIsOneOrderedArrayAuthCacheExtrasRetrySigningAttempts() {
        let transport = StubTransport(statuses: [200])
        let auth = AuthMiddleware(store: TokenStore(), refresher: nil, transport: transport)
        let configuration = HTTPClient.Configuration(transport: transport, auth: auth, cache: FreshHitCache(),
                                                     oauth2: OAuth2Session(transport: transport, cache: nil))
        let names = configuration.pipeline.map { String(describing: type(of: $0)) }
        #expect(names == ["OAuth2Middleware", "AuthMiddleware", "FreshHitCache", "RetryMiddleware", "AWSSigV4Signing",
                          "OAuth1Signing", "AttemptEvents"])
    }

    @Test func aFreshCacheHitMakesNoTransportCallAndNoAttempt() async throws {
        let transport = StubTransport(statuses: [200])
        let events = EventLog()
        let client = HTTPClient(configuration: .init(transport: transport, cache: FreshHitCache(), events: events.sink))
        let response = try await client.send(HTTPRequest(url: URL(string: "http://stub.test/cached")!))
        #expect(response.cache.decision == .fresh)
        #expect(transport.callCount == 0)
        #expect(events.attemptsStarted == 0)
    }

    @Test func theRecorderTurnsEventsIntoAttemptsWithDelaysAndReasons() async throws {
        // Given a 503 (Retry-After 1), a 503 and a 200
        let transport = StubTransport { _, call in
            call == 1 ? .stub(503, headers: ["Retry-After": "1"]) : (call == 2 ? .stub(503) : .stub(200))
        }
        let recorder = AttemptRecorder()
        let client = HTTPClient(configuration: .init(transport: transport, sleeper: InstantSleeper(),
                                                     events: recorder.sink))
        let context = RequestContext()
        _ = try await client.send(HTTPRequest(url: url), context: context)
        // Then three attempts, each with its status; the first two with the wait and reason that followed
        let attempts = recorder.attempts(for: context.id)
        #expect(attempts.map(\.attempt) == [1, 2, 3])
        #expect(attempts.map(\.sequence) == [1, 2, 3])
        #expect(attempts.map(\.status) == [503, 503, 200])
        #expect(attempts[0].delayBeforeNext == .seconds(1))
        #expect(attempts[0].retryReason == "HTTP 503, Retry-After 1 s")
        #expect(attempts[1].delayBeforeNext != nil)
        #expect(attempts[2].delayBeforeNext == nil)
        #expect(attempts.allSatisfy { $0.finished })
    }

    @Test func theLoggerPrintsPathsAndAllowedHeadersButNeverSecrets() async throws {
        let transport = StubTransport(statuses: [200], headers: ["Set-Cookie": "session=abc", "Content-Type": "text/plain"])
        let lines = Mutex<[String]>([])
        let logger = RedactingLogger(policy: LogPolicy(includeHeaders: true)) { line in lines.withLock { $0.append(line) } }
        let client = HTTPClient(configuration: .init(transport: transport, events: logger.sink))
        let request = HTTPRequest(url: url, headers: ["Authorization": "Bearer secret", "Cookie": "a=b",
                                                      "Accept": "application/json"])
        _ = try await client.send(request)
        let text = lines.withLock { $0 }.joined(separator: "\n")
        #expect(text.contains("GET stub.test/items attempt 1 [Accept: application/json]"))
        #expect(text.contains("← 200 attempt 1"))
        #expect(text.contains("Content-Type: text/plain"))
        #expect(!text.contains("secret"))
        #expect(!text.contains("a=b"))
        #expect(!text.contains("session=abc"))
    }

    @Test func redactionKeepsTheSchemeAndHidesTheValue() {
        let headers: HTTPHeaders = ["Authorization": "Bearer abc", "Cookie": "x=y", "X-Api-Key": "k", "Accept": "*/*"]
        let redacted = headers.redacted()
        #expect(redacted["Authorization"] == "Bearer REDACTED")
        #expect(redacted["Cookie"] == "REDACTED")
        #expect(redacted["X-Api-Key"] == "REDACTED")
        #expect(redacted["Accept"] == "*/*")
        #expect(headers.redacted(showSecrets: true) == headers)
    }

    @Test func eachTransportCallIsOneAttemptStartedAndFinished() async throws {
        let transport = StubTransport { _, call in
            if call == 1 { throw APIError.cannotConnect(ConnectFailure(reason: .refused, host: "h", port: 1, underlying: "down")) }
            return .stub(200)
        }
        let events = EventLog()
        let client = HTTPClient(configuration: .init(transport: transport, sleeper: InstantSleeper(), events: events.sink))
        _ = try await client.send(HTTPRequest(url: url))
        let kinds: [String] = events.all.map { event in
            switch event {
            case .attemptStarted(_, let attempt, _, _, _, _): "start \(attempt)"
            case .attemptFinished(_, let attempt, .failure(let error), _): "fail \(attempt) \(error.kind)"
            case .attemptFinished(_, let attempt, .response(let status, _), _): "done \(attempt) \(status)"
            case .retryScheduled(_, let attempt, _, _): "retry \(attempt)"
            default: "other"
            }
        }
        #expect(kinds == ["start 1", "fail 1 connectionRefused", "retry 1", "start 2", "done 2 200"])
    }
}
