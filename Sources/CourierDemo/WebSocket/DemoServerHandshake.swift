import CourierWebSocket
import Foundation

/// The server half of the opening handshake (RFC 6455 section 4.2): checks the upgrade request and
/// builds the 101 answer, choosing the first subprotocol the client offered.
enum DemoServerHandshake {
    /// The outcome: the 101 response text, or the refusal to send.
    enum Answer {
        case accepted(String)
        case refused(status: String, message: String, extraHeaders: String)
    }

    static func answer(to request: DemoRequest) -> Answer {
        guard request.method == "GET" else {
            return .refused(status: "405 Method Not Allowed", message: "WebSocket upgrades use GET", extraHeaders: "")
        }
        guard request.header("Upgrade")?.lowercased() == "websocket",
              let connection = request.header("Connection")?.lowercased(),
              connection.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == "upgrade" })
        else {
            return .refused(status: "426 Upgrade Required", message: "this endpoint speaks WebSocket only",
                            extraHeaders: "Upgrade: websocket\r\n")
        }
        guard request.header("Sec-WebSocket-Version") == "13" else {
            return .refused(status: "426 Upgrade Required", message: "only WebSocket version 13 is supported",
                            extraHeaders: "Sec-WebSocket-Version: 13\r\n")
        }
        guard let key = request.header("Sec-WebSocket-Key")?.trimmingCharacters(in: .whitespaces),
              Data(base64Encoded: key)?.count == 16 else {
            return .refused(status: "400 Bad Request", message: "Sec-WebSocket-Key must be 16 bytes in base64",
                            extraHeaders: "")
        }
        var response = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        response += "Sec-WebSocket-Accept: \(WebSocketHandshake.acceptValue(forKey: key))\r\n"
        let offered = (request.header("Sec-WebSocket-Protocol") ?? "").split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        if let first = offered.first { response += "Sec-WebSocket-Protocol: \(first)\r\n" }
        return .accepted(response + "\r\n")
    }
}
