import Foundation
import Testing
import CourierTestSupport

/// `courier send` lays out a large JSON body, printed from its spilled file chunk by chunk, with the
/// explorer's layout engine: each top-level value on its own lines, and input that stops being JSON
/// shown from there exactly as it came.
@Suite struct SendCommandJSONLayoutTests {
    /// Serves `body` as JSON and returns what `courier send` printed.
    static func printed(_ body: String) async throws -> (status: Int32, stdout: String) {
        let server = try LoopbackServer { _ in
            LoopbackServer.Reply(status: 200, headers: [("Content-Type", "application/json")], body: Data(body.utf8))
        }
        defer { server.stop() }
        let result = try await CourierCLI.run(["send", server.url("/").absoluteString])
        return (result.status, result.stdout)
    }

    /// Past the 4 MiB threshold, so the body is spilled to a file and printed from it.
    static let count = 400_000

    @Test func concatenatedValuesInALargeBodyEachStartOnTheirOwnLine() async throws {
        // Given a 5 MB body of JSON objects written one after the other
        let body = (0..<Self.count).map { #"{"n":\#($0)}"# }.joined()
        // When it is printed
        let result = try await Self.printed(body)
        // Then each object is laid out on its own lines (the old indenter ran them together as `}{`)
        #expect(result.status == 0)
        let bytes = Data(result.stdout.utf8)
        #expect(bytes.firstRange(of: Data("{\n  \"n\": 0\n}\n{\n  \"n\": 1\n}\n".utf8)) != nil)
        #expect(bytes.firstRange(of: Data("{\n  \"n\": \(Self.count - 1)\n}\n".utf8)) != nil)
        #expect(bytes.firstRange(of: Data("}{".utf8)) == nil)
    }

    @Test func aLargeBodyThatStopsBeingJSONIsShownFromThereAsItCame() async throws {
        // Given a 5 MB JSON array that turns into an HTML error page near its end
        let items = (0..<Self.count).map { #"{"id":\#($0)}"# }.joined(separator: ",")
        let tail = "<html>\n  <b>upstream  timed out</b>\n</html>\n"
        // When it is printed
        let result = try await Self.printed(#"{"items": ["# + items + ", " + tail)
        // Then the JSON part is laid out, and the rest keeps its spaces and lines (the old indenter
        // dropped every space outside a string: `<b>upstreamtimedout</b>`)
        #expect(result.status == 0)
        let bytes = Data(result.stdout.utf8)
        #expect(bytes.firstRange(of: Data("{\n  \"items\": [\n    {\n      \"id\": 0\n    },\n".utf8)) != nil)
        #expect(bytes.firstRange(of: Data("      \"id\": \(Self.count - 1)\n    },\n".utf8) + Data(tail.utf8)) != nil)
    }
}
