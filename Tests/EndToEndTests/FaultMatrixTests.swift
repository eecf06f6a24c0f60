import CourierDemo
import CourierHTTP
import Foundation
import Testing

/// The fault matrix through the real stack: the built `courier send --json` (HTTPClient + CurlTransport)
/// against the demo server's `/chaos/*` family, a closed port and an unresolvable name. Each case
/// asserts the error kind and the number of attempts the client made and the server saw.
@Suite(.enabled(if: Reliability.hasCourier, "the courier binary is not built; run swift build first"))
struct FaultMatrixTests {
    /// One row of the matrix: a path on the demo server, what `courier send` is given, and what must come out.
    struct Fault: CustomTestStringConvertible, Sendable {
        var path: String
        var extra: [String] = []
        var kind: String
        var attempts: Int
        /// Requests the server must have seen for `path`, redirect hops included (nil: not checked).
        var serverRequests: Int?
        /// A piece of the reason the last attempt gives for not being retried (nil: it gives none).
        var declined: String?
        var testDescription: String { "\(path) → \(kind) after \(attempts) attempt(s)" }
    }

    static let faults: [Fault] = [
        // A connection dropped before the answer was complete is retried: three attempts, all seen.
        Fault(path: "/chaos/reset-before", kind: "connectionLost", attempts: 3, serverRequests: 3,
              declined: "after 3 attempts"),
        Fault(path: "/chaos/reset-mid-body", kind: "connectionLost", attempts: 3, serverRequests: 3,
              declined: "after 3 attempts"),
        Fault(path: "/chaos/short-body", kind: "connectionLost", attempts: 3, serverRequests: 3,
              declined: "after 3 attempts"),
        Fault(path: "/chaos/truncated-chunked", kind: "connectionLost", attempts: 3, serverRequests: 3,
              declined: "after 3 attempts"),
        // A reply that breaks HTTP is not retried: asking again gets the same reply. A status line
        // that is not HTTP is the server's fault, not a bad URL.
        Fault(path: "/chaos/bad-status-line", kind: "protocol", attempts: 1, serverRequests: 1,
              declined: "protocol is not retried"),
        // One header line over curl's 100 KB limit, and many lines over its 300 KB total.
        Fault(path: "/chaos/huge-headers?kb=512", kind: "protocol", attempts: 1, serverRequests: 1,
              declined: "protocol is not retried"),
        Fault(path: "/chaos/huge-headers?kb=512&line_kb=8", kind: "protocol", attempts: 1, serverRequests: 1,
              declined: "protocol is not retried"),
        // The first request and curl's ten redirects reach the server once, not three times over.
        Fault(path: "/chaos/redirect-loop", kind: "protocol", attempts: 1, serverRequests: 11,
              declined: "protocol is not retried"),
        // A stalled or dripping server: the --timeout deadline fires; no time is left to retry.
        Fault(path: "/chaos/stall?ms=20000", extra: ["--timeout", "1.5"], kind: "timedOut", attempts: 1,
              serverRequests: 1, declined: "deadline leaves no time"),
        Fault(path: "/chaos/drip?bytes=200&interval_ms=100", extra: ["--timeout", "1.5"], kind: "timedOut",
              attempts: 1, serverRequests: 1, declined: "deadline leaves no time"),
        // Storms: 503 and 429 are retried (with and without Retry-After), 401 never.
        Fault(path: "/chaos/503-storm?retry_after=none", kind: "http", attempts: 3, serverRequests: 3,
              declined: "HTTP 503 after 3 attempts"),
        Fault(path: "/chaos/503-storm?retry_after=1", kind: "http", attempts: 3, serverRequests: 3,
              declined: "HTTP 503 after 3 attempts"),
        Fault(path: "/rate-limited", kind: "http", attempts: 3, serverRequests: 3,
              declined: "HTTP 429 after 3 attempts"),
        Fault(path: "/chaos/401-storm", kind: "unauthorized", attempts: 1, serverRequests: 1),
        // A POST without an Idempotency-Key is sent once, whatever the server says.
        Fault(path: "/chaos/503-storm?retry_after=none", extra: ["-X-POST"], kind: "http", attempts: 1,
              serverRequests: 1, declined: "POST without an Idempotency-Key is not retried"),
        Fault(path: "/chaos/reset-before", extra: ["-X-POST"], kind: "connectionLost", attempts: 1,
              serverRequests: 1, declined: "POST without an Idempotency-Key is not retried"),
        // With an Idempotency-Key the POST may be retried.
        Fault(path: "/chaos/503-storm?retry_after=none", extra: ["-X-POST", "--idempotency-key", "k-1"],
              kind: "http", attempts: 3, serverRequests: 3, declined: "HTTP 503 after 3 attempts"),
    ]

