import CourierTestSupport
import Foundation
import Synchronization
import Testing
@testable import CourierHTTP

/// CurlTransport against a real loopback server.
@Suite struct CurlTransportTests {
    static func echoServer() throws -> LoopbackServer {
        try LoopbackServer { request in
            switch request.path {
            case "/slow": return LoopbackServer.Reply(body: Data("late".utf8), delay: .seconds(20))
            case "/large": return LoopbackServer.Reply(body: Data(repeating: 0x61, count: 300_000))
            case "/echo":
                let text = "\(request.method) \(request.headers["x-probe"] ?? "-") \(String(decoding: request.body, as: UTF8.self))"
                return .json("{\"echo\":\"\(text)\"}")
            default: return .json("{\"ok\":true}", headers: [("X-Server", "loopback")])
            }
        }
    }

    @Test func getReturnsStatusHeadersBodyAndTiming() async throws {
        // Given a server answering JSON
        let server = try Self.echoServer()
        defer { server.stop() }
        let transport = CurlTransport()
        // When a GET is sent
        let response = try await transport.send(HTTPRequest(url: server.url("/users")), context: RequestContext())
        // Then the response carries what the server wrote, and a measured timing
        #expect(response.status == 200)
        #expect(response.reason == "OK")
        #expect(response.headers["x-server"] == "loopback")
        #expect(try response.body.readAll() == Data("{\"ok\":true}".utf8))
        #expect(response.httpVersion == "HTTP/1.1")
        #expect(response.timing.total > .zero)
        #expect(response.timing.firstByte != nil)
        #expect(response.timing.reusedConnection == false)
    }

    @Test func sequentialRequestsReuseOneKeepAliveConnection() async throws {
        // Given one transport
        let server = try Self.echoServer()
        defer { server.stop() }
        let transport = CurlTransport()
        // When three requests are sent one after another
        var reused: [Bool] = []
        for _ in 0..<3 {
            let response = try await transport.send(HTTPRequest(url: server.url("/users")), context: RequestContext())
            reused.append(response.timing.reusedConnection)
        }
        // Then the server accepted one connection and the later requests say they reused it
        #expect(reused == [false, true, true])
        #expect(server.connectionCount == 1)
    }

    @Test func postSendsMethodHeadersAndBody() async throws {
        let server = try Self.echoServer()
        defer { server.stop() }
        let transport = CurlTransport()
        // Given a PUT with a body and a header
        let request = HTTPRequest(method: .put, url: server.url("/echo"), headers: ["X-Probe": "42"],
                                  body: .data(Data("hello".utf8)))
        // When it is sent
        let response = try await transport.send(request, context: RequestContext())
        // Then the server saw the method, header and body
        #expect(String(decoding: try response.body.readAll(), as: UTF8.self) == "{\"echo\":\"PUT 42 hello\"}")
    }

    @Test func cancellingTheTaskAbortsTheTransferAndTheServerSeesItClosed() async throws {
        // Given a request the server answers only after 20 s
        let server = try Self.echoServer()
        defer { server.stop() }
        let transport = CurlTransport()
        let task = Task { try await transport.send(HTTPRequest(url: server.url("/slow")), context: RequestContext()) }
        #expect(await LoopbackServer.eventually { server.requestCount(path: "/slow") == 1 })
        // When the task is cancelled
        task.cancel()
        // Then the caller gets .cancelled and the server sees the connection closed before it answered
        await #expect(throws: APIError.self) { try await task.value }
        if case .failure(let error as APIError) = await task.result { #expect(error.kind == .cancelled) }
        #expect(await LoopbackServer.eventually { server.abortedCount(path: "/slow") == 1 })
        #expect(server.completedCount(path: "/slow") == 0)
    }

    @Test func aTaskCancelledBeforeSendingNeverReachesTheServer() async throws {
        let server = try Self.echoServer()
        defer { server.stop() }
        let transport = CurlTransport()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await transport.send(HTTPRequest(url: server.url("/users")), context: RequestContext())
        }
        let result = await task.result
        guard case .failure(let error as APIError) = result else { Issue.record("expected a failure"); return }
        #expect(error.kind == .cancelled)
        #expect(server.requestCount(path: "/users") == 0)
    }

