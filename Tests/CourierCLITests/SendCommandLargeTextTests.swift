import CourierTestSupport
import Foundation
import Testing

/// A large text body full of terminal controls, printed from its spilled file: the same rules as a
/// small body (controls shown, never sent raw; JSON escapes them and still decodes to the text).
@Suite struct SendCommandLargeTextTests {
    /// ESC, DEL, a C1 control (CSI) and a right-to-left override, repeated past the 4 MiB spill
    /// threshold so some fall across the 256 KiB read chunks.
    static let unit = "line \u{1B}[31mred\u{1B}[0m \u{7F} \u{9B}2J \u{202E}txt.exe\n"
    static let text = String(repeating: unit, count: (4_300_000 / unit.utf8.count) + 1)

    @Test func controlsInALargeTextBodyAreShownNotSentAndJSONStillDecodesToTheText() async throws {
        // Given a server answering with the large text body
        let server = try LoopbackServer { _ in
            LoopbackServer.Reply(status: 200, headers: [("Content-Type", "text/plain")], body: Data(Self.text.utf8))
        }
        defer { server.stop() }
        // When it is printed for people and as JSON
        let human = try await CourierCLI.run(["send", server.url("/").absoluteString])
        let json = try await CourierCLI.run(["send", server.url("/").absoluteString, "--json"])
        // Then no control reaches the terminal raw, and the JSON body is the text exactly
        // (Searched as bytes: String.contains on megabytes is slow in a debug build.)
        let humanBytes = Data(human.stdout.utf8)
        let jsonBytes = Data(json.stdout.utf8)
        let raws = ["\u{1B}", "\u{7F}", "\u{9B}", "\u{202E}"].map { Data($0.utf8) }
        #expect(human.status == 0)
        for raw in raws { #expect(humanBytes.firstRange(of: raw) == nil) }
        #expect(humanBytes.firstRange(of: Data("line \\x1B[31mred\\x1B[0m \\x7F \\x9B2J \\u202Etxt.exe\n".utf8)) != nil)
        #expect(json.status == 0)
        for raw in raws { #expect(jsonBytes.firstRange(of: raw) == nil) }
        // The body's first line, cut from the object and decoded, is the text's (decoding all
        // of it is slow in a debug build).
        let start = try #require(jsonBytes.firstRange(of: Data("\"body\":\"".utf8)))
        let escapedUnit = try #require(jsonBytes[start.upperBound...].firstRange(of: Data("\\nline".utf8)))
        let first = Data(jsonBytes[start.upperBound..<escapedUnit.upperBound].dropLast(4))
        let decoded = try JSONSerialization.jsonObject(with: Data("\"".utf8) + first + Data("\"".utf8),
                                                       options: .fragmentsAllowed) as? String
        #expect(decoded == Self.unit)
        #expect(jsonBytes.firstRange(of: Data("\"body_size\":\(Self.text.utf8.count)".utf8)) != nil)
    }
}
