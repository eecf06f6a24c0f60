import CourierTestSupport
import Foundation
import Testing
@testable import CourierHTTP

/// The retry rules of DESIGN.md section 2, through the pipeline on a stub transport.
@Suite struct RetryPolicyTests {
    let url = URL(string: "http://stub.test/items")!

    func client(_ transport: StubTransport, sleeper: InstantSleeper, events: EventLog = EventLog(),
                policy: RetryPolicy = .standard) -> HTTPClient {
        HTTPClient(configuration: .init(transport: transport, retry: policy, sleeper: sleeper, events: events.sink))
    }

    @Test(arguments: [400, 401, 403, 404, 409, 422])
    func clientErrorsAreNeverRetried(status: Int) async throws {
        // Given a server that always answers `status`
        let transport = StubTransport(statuses: [status])
        let sleeper = InstantSleeper()
        // When a GET is sent
        let response = try await client(transport, sleeper: sleeper).send(HTTPRequest(url: url))
        // Then there was exactly one attempt and no wait
        #expect(response.status == status)
        #expect(transport.callCount == 1)
        #expect(sleeper.sleeps.isEmpty)
    }

    @Test(arguments: [408, 429, 500, 502, 503, 504])
    func retryableStatusesAreRetriedUpToThreeAttempts(status: Int) async throws {
        let transport = StubTransport(statuses: [status])
        let sleeper = InstantSleeper()
        let events = EventLog()
        let response = try await client(transport, sleeper: sleeper, events: events).send(HTTPRequest(url: url))
        // Then three attempts were made, two waits announced with their reason, and the last answer returned
        #expect(response.status == status)
        #expect(transport.callCount == 3)
        #expect(events.retries.count == 2)
        #expect(events.retries.allSatisfy { $0.reason == "HTTP \(status)" })
        #expect(events.attemptsStarted == 3)
    }

    @Test func a503ThenSuccessHonoursRetryAfterSeconds() async throws {
        // Given /flaky-like answers: 503 with Retry-After: 1, then 503 with Retry-After: 2, then 200
        let transport = StubTransport { request, call in
            call < 3 ? .stub(503, headers: ["Retry-After": "\(call)"]) : .stub(200, body: "ok")
        }
        let sleeper = InstantSleeper()
        let events = EventLog()
        let response = try await client(transport, sleeper: sleeper, events: events).send(HTTPRequest(url: url))
        // Then the waits are exactly what the server asked for, without jitter
        #expect(response.status == 200)
        #expect(sleeper.sleeps == [.seconds(1), .seconds(2)])
        #expect(events.retries.map(\.reason) == ["HTTP 503, Retry-After 1 s", "HTTP 503, Retry-After 2 s"])
    }

    @Test func a429WithAnHTTPDateRetryAfterWaitsUntilThatDate() async throws {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let transport = StubTransport { _, call in
            call == 1 ? .stub(429, headers: ["Retry-After": "Tue, 14 Nov 2023 22:13:23 GMT"]) : .stub(200)
        }
        let sleeper = InstantSleeper()
        let retry = RetryMiddleware(policy: .standard, sleeper: sleeper, wallClock: { now })
        let client = HTTPClient(configuration: .init(transport: transport, middlewares: [retry], retry: nil))
        let response = try await client.send(HTTPRequest(url: url))
        // 1_700_000_000 is 22:13:20 GMT, so the date is 3 s later
        #expect(response.status == 200)
        #expect(sleeper.sleeps == [.seconds(3)])
    }