    @Test func aBodyOverTheSpillThresholdIsWrittenToATemporaryFile() async throws {
        // Given a transport that spills past 64 KB into a temporary folder
        let server = try Self.echoServer()
        defer { server.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let transport = CurlTransport(configuration: .init(spillThreshold: 64 * 1024, temporaryDirectory: folder))
        // When a 300 KB body arrives, with chunk and progress callbacks
        let chunkBytes = Mutex(0)
        let lastProgress = Mutex<TransferProgress?>(nil)
        let context = RequestContext(onProgress: { progress in lastProgress.withLock { $0 = progress } },
                                     onChunk: { chunk in chunkBytes.withLock { $0 += chunk.count } })
        let response = try await transport.send(HTTPRequest(url: server.url("/large")), context: context)
        // Then the body is a file of the right size and content, and the callbacks saw every byte
        guard case .file(let url, let size) = response.body else { Issue.record("expected a file body"); return }
        #expect(size == 300_000)
        #expect(url.deletingLastPathComponent().standardizedFileURL.path == folder.standardizedFileURL.path)
        #expect(try Data(contentsOf: url) == Data(repeating: 0x61, count: 300_000))
        #expect(chunkBytes.withLock { $0 } == 300_000)
        #expect(lastProgress.withLock { $0 }?.received == 300_000)
        #expect(lastProgress.withLock { $0 }?.expected == 300_000)
    }

    @Test func aBodyOverTheMaximumSizeFailsAsTooLarge() async throws {
        let server = try Self.echoServer()
        defer { server.stop() }
        let transport = CurlTransport(configuration: .init(maxBodySize: 100_000))
        await #expect {
            _ = try await transport.send(HTTPRequest(url: server.url("/large")), context: RequestContext())
        } throws: { error in
            (error as? APIError)?.kind == .tooLarge
        }
    }

    @Test func theRequestTimeoutEndsTheAttemptAsTimedOut() async throws {
        let server = try Self.echoServer()
        defer { server.stop() }
        let transport = CurlTransport()
        let request = HTTPRequest(url: server.url("/slow"), timeout: .milliseconds(200))
        await #expect {
            _ = try await transport.send(request, context: RequestContext())
        } throws: { error in
            (error as? APIError)?.kind == .timedOut
        }
        #expect(await LoopbackServer.eventually { server.abortedCount(path: "/slow") == 1 })
    }

    @Test func aRefusedConnectionSaysNothingListensOnThePortAndKeepsCurlsMessage() async throws {
        // Given a port nobody listens on (a server started and stopped)
        let server = try Self.echoServer()
        let url = server.url("/users")
        server.stop()
        let transport = CurlTransport()
        // Then the failure is a refused connection naming the host and port, and keeps curl's explanation
        await #expect {
            _ = try await transport.send(HTTPRequest(url: url), context: RequestContext())
        } throws: { error in
            guard let error = error as? APIError, case .cannotConnect(let failure) = error else { return false }
            return error.kind == .connectionRefused && failure.reason == .refused
                && "\(error)" == "nothing listens on 127.0.0.1:\(url.port ?? 0)" && !failure.underlying.isEmpty
        }
    }

    @Test func aURLWithoutHTTPSchemeIsABadURLBeforeAnyIO() async throws {
        let transport = CurlTransport()
        await #expect {
            _ = try await transport.send(HTTPRequest(url: URL(string: "ftp://example.com/file")!), context: RequestContext())
        } throws: { error in
            (error as? APIError)?.kind == .badURL
        }
    }

    @Test func concurrentTransfersRunOnTheOneLoop() async throws {
        let server = try Self.echoServer()
        defer { server.stop() }
        let transport = CurlTransport()
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask { try await transport.send(HTTPRequest(url: server.url("/users")), context: RequestContext()).status }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: 200, count: 8))
    }
}
