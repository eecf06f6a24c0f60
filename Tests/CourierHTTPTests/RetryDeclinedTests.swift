import Foundation
import Synchronization
import Testing
@testable import CourierHTTP

/// The retry middleware says why it hands a failure back: one `retryDeclined` event after the last
/// attempt, with the rule that stopped it, on a stub transport.
@Suite struct RetryDeclinedTests {
    let url = URL(string: "http://stub.test/items")!

    private func send(_ request: HTTPRequest, through transport: StubTransport,
                      policy: RetryPolicy = .standard) async -> (EventLog, InstantSleeper) {
        let events = EventLog()
        let sleeper = InstantSleeper()
        let client = HTTPClient(configuration: .init(transport: transport, retry: policy, sleeper: sleeper,
                                                     events: events.sink))
        _ = try? await client.send(request)
        return (events, sleeper)
    }

    @Test("A dropped connection is retried three times, then declined because the attempts are spent")
    func connectionLostIsRetriedThenDeclined() async {
        // Given a server that resets every connection
        let transport = StubTransport { _, _ in throw APIError.connectionLost(underlying: "reset") }
        // When a GET is sent
        let (events, sleeper) = await send(HTTPRequest(url: url), through: transport)
        // Then three attempts were made, and the third is declined with the attempt count
        #expect(transport.callCount == 3)
        #expect(sleeper.sleeps.count == 2)
        #expect(events.declines.map(\.attempt) == [3])
        #expect(events.declines.first?.declined.reason == .attemptsExhausted(3))
        #expect(events.declines.first?.declined.description == "connectionLost after 3 attempts, the most allowed")
    }

    @Test("A reply that breaks HTTP is sent once and declined as a kind retries cannot help")
    func protocolErrorIsDeclinedAtOnce() async {
        let transport = StubTransport { _, _ in throw APIError.protocolError(underlying: "redirect loop") }
        let (events, sleeper) = await send(HTTPRequest(url: url), through: transport)
        #expect(transport.callCount == 1)
        #expect(sleeper.sleeps.isEmpty)
        #expect(events.declines.map(\.attempt) == [1])
        #expect(events.declines.first?.declined.reason == .kindNotRetryable(.protocolError))
        let description = events.declines.first?.declined.description ?? ""
        #expect(description.hasPrefix("protocol is not retried: the server's reply"))
    }

    @Test("A POST answered 503 is declined because it has no Idempotency-Key")
    func postIsDeclinedForItsMethod() async {
        let transport = StubTransport(statuses: [503])
        let (events, _) = await send(HTTPRequest(method: .post, url: url, body: .data(Data("{}".utf8))),
                                     through: transport)
        #expect(transport.callCount == 1)
        #expect(events.declines.first?.declined == RetryDeclined(trigger: .status(503), reason: .notIdempotent(.post)))
        #expect(events.declines.first?.declined.description
                == "HTTP 503: POST without an Idempotency-Key is not retried")
    }

    @Test("A Retry-After longer than the policy waits out is declined with both durations")
    func longRetryAfterIsDeclined() async {
        let transport = StubTransport(statuses: [429], headers: ["Retry-After": "120"])
        let (events, _) = await send(HTTPRequest(url: url), through: transport)
        #expect(events.declines.first?.declined.description == "HTTP 429: Retry-After 120 s is longer than 10 s")
    }

    @Test("A wait that would end past the deadline is declined naming the deadline")
    func deadlineIsDeclined() async {
        let transport = StubTransport { _, _ in throw APIError.timedOut(underlying: "slow") }
        let policy = RetryPolicy(deadline: .milliseconds(100), baseDelay: .seconds(1), jitter: 0)
        let (events, _) = await send(HTTPRequest(url: url), through: transport, policy: policy)
        #expect(transport.callCount == 1)
        #expect(events.declines.first?.declined.reason == .deadline(.milliseconds(100)))
    }

    @Test("A success and a 404 end without a decline: no retry was considered")
    func noDeclineWithoutAFailureTheRetryLayerOwns() async {
        for status in [200, 404] {
            let (events, _) = await send(HTTPRequest(url: url), through: StubTransport(statuses: [status]))
            #expect(events.declines.isEmpty, "status \(status)")
        }
    }

    @Test("The decline reaches the attempt record, and the log writes it as its own line")
    func declineIsRecordedAndLogged() {
        // Given a recorder and a logger fed the events of one failed POST
        let recorder = AttemptRecorder()
        let lines = LineCollector()
        let logger = RedactingLogger(write: lines.append)
        let id = RequestID(7)
        let declined = RetryDeclined(trigger: .status(503), reason: .notIdempotent(.post))
        let events: [ClientEvent] = [
            .attemptStarted(id, attempt: 1, method: .post, url: url, headers: [:], at: Date()),
            .attemptFinished(id, attempt: 1, outcome: .response(status: 503, headers: [:]), timing: nil),
            .retryDeclined(id, attempt: 1, declined),
        ]
        // When they arrive
        for event in events {
            recorder.record(event)
            logger.sink.emit(event)
        }
        // Then the attempt carries the decline, and the log line says it
        #expect(recorder.attempts(for: id).first?.retryDeclined == declined)
        #expect(lines.all.last
                == "\(id) ⊘ no retry after attempt 1: HTTP 503: POST without an Idempotency-Key is not retried")
        #expect(events.last?.requestID == id)
    }
}

/// Lines a logger wrote, for assertions.
private final class LineCollector: Sendable {
    private let lines = Mutex<[String]>([])
    var append: @Sendable (String) -> Void { { [self] line in lines.withLock { $0.append(line) } } }
    var all: [String] { lines.withLock { $0 } }
}
