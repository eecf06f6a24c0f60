import CourierWebSocket
import Foundation

/// The demo server's WebSocket endpoints (`/ws/echo`, `/ws/ticker`, `/ws/chaos`).
/// The HTTP server hands over a connection whose request asked for `Upgrade: websocket`.
public enum DemoWebSocketRoutes {
    /// Whether `path` is a WebSocket endpoint.
    public static func handles(path: String) -> Bool { path.hasPrefix("/ws/") }

    /// The endpoints by path.
    static let endpoints: Set<String> = ["/ws/echo", "/ws/ticker", "/ws/chaos"]

    /// Runs the WebSocket conversation on a connected, blocking socket until it ends. `leftover` holds
    /// bytes the HTTP parser read past the end of the request. The caller closes `fd` afterwards.
    public static func serve(fd: Int32, request: DemoRequest, leftover: [UInt8]) {
        let peer = DemoWebSocketPeer(fd: fd, leftover: leftover)
        guard endpoints.contains(request.path) else {
            refuse(peer, status: "404 Not Found", message: "no WebSocket endpoint at \(request.path)")
            return
        }
        switch DemoServerHandshake.answer(to: request) {
        case .refused(let status, let message, let extra):
            refuse(peer, status: status, message: message, extraHeaders: extra)
            return
        case .accepted(let response):
            guard peer.write(Array(response.utf8)) else { return }
        }
        switch request.path {
        case "/ws/ticker":
            var ticker = DemoTickerEndpoint(request: request)
            _ = ticker.serve(peer)
        case "/ws/chaos":
            DemoChaosEndpoint.serve(peer, request: request)
        default:
            DemoEchoEndpoint.serve(peer, request: request)
        }
    }

    private static func refuse(_ peer: DemoWebSocketPeer, status: String, message: String, extraHeaders: String = "") {
        let body = message + "\n"
        let head = "HTTP/1.1 \(status)\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\n"
            + extraHeaders + "Connection: close\r\n\r\n"
        _ = peer.write(Array((head + body).utf8))
    }
}
