import CourierMessage
import Foundation
import Synchronization
@testable import CourierHTTP

/// A transport answering from a script, recording what it was sent. The script may throw anything, as a
/// test's own errors do; what reaches the pipeline is an `APIError`, as from a real transport.
final class StubTransport: Transport {
    typealias Script = @Sendable (HTTPRequest, Int) async throws -> HTTPResponse
    private let calls = Mutex<[HTTPRequest]>([])
    private let script: Script

    /// `script` gets the request and its 1-based call number.
    init(_ script: @escaping Script) { self.script = script }

    /// Answers the statuses in order (the last one repeats).
    convenience init(statuses: [Int], headers: HTTPHeaders = [:], body: String = "") {
        self.init { request, call in
            let status = statuses[min(call, statuses.count) - 1]
            return HTTPResponse(status: status, headers: headers, body: .data(Data(body.utf8)), url: request.url)
        }
    }

    var requests: [HTTPRequest] { calls.withLock { $0 } }
    var callCount: Int { calls.withLock { $0.count } }

    func send(_ request: HTTPRequest, context: RequestContext) async throws(APIError) -> HTTPResponse {
        let call = calls.withLock { calls in
            calls.append(request)
            return calls.count
        }
        do {
            return try await script(request, call)
        } catch {
            throw APIError(error)
        }
    }
}

/// A sleeper that returns at once, records each wait and moves its clock forward by it.
final class InstantSleeper: Sleeper {
    private let state = Mutex<(now: Duration, sleeps: [Duration])>((.zero, []))

    var sleeps: [Duration] { state.withLock { $0.sleeps } }
    func now() -> Duration { state.withLock { $0.now } }
    func advance(by duration: Duration) { state.withLock { $0.now += duration } }

    func sleep(for duration: Duration) async throws {
        try Task.checkCancellation()
        state.withLock { state in
            state.sleeps.append(duration)
            state.now += duration
        }
    }
}

/// A sleeper whose time moves only when the test says so; sleeps wake when their deadline passes
/// and end with CancellationError when their task is cancelled.
final class ManualSleeper: Sleeper {
    private struct Sleeping {
        var id: Int
        var deadline: Duration
        var continuation: CheckedContinuation<Void, any Error>
    }

    private let state = Mutex<(now: Duration, sleeping: [Sleeping], nextID: Int)>((.zero, [], 0))

    func now() -> Duration { state.withLock { $0.now } }
    var sleeperCount: Int { state.withLock { $0.sleeping.count } }
    /// Sleeps ever started, so a test can wait for a particular one to be registered.
    var startedCount: Int { state.withLock { $0.nextID } }

    func sleep(for duration: Duration) async throws {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let immediate: Bool = state.withLock { state in
                    if Task.isCancelled || duration <= .zero { return true }
                    state.sleeping.append(Sleeping(id: id, deadline: state.now + duration, continuation: continuation))
                    return false
                }
                if immediate {
                    if Task.isCancelled { continuation.resume(throwing: CancellationError()) } else { continuation.resume() }
                }
            }
        } onCancel: {
            let sleeping = state.withLock { state in
                let index = state.sleeping.firstIndex { $0.id == id }
                return index.map { state.sleeping.remove(at: $0) }
            }
            sleeping?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves time forward and wakes every sleep whose deadline has passed.
    func advance(by duration: Duration) {
        let woken = state.withLock { state in
            state.now += duration
            let now = state.now
            let due = state.sleeping.filter { $0.deadline <= now }
            state.sleeping.removeAll { $0.deadline <= now }
            return due
        }
        for sleeping in woken { sleeping.continuation.resume() }
    }
}

/// Collects events for assertions.
final class EventLog: Sendable {
    private let events = Mutex<[ClientEvent]>([])
    var sink: EventSink { EventSink { [self] event in events.withLock { $0.append(event) } } }
    var all: [ClientEvent] { events.withLock { $0 } }

    var retries: [(reason: String, delay: Duration)] {
        all.compactMap { event in
            if case .retryScheduled(_, _, let reason, let delay) = event { return (reason, delay) }
            return nil
        }
    }

    var declines: [(attempt: Int, declined: RetryDeclined)] {
        all.compactMap { event in
            if case .retryDeclined(_, let attempt, let declined) = event { return (attempt, declined) }
            return nil
        }
    }

    var attemptsStarted: Int {
        all.filter { if case .attemptStarted = $0 { return true } else { return false } }.count
    }
}

extension HTTPResponse {
    /// A stub response.
    static func stub(_ status: Int, body: String = "", headers: HTTPHeaders = [:],
                     url: URL = URL(string: "http://stub.test/")!) -> HTTPResponse {
        HTTPResponse(status: status, headers: headers, body: .data(Data(body.utf8)), url: url)
    }
}
