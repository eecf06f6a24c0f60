import CourierTestSupport
import Foundation
import Testing
@testable import CourierHTTP

/// A transport's loop thread is also a task executor (`CurlTransport.executor`): a task that prefers it runs
/// there, so the requests it sends and the responses that resume it never cross threads.
@Suite struct CurlLoopExecutorTests {
    static func server() throws -> LoopbackServer {
        try LoopbackServer { request in
            request.path == "/slow" ? LoopbackServer.Reply(body: Data("late".utf8), delay: .seconds(30))
                : .json("\"\(request.path)\"")
        }
    }

    /// The calling thread's id, as the loop keeps its own (`CurlMultiLoop.threadID`).
    static func thread() -> UInt { pthread_self() }

    @Test func aTaskPreferringTheLoopRunsOnItAndItsRequestsAllComplete() async throws {
        // Given a transport and a task that prefers its loop
        let server = try Self.server()
        defer { server.stop() }
        let transport = CurlTransport()

        // When the task sends requests one after another, then from child tasks at once
        let (threads, bodies) = await Task(executorPreference: transport.executor) {
            var threads: Set<UInt> = [Self.thread()]
            var bodies: [String] = []
            for index in 0..<50 {
                let request = HTTPRequest(url: server.url("/one/\(index)"))
                let response = try? await transport.send(request, context: RequestContext())
                threads.insert(Self.thread())
                bodies.append(String(decoding: (try? response?.body.readAll()) ?? Data(), as: UTF8.self))
            }
            let together = await withTaskGroup(of: (UInt, String).self) { group in
                for index in 0..<50 {
                    group.addTask {
                        let response = try? await transport.send(HTTPRequest(url: server.url("/many/\(index)")),
                                                                 context: RequestContext())
                        let body = String(decoding: (try? response?.body.readAll()) ?? Data(), as: UTF8.self)
                        return (Self.thread(), body)
                    }
                }
                return await group.reduce(into: [(UInt, String)]()) { $0.append($1) }
            }
            threads.formUnion(together.map(\.0))
            return (threads, bodies + together.map(\.1).sorted())
        }.value

        // Then every request got its own answer, and the task and its children ran on the loop thread alone
        #expect(bodies.count == 100)
        #expect(bodies.prefix(50).enumerated().allSatisfy { $0.element == "\"/one/\($0.offset)\"" })
        #expect(Set(bodies.suffix(50)) == Set((0..<50).map { "\"/many/\($0)\"" }))
        #expect(threads == [transport.loop.threadID])
    }

    @Test func aSendFromTheLoopIsCancelledWhenItsTaskIs() async throws {
        // Given a task on the loop waiting for a server that answers after 30 seconds
        let server = try Self.server()
        defer { server.stop() }
        let transport = CurlTransport()
        let task = Task(executorPreference: transport.executor) { () throws(APIError) -> HTTPResponse in
            try await transport.send(HTTPRequest(url: server.url("/slow")), context: RequestContext())
        }
        #expect(await LoopbackServer.eventually { server.requestCount(path: "/slow") == 1 })

        // When the task is cancelled
        task.cancel()

        // Then the send ends as cancelled
        let result = await task.result
        guard case .failure(let error) = result, case .cancelled? = error as? APIError else {
            Issue.record("expected cancelled, got \(result)")
            return
        }
    }

    @Test func aTaskPreferringAStoppedLoopStillRuns() async throws {
        // Given the executor of a transport that is gone, its loop stopping or stopped
        var transport: CurlTransport? = CurlTransport()
        let executor = try #require(transport?.executor)
        transport = nil

        // When a task prefers it and suspends a few times
        let value = await Task(executorPreference: executor) { () -> Int in
            var total = 0
            for step in 1...3 {
                await Task.yield()
                total += step
            }
            return total
        }.value

        // Then it runs to its end all the same
        #expect(value == 6)
    }
}
