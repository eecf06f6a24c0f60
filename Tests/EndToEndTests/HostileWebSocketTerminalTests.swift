import CourierTestSupport
import CourierWebSocket
import Foundation
import Testing

/// A WebSocket peer that sends a title change and a clipboard write (OSC 0, OSC 52) in a message and in
/// its close reason cannot change the real terminal's title or clipboard through `courier ws`: tmux with
/// `allow-rename` and `set-clipboard` on would act on both if the bytes reached it raw.
@Suite(.serialized, .enabled(if: Reliability.hasTmux, "tmux or the courier binary is missing"))
struct HostileWebSocketTerminalTests {
    static let titleAndClipboard = "\u{1B}]0;pwned-title\u{07}\u{1B}]52;c;cHduZWQ=\u{07}"

    /// Accepts connections on 127.0.0.1, upgrades each, sends the hostile message, closes with 4000 and the
    /// hostile reason.
    final class HostilePeer: Sendable {
        private let listener: LoopbackListener

        init() throws {
            listener = try LoopbackListener(backlog: 8) { socket, _ in Self.serve(socket) }
        }

        var port: UInt16 { listener.port }

        func stop() { listener.stop() }

        private static func serve(_ fd: Int32) {
            var buffer = Data()
            let text = LoopbackSocket.readHead(fd, buffer: &buffer) ?? ""
            let key = text.split(separator: "\r\n").first { $0.lowercased().hasPrefix("sec-websocket-key:") }
                .map { $0.dropFirst("sec-websocket-key:".count).trimmingCharacters(in: .whitespaces) } ?? ""
            let message = Array("hello \(titleAndClipboard)".utf8)
            let reason = Array(titleAndClipboard.utf8)
            let reply = Array(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                               + "Sec-WebSocket-Accept: \(WebSocketHandshake.acceptValue(forKey: key))\r\n\r\n").utf8)
                + [0x81, UInt8(message.count)] + message
                + [0x88, UInt8(reason.count + 2), 0x0F, 0xA0] + reason
            _ = reply.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            var sink = [UInt8](repeating: 0, count: 1024)
            while read(fd, &sink, sink.count) > 0 {}
        }
    }

    @Test func courierWsLeavesTheTitleAndClipboardAlone() async throws {
        // Given tmux that lets programs rename panes and write the clipboard, and a hostile peer
        let peer = try HostilePeer()
        defer { peer.stop() }
        let session = try await ReliabilityTmux(command: "/bin/bash --norc --noprofile")
        defer { session.kill() }
        try await session.run(["set-option", "-g", "allow-rename", "on"])
        let titleBefore = await session.title()
        let buffersBefore = await session.buffers()

        // When courier ws prints the message and the close reason on the terminal
        await session.send("'\(Reliability.courier.path)' ws ws://127.0.0.1:\(peer.port)/ws", "Enter")
        let closed = await session.waitFor("closed 4000")

        // Then both were shown, escaped, and neither the title nor the clipboard changed
        #expect(closed, "\(session.lastScreen)")
        #expect(await session.screen().contains("hello \\x1B]0;pwned-title\\x07"))
        #expect(await session.title() == titleBefore)
        #expect(await !session.title().contains("pwned"))
        #expect(await session.buffers() == buffersBefore)
    }
}
