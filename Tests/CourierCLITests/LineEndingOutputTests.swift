import CourierTestSupport
import Foundation
import Testing

/// A text body written with CRLF line endings (servers' error pages, Windows text) prints as lines, as the
/// explorer shows it; a carriage return anywhere else is still escaped, in memory and from a spilled file.
@Suite(.enabled(if: CourierCLI.isBuilt, "the courier binary is not built"))
struct LineEndingOutputTests {
    @Test("CRLF line endings print as they are; a lone carriage return prints as \\x0D")
    func crlfPrintsAsLines() async throws {
        // Given a server whose text body ends its lines with CRLF and holds two lone carriage returns
        let body = "<html>\r\n<title>404</title>\r\nover\rwritten\r\n</html>\r"
        let server = try LoopbackServer { _ in
            LoopbackServer.Reply(status: 404, headers: [("Content-Type", "text/html")], body: Data(body.utf8))
        }
        defer { server.stop() }

        // When courier sends it
        let result = try await CourierCLI.run(["send", server.url("/missing").absoluteString])

        // Then the lines print as lines, and only the lone carriage returns are escaped
        #expect(result.stdout.contains("<html>\r\n<title>404</title>\r\nover\\x0Dwritten\r\n</html>\\x0D"),
                "\(result.stdout.debugDescription)")
    }

    @Test("A body spilled to disk keeps its CRLF lines across the chunks it is printed in")
    func spilledBodyKeepsItsLines() async throws {
        // Given a 5.5 MB text body (past the 4 MB kept in memory) of CRLF lines, a lone carriage return at its end
        let body = Data((String(repeating: "row of text\r\n", count: 440_000) + "end\r").utf8)
        let server = try LoopbackServer { _ in
            LoopbackServer.Reply(status: 200, headers: [("Content-Type", "text/plain")], body: body)
        }
        defer { server.stop() }

        // When courier sends it
        let result = try await CourierCLI.run(["send", server.url("/big").absoluteString])

        // Then every line prints with its CRLF, nothing is escaped but the last carriage return
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.components(separatedBy: "row of text\r\n").count == 440_001)
        #expect(result.stdout.components(separatedBy: "\\x0D").count == 2)
        #expect(result.stdout.contains("end\\x0D"))
    }
}
