import CourierTestSupport
import Foundation
import Synchronization
import Testing
@testable import CourierHTTP

/// The curl loop sleeps in epoll until a socket is ready, libcurl's timer is due or another thread wakes it.
/// These transports run on a loop with no periodic turn (`CurlMultiLoop(boundsWaits: false)`): a wake-up or a
/// timer that went missing would leave a transfer waiting for ever, which the tests' limits turn into a failure.
@Suite struct CurlLoopWakeUpTests {
    static func server() throws -> LoopbackServer {
        try LoopbackServer { request in
            switch request.path {
            case "/stall": return LoopbackServer.Reply(body: Data("late".utf8), delay: .seconds(30))
            case let path where path.hasPrefix("/late"):
                return LoopbackServer.Reply(body: Data(path.utf8), delay: .milliseconds(3))
            default: return .json("\"\(request.path)\"")
            }
        }
    }

    /// What one worker saw: answers that came back whole, and cancelled sends that ended.
    struct Tally: Sendable {
        var answered = 0
        var wrong: [String] = []
        var cancelled = 0
    }

    @Test func transfersAddedFromManyTasksWhileOthersCompleteAllComplete() async throws {
        // Given one transport whose loop turns only when woken, a socket is ready or curl's timer is due
        let server = try Self.server()
        defer { server.stop() }
        let transport = CurlTransport(loop: CurlMultiLoop(boundsWaits: false))
        let workers = 24, sends = 40

        // When many workers send at once, each a request as soon as its last one ended, some answered at once
        // and some a moment later, and every fifth one cancelled while it runs
        let tallies = try await Self.within(.seconds(240)) {
            await withTaskGroup(of: Tally.self) { group in
                for worker in 0..<workers {
                    group.addTask {
                        await Self.work(worker: worker, sends: sends, transport: transport, server: server)
                    }
                }
                return await group.reduce(into: [Tally]()) { $0.append($1) }
            }
        }

        // Then every send ended: each one left alone got its own answer, each cancelled one ended too
        let answered = tallies.map(\.answered).reduce(0, +), cancelled = tallies.map(\.cancelled).reduce(0, +)
        #expect(tallies.flatMap(\.wrong).isEmpty, "\(tallies.flatMap(\.wrong).prefix(5))")
        #expect(answered + cancelled == workers * sends)
        #expect(answered >= workers * sends * 4 / 5)
    }

    @Test func eachSendWakesTheLoopThatWentIdleAfterTheLastOne() async throws {
        // Given a loop with no periodic turn, which sleeps with nothing in flight whenever a transfer has ended
        let server = try Self.server()
        defer { server.stop() }
        let transport = CurlTransport(loop: CurlMultiLoop(boundsWaits: false))

        // When requests are sent one after another, each posted while the loop goes to sleep or sleeps
        let tally = try await Self.within(.seconds(120)) {
            await Self.work(worker: 0, sends: 200, transport: transport, server: server)
        }

        // Then each one woke it and was answered (or, every fifth, cancelled)
        #expect(tally.wrong.isEmpty, "\(tally.wrong.prefix(5))")
        #expect(tally.answered + tally.cancelled == 200)
    }

    @Test func curlsTimerEndsATransferThatNoSocketWakes() async throws {
        // Given a loop with no periodic turn and a server that says nothing for 30 seconds
        let server = try Self.server()
        defer { server.stop() }
        let transport = CurlTransport(loop: CurlMultiLoop(boundsWaits: false))

        // When a request with a half-second timeout is sent there
        let request = HTTPRequest(url: server.url("/stall"), timeout: .milliseconds(500))
        let outcome: Result<HTTPResponse, APIError> = try await Self.within(.seconds(25)) {
            do throws(APIError) {
                return .success(try await transport.send(request, context: RequestContext()))
            } catch {
                return .failure(error)
            }
        }

        // Then it ends with a timeout, which only curl's timer could have called for
        guard case .failure(.timedOut) = outcome else {
            Issue.record("expected a timeout, got \(outcome)")
            return
        }
    }

    private static func work(worker: Int, sends: Int, transport: CurlTransport,
                             server: LoopbackServer) async -> Tally {
        var tally = Tally()
        for index in 0..<sends {
            let path = (index % 2 == 0 ? "/late" : "/now") + "/\(worker)/\(index)"
            let request = HTTPRequest(url: server.url(path))
            if index % 5 == 4 {
                let task = Task { () throws(APIError) -> HTTPResponse in
                    try await transport.send(request, context: RequestContext())
                }
                await Task.yield()
                task.cancel()
                switch await task.result {
                case .success: tally.answered += 1
                case .failure: tally.cancelled += 1
                }
                continue
            }
            do throws(APIError) {
                let response = try await transport.send(request, context: RequestContext())
                let body = String(decoding: (try? response.body.readAll()) ?? Data(), as: UTF8.self)
                if body.contains(path) { tally.answered += 1 } else { tally.wrong.append("\(path): \(body)") }
            } catch {
                tally.wrong.append("\(path): \(error)")
            }
        }
        return tally
    }

    /// Runs `body`, failing the test if it has not ended within `limit`. The body runs in a task of its own that
    /// is left behind when the limit passes: a lost wake-up would leave even its cancellation waiting.
    static func within<T: Sendable>(_ limit: Duration,
                                            _ body: @escaping @Sendable () async -> T) async throws -> T {
        let resumed = Mutex(false)
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let once = { @Sendable (result: Result<T, any Error>) in
                guard resumed.withLock({ done in defer { done = true }; return !done }) else { return }
                continuation.resume(with: result)
            }
            let work = Task { once(.success(await body())) }
            Task {
                try? await Task.sleep(for: limit)
                once(.failure(LoopHung()))
                work.cancel()
            }
        }
    }

    struct LoopHung: Error, CustomStringConvertible {
        var description: String { "the transfers did not all end within the limit: a wake-up or timer was lost" }
    }
}
