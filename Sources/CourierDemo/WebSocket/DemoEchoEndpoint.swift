import CourierWebSocket
import Foundation

/// `/ws/echo`: every text and binary message comes back as it was sent; pings are answered; the
/// close handshake is honoured. Query: `fragment=N` echoes in N-byte fragments with a ping between
/// the first two; `close_after=N&code=C&reason=R` closes with that code after N echoes.
enum DemoEchoEndpoint {
    static func serve(_ peer: DemoWebSocketPeer, request: DemoRequest) {
        let fragment = request.queryValue("fragment").flatMap(Int.init).map { max(1, $0) }
        let closeAfter = request.queryValue("close_after").flatMap(Int.init)
        let closeCode = WebSocketCloseCode(UInt16(request.queryValue("code") ?? "") ?? 1000)
        let closeReason = request.queryValue("reason") ?? ""
        var echoed = 0
        while true {
            switch peer.read(timeoutMs: 1000) {
            case .ended: return
            case .idle: continue
            case .incoming(let items):
                for item in items {
                    switch item {
                    case .message(let message):
                        guard peer.send(message, fragmentSize: fragment, pingBetweenFragments: fragment != nil) else {
                            return
                        }
                        echoed += 1
                        if let closeAfter, echoed >= closeAfter {
                            peer.close(code: closeCode, reason: closeReason)
                            return
                        }
                    case .ping(let payload):
                        peer.send(control: WebSocketFrame(opcode: .pong, payload: payload))
                    case .pong:
                        continue
                    case .close(let code, let reason):
                        peer.sendClose(code: code, reason: reason)
                        return
                    }
                }
                if peer.isFinished { return }
            }
        }
    }
}
