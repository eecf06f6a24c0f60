import CourierTestSupport
import Foundation
import Testing
@testable import CourierHTTP

/// Failures and inputs described in the right words: a disk error is not a protocol error, a typed URL
/// is encoded once, a folded header line is joined rather than dropped.
@Suite struct WrongWordsTests {
    @Test("courier send encodes a typed URL once: %2B stays %2B next to a space that needs encoding",
          .enabled(if: CourierCLI.isBuilt, "the courier binary is not built"))
    func typedURLIsNotEncodedTwice() async throws {
        // Given a server that records the query it receives
        let server = try LoopbackServer { _ in .json("{}") }
        defer { server.stop() }

        // When courier sends a URL with an escape and a raw space, and one with only the escape
        let mixed = try await CourierCLI.run(["send", "http://127.0.0.1:\(server.port)/q?q=a%2Bb&r=x y"])
        let plain = try await CourierCLI.run(["send", "http://127.0.0.1:\(server.port)/p?q=a%2Bb"])

        // Then both arrive as typed, the space encoded once and %2B never as %252B
        #expect(mixed.status == 0 && plain.status == 0, "\(mixed.stderr) \(plain.stderr)")
        let queries = server.requests.map(\.query)
        #expect(queries.contains("q=a%2Bb&r=x%20y"), "\(queries)")
        #expect(queries.contains("q=a%2Bb"), "\(queries)")
    }

    @Test("An obs-fold continuation line is joined to the header before it")
    func foldedHeaderIsJoined() async throws {
        // Given a server whose header continues on a line starting with spaces
        let server = try LoopbackServer { _ in
            .raw("HTTP/1.1 200 OK\r\nX-Folded: first\r\n   second\r\nContent-Length: 2\r\n\r\nok")
        }
        defer { server.stop() }

        // When the transport reads it
        let response = try await CurlTransport().send(HTTPRequest(url: server.url("/fold")), context: RequestContext())

        // Then the value is whole
        #expect(response.headers["X-Folded"] == "first second")
        #expect(response.status == 200)
    }

    @Test("A body that cannot be written to disk is a disk error, not the server's protocol error")
    func diskFailureIsADiskError() async throws {
        // Given a transport spilling bodies into a folder that does not exist
        let server = try LoopbackServer { _ in .json(String(repeating: "x", count: 4096)) }
        defer { server.stop() }
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("gone-\(UUID().uuidString)")
        let transport = CurlTransport(configuration: .init(spillThreshold: 16, temporaryDirectory: missing))

        // When a body larger than the spill threshold arrives
        var caught: APIError?
        do {
            _ = try await transport.send(HTTPRequest(url: server.url("/big")), context: RequestContext())
        } catch let error as APIError {
            caught = error
        }

        // Then it is reported as a disk error
        #expect(caught?.kind == .disk, "\(String(describing: caught))")
        #expect(caught?.description.hasPrefix("disk error: cannot create") == true)
    }
}
