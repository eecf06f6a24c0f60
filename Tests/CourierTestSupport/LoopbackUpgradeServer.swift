import CourierDemo
import CourierWebSocket
import Foundation

/// A loopback HTTP/1.1 listener for the tests: it reads one request head per connection and hands
/// the socket to a handler (the demo WebSocket routes by default, or a scripted raw server).
public final class LoopbackUpgradeServer: Sendable {
    public typealias Handler = @Sendable (Int32, DemoRequest, [UInt8]) -> Void

    private let listener: LoopbackListener

    public var port: UInt16 { listener.port }
    /// Connections accepted so far.
    public var connectionCount: Int { listener.connectionCount }

    public init(handler: @escaping Handler = { DemoWebSocketRoutes.serve(fd: $0, request: $1, leftover: $2) }) throws {
        listener = try LoopbackListener { socket, _ in
            var buffer = Data()
            guard let head = LoopbackSocket.readHead(socket, buffer: &buffer),
                  let request = Self.parse(Array(head.utf8)) else { return }
            handler(socket, request, Array(buffer))
        }
    }

    /// ws://127.0.0.1:PORT + path.
    public func url(_ path: String) -> URL { URL(string: "ws://127.0.0.1:\(port)\(path)")! }

    /// Stops accepting and closes every open connection.
    public func stop() { listener.stop() }

    private static func parse(_ head: [UInt8]) -> DemoRequest? {
        let lines = String(decoding: head, as: UTF8.self).components(separatedBy: "\r\n")
        let parts = lines[0].split(separator: " ")
        guard parts.count == 3, let components = URLComponents(string: String(parts[1])) else { return nil }
        let headers = lines.dropFirst().compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        let query = (components.queryItems ?? []).map { (name: $0.name, value: $0.value ?? "") }
        return DemoRequest(method: String(parts[0]), path: components.path, query: query, headers: headers)
    }
}

/// Sends raw bytes on a test server's socket.
public func writeRaw(_ fd: Int32, _ bytes: [UInt8]) {
    _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
}

/// Answers an upgrade request with a correct 101 so a scripted test server can then misbehave.
public func acceptUpgrade(_ fd: Int32, _ request: DemoRequest) {
    let key = request.header("Sec-WebSocket-Key") ?? ""
    let answer = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        + "Sec-WebSocket-Accept: \(WebSocketHandshake.acceptValue(forKey: key))\r\n\r\n"
    writeRaw(fd, Array(answer.utf8))
}

/// Reads from a raw socket until the peer closes or `seconds` pass; returns what arrived.
public func readRaw(_ fd: Int32, seconds: Double = 5) -> [UInt8] {
    var result: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        var pollFD = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&pollFD, 1, 100) > 0 else { continue }
        let count = recv(fd, &chunk, chunk.count, 0)
        if count <= 0 { break }
        result.append(contentsOf: chunk[0..<count])
    }
    return result
}

extension DemoServer {
    /// ws://127.0.0.1:PORT + path on the demo server.
    public func url(_ path: String) -> URL { URL(string: "ws://127.0.0.1:\(port)\(path)")! }
}