    @Test("courier send ends each server fault in the right error kind after the right number of attempts",
          arguments: faults)
    func serverFaultEndsInTheRightKindAndAttemptCount(fault: Fault) async throws {
        // Given a demo server of our own, so that counts are not shared with other tests
        let server = try DemoServer.start()
        defer { server.stop() }
        var arguments = ["send", "--json"]
        var extra = fault.extra
        if extra.first == "-X-POST" {
            extra.removeFirst()
            arguments += ["POST", "-d", "{}"]
        }
        arguments += extra + [server.baseURL.absoluteString + fault.path]

        // When courier sends the request
        let result = try await Reliability.runCourier(arguments, limit: 60)

        // Then the JSON names the error kind and every attempt, and the exit code is the kind's (28 for a
        // timeout, else 1)
        let outcome = ReliabilityOutcome(result)
        #expect(result.status == (fault.kind == "timedOut" ? 28 : 1), "\(result.stderrText)")
        #expect(outcome.errorKind == fault.kind, "\(result.stdoutText.prefix(600))")
        #expect(outcome.attempts.count == fault.attempts, "\(result.stdoutText.prefix(600))")
        let declined = outcome.attempts.last?["retry_declined"] as? String
        if let expected = fault.declined {
            #expect(declined?.contains(expected) == true, "retry_declined: \(declined ?? "none")")
        } else {
            #expect(declined == nil, "retry_declined: \(declined ?? "none")")
        }
        if let expected = fault.serverRequests {
            let path = String(fault.path.split(separator: "?")[0])
            #expect(await Reliability.eventually(limit: 5) { server.requestCount(path: path) == expected },
                    "server saw \(server.requestCount(path: path)) requests for \(path)")
        }
    }

    @Test("A closed port is connectionRefused, tried three times; an unresolvable host is dnsFailure, sent once")
    func connectionRefusedIsRetriedAndDNSFailureIsNot() async throws {
        // Given a port nothing listens on and a name that cannot resolve
        let cases = [("http://127.0.0.1:\(Reliability.closedPort())/users", "connectionRefused", 3, Int32(7)),
                     ("http://nonexistent.invalid/", "dnsFailure", 1, Int32(6))]
        for (url, kind, attempts, status) in cases {
            // When courier sends to it
            let result = try await Reliability.runCourier(["send", "--json", url])

            // Then it fails with its own kind and exit code, after the attempts its kind deserves
            let outcome = ReliabilityOutcome(result)
            #expect(result.status == status)
            #expect(outcome.errorKind == kind, "\(url): \(result.stdoutText.prefix(400))")
            #expect(outcome.attempts.count == attempts, "\(url)")
        }
    }

    @Test("After every fault the same client process goes on to succeed against a healthy endpoint")
    func clientStillWorksAfterFaults() async throws {
        // Given one HTTPClient on the real transport, and a server
        let server = try DemoServer.start()
        defer { server.stop() }
        let client = HTTPClient(configuration: .init(transport: CurlTransport(), retry: RetryPolicy(
            maxAttempts: 2, deadline: .seconds(600), baseDelay: .milliseconds(10), maxDelay: .milliseconds(20))))
        let base = server.baseURL.absoluteString
        let broken = [("/chaos/reset-before", "connectionLost"), ("/chaos/reset-mid-body", "connectionLost"),
                      ("/chaos/truncated-chunked", "connectionLost"), ("/chaos/bad-status-line", "protocol"),
                      ("/chaos/huge-headers?kb=512", "protocol"), ("/chaos/short-body", "connectionLost"),
                      ("/chaos/redirect-loop", "protocol")]
        for (path, kind) in broken {
            // When a broken endpoint fails
            var failure: APIError?
            do { _ = try await client.send(HTTPRequest(url: URL(string: base + path)!)) } catch { failure = error }
            #expect(failure?.kind.rawValue == kind, "\(path): \(String(describing: failure))")

            // Then the next request on the same client succeeds
            let response = try await client.send(HTTPRequest(url: URL(string: base + "/users/1")!))
            #expect(response.status == 200, "after \(path)")
        }
    }

    @Test("A 401 storm while refreshing: one refresh, one replay, then unauthorized; no loop")
    func unauthorizedStormRefreshesOnceAndStops() async throws {
        // Given a signed-in token store whose refresh token the demo server knows
        let server = try DemoServer.start()
        defer { server.stop() }
        let transport = CurlTransport()
        let login = try await transport.send(HTTPRequest(
            method: .post, url: server.baseURL.appendingPathComponent("auth/login"),
            headers: ["Content-Type": "application/json"], body: .data(Data(#"{"username":"ada"}"#.utf8))),
            context: RequestContext())
        let pair = try JSONSerialization.jsonObject(with: login.body.readAll()) as? [String: Any]
        let store = TokenStore(credentials: Credentials(accessToken: pair?["access_token"] as? String ?? "",
                                                        refreshToken: pair?["refresh_token"] as? String))
        let auth = AuthMiddleware(store: store, refresher: .json(url: server.baseURL.appendingPathComponent("auth/refresh")),
                                  transport: transport)
        let client = HTTPClient(configuration: .init(transport: transport, auth: auth))

        // When a request goes to an endpoint that answers 401 whatever the token
        var failure: APIError?
        do {
            let response = try await client.send(HTTPRequest(url: server.baseURL.appendingPathComponent("chaos/401-storm")))
            failure = APIError(response: response)
        } catch {
            failure = error
        }

        // Then it ends unauthorized after exactly two requests (first + one replay) and one refresh
        #expect(failure?.kind == .unauthorized)
        #expect(server.requestCount(path: "/chaos/401-storm") == 2)
        #expect(server.requestCount(path: "/auth/refresh") == 1)
        #expect(await store.refreshCount == 1)
    }

    @Test("Twenty concurrent requests in a 401 storm share one refresh and never loop")
    func concurrentUnauthorizedStormSharesOneRefresh() async throws {
        // Given a signed-in client
        let server = try DemoServer.start()
        defer { server.stop() }
        let transport = CurlTransport()
        let login = try await transport.send(HTTPRequest(
            method: .post, url: server.baseURL.appendingPathComponent("auth/login"),
            headers: ["Content-Type": "application/json"], body: .data(Data("{}".utf8))), context: RequestContext())
        let pair = try JSONSerialization.jsonObject(with: login.body.readAll()) as? [String: Any]
        let store = TokenStore(credentials: Credentials(accessToken: pair?["access_token"] as? String ?? "",
                                                        refreshToken: pair?["refresh_token"] as? String))
        let client = HTTPClient(configuration: .init(transport: transport, auth: AuthMiddleware(
            store: store, refresher: .json(url: server.baseURL.appendingPathComponent("auth/refresh")),
            transport: transport)))
        let url = server.baseURL.appendingPathComponent("chaos/401-storm")

        // When twenty requests run at once
        let statuses = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<20 {
                group.addTask { (try? await client.send(HTTPRequest(url: url)).status) ?? -1 }
            }
            return await group.reduce(into: [Int]()) { $0.append($1) }
        }

        // Then each ends in 401 after at most one replay, and the refreshes stay bounded by the callers
        #expect(statuses.allSatisfy { $0 == 401 })
        #expect(server.requestCount(path: "/chaos/401-storm") <= 40)
        #expect(server.requestCount(path: "/auth/refresh") <= 20)
    }
}
