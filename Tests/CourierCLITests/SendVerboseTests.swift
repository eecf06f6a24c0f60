import CourierTestSupport
import Foundation
import Testing

/// `courier send -v` shows where the request went and what it carried: the whole URL with its port, and
/// the request head as it went on the wire, every header included, secrets masked.
@Suite("courier send -v")
struct SendVerboseTests {
    @Test func verboseShowsTheWholeURLAndEveryHeaderSentWithSecretsMasked() async throws {
        // Given a loopback server that records what it receives
        let server = try CaptureServer()
        defer { server.stop() }
        let url = server.base + "/users?access_token=tok123&q=1"

        // When courier sends with -v, a custom header and a bearer token
        let result = try await CourierCLI.run(["send", "-v", url, "-H", "X-Trace: abc", "-H", "Authorization: Bearer sekrit"])

        // Then standard error names the whole URL with its port, then every header that went out
        let port = server.port
        let lines = result.stderr.components(separatedBy: "\n")
        #expect(lines.contains { $0.hasSuffix("→ GET http://127.0.0.1:\(port)/users?access_token=REDACTED&q=1 attempt 1") },
                "\(result.stderr)")
        #expect(lines.contains("> GET /users?access_token=REDACTED&q=1 HTTP/1.1"), "\(result.stderr)")
        for header in ["> Host: 127.0.0.1:\(port)", "> Accept: */*", "> X-Trace: abc", "> Authorization: Bearer REDACTED"] {
            #expect(lines.contains(header), "\(header) in \(result.stderr)")
        }
        #expect(lines.contains { $0.hasPrefix("> User-Agent: courier/") })
        #expect(lines.contains { $0.hasPrefix("> Accept-Encoding: ") })
        // And no secret is printed, while the server received them
        #expect(!result.stderr.contains("sekrit") && !result.stderr.contains("tok123"))
        let received = try #require(server.requests.first)
        #expect(received.header("Authorization") == "Bearer sekrit")
    }
}
