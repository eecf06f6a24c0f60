import Foundation
import Testing

/// A large text body full of terminal controls, printed from its spilled file: the same rules as a
/// small body (controls shown, never sent raw; JSON escapes them and still decodes to the text).
@Suite struct SendCommandLargeTextTests {
    /// ESC, DEL, a C1 control (CSI) and a right-to-left override, repeated past the 4 MiB spill
    /// threshold so some fall across the 256 KiB read chunks.
    static let text: String = {
        let unit = "line \u{1B}[31mred\u{1B}[0m \u{7F} \u{9B}2J \u{202E}txt.exe\n"
        return String(repeating: unit, count: (4_400_000 / unit.utf8.count) + 1)
    }()

    @Test func controlsInALargeTextBodyAreShownNotSentAndJSONStillDecodesToTheText() async throws {
        // Given a server answering with the large text body
        let server = try LoopbackServer { _ in
            LoopbackServer.Reply(status: 200, headers: [("Content-Type", "text/plain")], body: Data(Self.text.utf8))
        }
        defer { server.stop() }
        // When it is printed for people and as JSON
        let human = try await CourierProcess.run(["send", server.url("/").absoluteString])
        let json = try await CourierProcess.run(["send", server.url("/").absoluteString, "--json"])
        // Then no control reaches the terminal raw, and the JSON body is the text exactly
        #expect(human.status == 0)
        for raw in ["\u{1B}", "\u{7F}", "\u{9B}", "\u{202E}"] { #expect(!human.stdout.contains(raw)) }
        #expect(human.stdout.contains("line \\x1B[31mred\\x1B[0m \\x7F \\x9B2J \\u202Etxt.exe\n"))
        #expect(json.status == 0)
        for raw in ["\u{1B}", "\u{7F}", "\u{9B}", "\u{202E}"] { #expect(!json.stdout.contains(raw)) }
        let object = try CourierProcess.json(json.stdout)
        #expect(object["body"] as? String == Self.text)
    }
}
