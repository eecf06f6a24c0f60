import Foundation

/// The demo server's WebSocket endpoints (`/ws/echo`, `/ws/ticker`, `/ws/chaos`).
/// The HTTP server hands over a connection whose request asked for `Upgrade: websocket`.
public enum DemoWebSocketRoutes {
    /// Whether `path` is a WebSocket endpoint.
    public static func handles(path: String) -> Bool { path.hasPrefix("/ws/") }

    /// Runs the WebSocket conversation on a connected, blocking socket until it ends. `leftover` holds
    /// bytes the HTTP parser read past the end of the request. The caller closes `fd` afterwards.
    public static func serve(fd: Int32, request: DemoRequest, leftover: [UInt8]) {
        // Filled in by the WebSocket work: until then the upgrade is refused.
        let answer = "HTTP/1.1 501 Not Implemented\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        _ = answer.utf8CString.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count - 1) }
    }
}
