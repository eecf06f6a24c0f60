import CourierTestSupport
import CourierDemo
import CourierSecurity
import Foundation
import Testing
@testable import CourierWebSocket

/// A hostile WebSocket peer cannot drive the terminal through `courier ws`: the messages, the close reason
/// and a refused upgrade's body are escaped on a terminal, in a pipe and in `--json` alike.
@Suite(.serialized) struct HostileWebSocketOutputTests {
    /// Sets the window title, then writes the clipboard (OSC 0 and OSC 52).
    static let titleAndClipboard = "\u{1B}]0;pwned-title\u{07}\u{1B}]52;c;aGk=\u{07}"
    /// A text message with C0, C1 and bidi controls.
    static let hostileText = "hi \u{1B}[2J \u{9B}2J \u{202E}txt.exe"

    /// The first scalar a terminal would act on, or nil.
    static func firstDangerous(_ text: String) -> String? {
        text.unicodeScalars.first { Sanitizer.isDangerous($0) }.map { String(format: "U+%04X", $0.value) }
    }

    /// An unmasked server frame with a payload under 126 bytes.
    static func frame(_ opcode: UInt8, _ payload: [UInt8]) -> [UInt8] { [0x80 | opcode, UInt8(payload.count)] + payload }

    /// A server that upgrades, sends the hostile text, then closes with 4000 and the hostile reason.
    static func hostileServer() throws -> LoopbackUpgradeServer {
        try LoopbackUpgradeServer { fd, request, _ in
            acceptUpgrade(fd, request)
            writeRaw(fd, frame(0x1, Array(hostileText.utf8)))
            writeRaw(fd, frame(0x8, [0x0F, 0xA0] + Array(titleAndClipboard.utf8)))
            _ = readRaw(fd, seconds: 2)
        }
    }

    @Test func aCloseReasonAndMessagesWithEscapesArePrintedEscapedAsTextAndJSON() async throws {
        // Given a peer that sends a hostile message and closes with 4000 and a title-and-clipboard reason
        let server = try Self.hostileServer()
        defer { server.stop() }

        // When courier ws prints them into a pipe, as text and as JSON
        let plain = try await CourierCLI.run(["ws", server.url("/raw").absoluteString])
        let json = try await CourierCLI.run(["ws", server.url("/raw").absoluteString, "--json"])

        // Then no output carries a byte a terminal acts on, and the text is still readable
        for output in [plain.stdout, plain.stderr, json.stdout, json.stderr] {
            #expect(Self.firstDangerous(output) == nil, "\(output)")
        }
        #expect(plain.stdout.contains("hi \\x1B[2J \\x9B2J \\u202Etxt.exe"))
        #expect(plain.stderr.contains("closed 4000 \\x1B]0;pwned-title\\x07"))
        #expect(json.stdout.lowercased().contains("\\u009b2j") && json.stdout.lowercased().contains("\\u202etxt"))
        let texts = try jsonLines(json.stdout).compactMap { $0["text"] as? String }
        #expect(texts.contains(Self.hostileText), "JSON still carries the exact text for scripts")
    }

    @Test func aRefusedUpgradesBodyIsPrintedEscaped() async throws {
        // Given a server that refuses the upgrade with a hostile body
        let body = "no \(Self.titleAndClipboard) for you"
        let server = try LoopbackUpgradeServer { fd, _, _ in
            writeRaw(fd, Array(("HTTP/1.1 403 Forbidden\r\nContent-Length: \(body.utf8.count)\r\n"
                                + "X-Why: \(Self.titleAndClipboard)\r\n\r\n" + body).utf8))
            _ = readRaw(fd, seconds: 1)
        }
        defer { server.stop() }

        // When courier ws reports it, as text and as JSON
        let plain = try await CourierCLI.run(["ws", server.url("/raw").absoluteString])
        let json = try await CourierCLI.run(["ws", server.url("/raw").absoluteString, "--json"])

        // Then it fails, and nothing printed carries a control byte
        #expect(plain.status == 1 && json.status == 1)
        for output in [plain.stdout, plain.stderr, json.stdout, json.stderr] {
            #expect(Self.firstDangerous(output) == nil, "\(output)")
        }
        #expect((plain.stdout + plain.stderr).contains("403"))
    }
}
