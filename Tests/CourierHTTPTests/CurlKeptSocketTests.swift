import CourierMessage
import CourierTestSupport
import Foundation
import Synchronization
import Testing
@testable import CourierHTTP

/// A kept connection's socket stays in the curl loop's epoll set between transfers (`CurlMultiDriver`). A
/// server that closes an idle connection, a socket closed and its number given to the next one: none of it
/// may leave a transfer unwatched. The loops here have no periodic turn (`CurlMultiLoop(boundsWaits: false)`),
/// so a socket left out of the set would hang its transfer, which the limits turn into a failure.
@Suite struct CurlKeptSocketTests {
    /// `/bye/…` answers and then closes the connection without saying so (no `Connection: close`), so the
    /// client keeps it and finds it closed later; `/close/…` closes when the client asks; the rest stay open.
    static func server() throws -> LoopbackServer {
        try LoopbackServer { request in
            if request.path.hasPrefix("/bye") {
                let body = request.path
                return .raw("HTTP/1.1 200 OK\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
            }
            return .json("\"\(request.path)\"")
        }
    }

    @Test func connectionsClosedBetweenTransfersLeaveNoTransferUnwatched() async throws {
        // Given a loop with no periodic turn and a server that closes some connections after answering
        let server = try Self.server()
        defer { server.stop() }
        let transport = CurlTransport(loop: CurlMultiLoop(boundsWaits: false))

        // When workers send one request after another, some closed by the server while kept, some by the client
        // (Connection: close), so descriptor numbers are freed and taken again by new connections
        let wrong = try await CurlLoopWakeUpTests.within(.seconds(180)) {
            await withTaskGroup(of: [String].self) { group in
                for worker in 0..<6 {
                    group.addTask { await Self.work(worker: worker, sends: 45, transport: transport, server: server) }
                }
                return await group.reduce(into: [String]()) { $0 += $1 }
            }
        }

        // Then every request came back with its own answer
        #expect(wrong.isEmpty, "\(wrong.prefix(5))")
        #expect(server.requests.count == 6 * 45)
        // And connections were opened again after the closed ones
        #expect(server.connectionCount > 6)
    }

    @Test func aStatusLineReadFromBytesIsReadAsTheTextPathReadsIt() {
        let lines = ["HTTP/1.1 200 OK", "HTTP/2 204", "HTTP/2 200 ", "HTTP/1.1 404 Not Found", "HTTP/1.0 301 Moved  Twice",
                     "HTTP/1.1  200 OK", "HTTP/1.1 200  OK", "HTTP/1.1 20 OK", "HTTP/1.1 2000 OK", "HTTP/1.1 abc OK",
                     "HTTP/1.1 200 OK ", "HTTP/1.1", "HTTP/1.1 ", "HTTP/3 599 Ünïcode reason"]
        for line in lines {
            var fromBytes = ResponseHead(version: "old", status: 1, reason: "old", headers: ["X-Old": "1"])
            var fromText = fromBytes
            Array((line + "\r\n").utf8).withUnsafeBytes { fromBytes.consume(rawLine: $0) }
            fromText.consume(line: line + "\r\n")
            #expect(fromBytes == fromText, "\(line)")
        }
    }

    private static func work(worker: Int, sends: Int, transport: CurlTransport,
                             server: LoopbackServer) async -> [String] {
        var wrong: [String] = []
        for index in 0..<sends {
            let path = ["/bye", "/keep", "/close", "/keep"][index % 4] + "/\(worker)/\(index)"
            let headers: HTTPHeaders = path.hasPrefix("/close") ? ["Connection": "close"] : [:]
            let request = HTTPRequest(url: server.url(path), headers: headers)
            do throws(APIError) {
                let response = try await transport.send(request, context: RequestContext())
                let body = String(decoding: (try? response.body.readAll()) ?? Data(), as: UTF8.self)
                if !body.contains(path) { wrong.append("\(path): \(body)") }
            } catch {
                wrong.append("\(path): \(error)")
            }
        }
        return wrong
    }
}