    @Test func aLongRetryAfterIsSurfacedInsteadOfWaitedOut() async throws {
        let transport = StubTransport(statuses: [429, 200], headers: ["Retry-After": "120"])
        let sleeper = InstantSleeper()
        let response = try await client(transport, sleeper: sleeper).send(HTTPRequest(url: url))
        // Then the 429 comes back at once, and an endpoint turns it into the error
        #expect(response.status == 429)
        #expect(transport.callCount == 1)
        #expect(sleeper.sleeps.isEmpty)
        let endpoint = Endpoint<EmptyResponse>(request: HTTPRequest(url: url))
        await #expect {
            _ = try await client(StubTransport(statuses: [429], headers: ["Retry-After": "120"]),
                                 sleeper: sleeper).send(endpoint)
        } throws: { error in
            if case .http(429, _, _) = error as? APIError { return true }
            return false
        }
    }

    @Test func postIsNeverRetriedAfterA500() async throws {
        let transport = StubTransport(statuses: [500, 200])
        let sleeper = InstantSleeper()
        let response = try await client(transport, sleeper: sleeper).send(HTTPRequest(method: .post, url: url))
        #expect(response.status == 500)
        #expect(transport.callCount == 1)
    }

    @Test func postWithAnIdempotencyKeyIsRetried() async throws {
        let transport = StubTransport(statuses: [500, 200])
        let sleeper = InstantSleeper()
        var request = HTTPRequest(method: .post, url: url, body: .data(Data("{}".utf8)))
        request.idempotencyKey = "key-1"
        let response = try await client(transport, sleeper: sleeper).send(request)
        #expect(response.status == 200)
        #expect(transport.callCount == 2)
        #expect(transport.requests.allSatisfy { $0.headers["Idempotency-Key"] == "key-1" })
    }

    @Test(arguments: ["connectionRefused", "timedOut"])
    func transportFailuresAreRetriedThenThrown(kind: String) async throws {
        let failure: APIError = kind == "connectionRefused" ? .cannotConnect(ConnectFailure(reason: .refused, host: "127.0.0.1", port: 1, underlying: "refused")) : .timedOut(underlying: "slow")
        let transport = StubTransport { _, _ in throw failure }
        let sleeper = InstantSleeper()
        await #expect {
            _ = try await client(transport, sleeper: sleeper).send(HTTPRequest(url: url))
        } throws: { error in
            (error as? APIError)?.kind.rawValue == kind
        }
        #expect(transport.callCount == 3)
        #expect(sleeper.sleeps.count == 2)
    }

    @Test func tlsAndBadURLFailuresAreNotRetried() async throws {
        let transport = StubTransport { _, _ in throw APIError.tls(underlying: "bad certificate") }
        await #expect(throws: APIError.self) {
            _ = try await client(transport, sleeper: InstantSleeper()).send(HTTPRequest(url: url))
        }
        #expect(transport.callCount == 1)
    }

    @Test func theRequestsOwnBudgetOverridesThePolicyAndZeroDisablesRetries() async throws {
        let transport = StubTransport(statuses: [503])
        _ = try await client(transport, sleeper: InstantSleeper()).send(HTTPRequest(url: url, maxAttempts: 0))
        #expect(transport.callCount == 1)
        let five = StubTransport(statuses: [503])
        _ = try await client(five, sleeper: InstantSleeper()).send(HTTPRequest(url: url, maxAttempts: 5))
        #expect(five.callCount == 5)
    }

    @Test func theOverallDeadlineStopsRetriesWhoseWaitWouldPassIt() async throws {
        // Given each attempt takes 9 s of (virtual) time and a 10 s deadline
        let sleeper = InstantSleeper()
        let transport = StubTransport { _, _ in
            sleeper.advance(by: .seconds(9))
            return .stub(503, headers: ["Retry-After": "2"])
        }
        let policy = RetryPolicy(deadline: .seconds(10))
        let response = try await client(transport, sleeper: sleeper, policy: policy).send(HTTPRequest(url: url))
        // Then no retry is scheduled: 9 s + 2 s would end past the deadline
        #expect(response.status == 503)
        #expect(transport.callCount == 1)
    }

    @Test func backoffDoublesUpToTheCapWithJitterInsideItsShare() {
        let policy = RetryPolicy(baseDelay: .milliseconds(100), maxDelay: .seconds(1), jitter: 0.5)
        #expect(policy.backoff(attempt: 1, random: 1) == .milliseconds(100))
        #expect(policy.backoff(attempt: 1, random: 0) == .milliseconds(50))
        #expect(policy.backoff(attempt: 2, random: 1) == .milliseconds(200))
        #expect(policy.backoff(attempt: 3, random: 1) == .milliseconds(400))
        #expect(policy.backoff(attempt: 10, random: 1) == .seconds(1))
        #expect(policy.backoff(attempt: 10, random: 0) == .milliseconds(500))
    }

    @Test func cancellationDuringTheBackoffSleepStopsAtOnce() async throws {
        // Given a 503 with a 5 s Retry-After and a clock that only moves when told
        let transport = StubTransport(statuses: [503, 200], headers: ["Retry-After": "5"])
        let sleeper = ManualSleeper()
        let client = HTTPClient(configuration: .init(transport: transport, sleeper: sleeper))
        let task = Task { try await client.send(HTTPRequest(url: url)) }
        #expect(await LoopbackServer.eventually { sleeper.sleeperCount == 1 })
        // When the task is cancelled during the wait
        task.cancel()
        // Then it ends with .cancelled and no second attempt
        let result = await task.result
        guard case .failure(let error as APIError) = result else { Issue.record("expected cancellation"); return }
        #expect(error.kind == .cancelled)
        #expect(transport.callCount == 1)
    }

    @Test func cancellationMidTransferIsNotRetried() async throws {
        let transport = StubTransport { _, _ in
            try await Task.sleep(for: .seconds(60))
            return .stub(200)
        }
        let events = EventLog()
        let client = client(transport, sleeper: InstantSleeper(), events: events)
        let task = Task { try await client.send(HTTPRequest(url: url)) }
        #expect(await LoopbackServer.eventually { transport.callCount == 1 })
        task.cancel()
        let result = await task.result
        guard case .failure(let error as APIError) = result else { Issue.record("expected cancellation"); return }
        #expect(error.kind == .cancelled)
        #expect(transport.callCount == 1)
        #expect(events.all.contains { if case .cancelled = $0 { return true } else { return false } })
    }
}
