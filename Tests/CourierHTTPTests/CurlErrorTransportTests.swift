import CourierTestSupport
import Foundation
import Testing
@testable import CourierHTTP

/// Replies that break HTTP and connections that drop, written byte for byte by a loopback server and
/// read by the real libcurl transport: each ends in the right kind after the right number of requests.
/// (The demo server covers the rest of the matrix; these are faults it has no endpoint for.)
@Suite struct CurlErrorTransportTests {
    /// One raw reply and what the client must make of it.
    struct Fault: CustomTestStringConvertible, Sendable {
        var name: String
        var reply: String
        var kind: String
        var requests: Int
        var testDescription: String { "\(name) → \(kind) after \(requests) request(s)" }
    }

    static let manyHeaders = (1...40).map { "X-Filler-\($0): " + String(repeating: "f", count: 8_000) + "\r\n" }
        .joined()

    static let faults: [Fault] = [
        Fault(name: "a chunk size that is not hexadecimal",
              reply: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n",
              kind: "protocol", requests: 1),
        Fault(name: "320 KB of header lines, over curl's 300 KB total",
              reply: "HTTP/1.1 200 OK\r\n" + manyHeaders + "Content-Length: 2\r\n\r\nok", kind: "protocol",
              requests: 1),
        Fault(name: "a reply that is not HTTP at all", reply: "SSH-2.0-OpenSSH_9.2\r\n\r\n", kind: "protocol",
              requests: 1),
        Fault(name: "a Content-Length that is not a number",
              reply: "HTTP/1.1 200 OK\r\nContent-Length: many\r\n\r\nok", kind: "protocol", requests: 1),
        Fault(name: "an empty reply", reply: "", kind: "connectionLost", requests: 3),
        Fault(name: "a body shorter than its Content-Length",
              reply: "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nshort", kind: "connectionLost", requests: 3),
    ]

    @Test("A reply that breaks HTTP is sent once; a dropped connection is retried", arguments: faults)
    func rawReplyEndsInTheRightKind(fault: Fault) async throws {
        // Given a server that answers every request with the same raw bytes, then closes
        let server = try LoopbackServer { _ in .raw(fault.reply) }
        defer { server.stop() }
        let client = HTTPClient(configuration: .init(transport: CurlTransport(), retry: RetryPolicy(
            deadline: .seconds(600), baseDelay: .milliseconds(10), maxDelay: .milliseconds(20))))

        // When a GET is sent
        var failure: APIError?
        do { _ = try await client.send(HTTPRequest(url: server.url("/fault"))) } catch { failure = error }

        // Then it fails with the expected kind, after the expected number of requests
        #expect(failure?.kind.rawValue == fault.kind, "\(String(describing: failure))")
        #expect(server.requestCount(path: "/fault") == fault.requests)
    }
}
