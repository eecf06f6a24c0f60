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
        let port: UInt16
        private let listener: Int32

        init() throws {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0, listen(fd, 8) == 0 else { close(fd); throw POSIXError(.EADDRINUSE) }
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
            }
            listener = fd
            port = UInt16(bigEndian: address.sin_port)
            Thread { [self] in acceptLoop() }.start()
        }

        func stop() { shutdown(listener, Int32(SHUT_RDWR)) }

        private func acceptLoop() {
            defer { close(listener) }
            while true {
                let client = accept(listener, nil, nil)
                guard client >= 0 else { return }
                Thread { Self.serve(client) }.start()
            }
        }

        private static func serve(_ fd: Int32) {
            defer { close(fd) }
            var head = [UInt8]()
            var byte: UInt8 = 0
            while !head.suffix(4).elementsEqual([13, 10, 13, 10]), read(fd, &byte, 1) == 1 { head.append(byte) }
            let text = String(decoding: head, as: UTF8.self)
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

    @Test func courierWsLeavesTheTitleAndClipboardAlone() throws {
        // Given tmux that lets programs rename panes and write the clipboard, and a hostile peer
        let peer = try HostilePeer()
        defer { peer.stop() }
        let session = try ReliabilityTmux(command: "/bin/bash --norc --noprofile")
        defer { session.kill() }
        try session.run(["set-option", "-g", "allow-rename", "on"])
        let titleBefore = session.title()
        let buffersBefore = session.buffers()

        // When courier ws prints the message and the close reason on the terminal
        session.send("'\(Reliability.courier.path)' ws ws://127.0.0.1:\(peer.port)/ws", "Enter")
        let closed = session.waitFor("closed 4000")

        // Then both were shown, escaped, and neither the title nor the clipboard changed
        #expect(closed, "\(session.screen())")
        #expect(session.screen().contains("hello \\x1B]0;pwned-title\\x07"))
        #expect(session.title() == titleBefore)
        #expect(!session.title().contains("pwned"))
        #expect(session.buffers() == buffersBefore)
    }
}
