import CourierTestSupport
import Foundation
import Testing

/// Compatibility rows about timeouts and redirects: each tag changes what happens on the wire.
@Suite("Compatibility: timeouts and redirects")
struct CompatibilityTransportTests {
    @Test func aTimeoutWrittenWithAUnitStopsARequestTheServerNeverAnswers() async throws {
        // Given a server that answers after a minute and a request allowing it 300 ms, in JetBrains' spelling
        let server = try LoopbackServer { _ in LoopbackServer.Reply(status: 200, delay: .seconds(60)) }
        defer { server.stop() }
        let folder = try TemporaryFolder()
        try folder.write("api.http", """
            # @timeout 300 ms
            # @max-attempts 1
            GET \(server.url("/slow").absoluteString)
            """)
        // (no idle timeout: without the tag nothing would stop the request, and the child would be killed)
        let result = try await CourierCLI.run(["run", "api.http", "--idle-timeout", "0"], in: folder.url,
                                              limit: .seconds(40))
        // Then it fails as timed out rather than waiting for the answer
        #expect(result.status == 28)
        #expect((result.stdout + result.stderr).contains("timed out"), "\(result.stdout)\(result.stderr)")
    }

    @Test func aConnectionTimeoutStopsAConnectionTheServerNeverAccepts() async throws {
        // Given a listener whose queue is full: a further connection is never completed
        let listener = try FullListener()
        defer { listener.close() }
        let folder = try TemporaryFolder()
        try folder.write("api.http", """
            # @connection-timeout 300 ms
            # @max-attempts 1
            GET http://127.0.0.1:\(listener.port)/never
            """)
        // (the client's own connect timeout is 30 s: past the child's limit, so only the tag can end it)
        let result = try await CourierCLI.run(["run", "api.http", "--idle-timeout", "0"], in: folder.url,
                                              limit: .seconds(20))
        #expect(result.status == 28, "\(result.stdout)\(result.stderr)")
        #expect((result.stdout + result.stderr).contains("timed out"), "\(result.stdout)\(result.stderr)")
    }

    @Test func noRedirectStopsAtTheFirstAnswerAndRedirectsAreFollowedOtherwise() async throws {
        let server = try LoopbackServer { request in
            request.path == "/from" ? LoopbackServer.Reply(status: 302, headers: [("Location", "/to")]) : .json("{}")
        }
        defer { server.stop() }
        let folder = try TemporaryFolder()
        try folder.write("api.http", """
            # @no-redirect
            GET \(server.url("/from").absoluteString)

            ###
            GET \(server.url("/from").absoluteString)
            """)
        let result = try await CourierCLI.run(["run", "api.http", "--all"], in: folder.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(server.requests.map(\.path) == ["/from", "/from", "/to"])
    }
}

/// A loopback listener that never accepts, its one-place queue taken by a connection of its own: the kernel
/// leaves any further connection half-open until the client gives up.
private final class FullListener {
    let port: UInt16
    private let listener: Int32
    private let filler: Int32

    init() throws {
        struct Failed: Error {}
        let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(server, $0, length) == 0 && listen(server, 0) == 0 && getsockname(server, $0, &length) == 0
            }
        }
        let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        let connected = bound && withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        listener = server
        filler = client
        port = UInt16(bigEndian: address.sin_port)
        guard server >= 0, client >= 0, connected else {
            close()
            throw Failed()
        }
    }

    func close() {
        _ = Glibc.close(filler)
        _ = Glibc.close(listener)
    }
}
