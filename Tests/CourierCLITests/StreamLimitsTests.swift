import CourierTestSupport
import CourierDemo
import CourierHTTP
import Foundation
import Synchronization
import Testing

/// A body the caller consumes as it arrives has no size limit and leaves no file; a silent server is
/// given up on after the idle timeout, while `--timeout` stays the limit for the whole exchange.
@Suite("stream limits and idle timeouts", .serialized)
struct StreamLimitsTests {
    final class Count: Sendable {
        let bytes = Atomic<Int>(0)
    }

    @Test func aBodyTheCallerConsumesAsItArrivesIsNotKeptAndHasNoSizeLimit() async throws {
        // Given a transport that would stop any kept body at 64 KB, spilling past 16 KB into its own folder
        let server = try DemoServer.start()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("no-keep-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer {
            server.stop()
            try? FileManager.default.removeItem(at: folder)
        }
        let transport = CurlTransport(configuration: .init(spillThreshold: 16 << 10, maxBodySize: 64 << 10,
                                                           temporaryDirectory: folder))
        let seen = Count()
        var context = RequestContext()
        context.onChunk = { seen.bytes.add($0.count, ordering: .relaxed) }
        context.keepsBody = { false }
        // When a 2 MB body arrives for a caller that reads it from onChunk alone
        let response = try await transport.send(HTTPRequest(url: server.baseURL.appendingPathComponent("large")
            .appending(queryItems: [URLQueryItem(name: "mb", value: "2")])), context: context)
        // Then it completes (no tooLarge), every byte reached the caller, nothing was kept or written
        #expect(response.status == 200)
        #expect(response.body.size == 0)
        #expect(seen.bytes.load(ordering: .relaxed) >= 2_000_000)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test func aKeptBodyStillStopsAtTheLimit() async throws {
        let server = try DemoServer.start()
        defer { server.stop() }
        let transport = CurlTransport(configuration: .init(maxBodySize: 64 << 10))
        await #expect(throws: APIError.self) {
            _ = try await transport.send(HTTPRequest(url: server.baseURL.appendingPathComponent("large")
                .appending(queryItems: [URLQueryItem(name: "mb", value: "1")])), context: RequestContext())
        }
    }

    @Test func aSilentServerIsGivenUpOnAfterTheIdleTimeout() async throws {
        // Given a server that sends its head and then nothing, and a transport with a 1 s idle timeout
        let server = try DemoServer.start()
        defer { server.stop() }
        let transport = CurlTransport(configuration: .init(idleTimeout: .seconds(1)))
        // When a request without a total timeout is sent
        do {
            _ = try await transport.send(HTTPRequest(url: server.baseURL.appendingPathComponent("chaos/stall")),
                                         context: RequestContext())
            Issue.record("the stalled request completed")
        } catch {
            // Then it fails as timed out instead of waiting for ever
            guard case .timedOut = error else { Issue.record("expected timedOut, got \(error)"); return }
        }
    }

    @Test func sendGivesUpOnASilentServerWithItsIdleTimeoutOption() async throws {
        let server = try DemoServer.start()
        defer { server.stop() }
        let result = try await CourierCLI.run(["send", server.baseURL.appendingPathComponent("chaos/stall").absoluteString,
                                                   "--idle-timeout", "1", "--retry", "0"])
        #expect(result.status == 28)
        #expect((result.stdout + result.stderr).lowercased().contains("timed out"))
    }
}
