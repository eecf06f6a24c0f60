import CourierDemo
import CourierWebSocket
import Foundation
import Synchronization

/// A small loopback HTTP/1.1 listener for the tests: it reads one request per connection and hands
/// the socket to a handler (the demo WebSocket routes by default, or a scripted raw server).
final class LoopbackUpgradeServer: Sendable {
    typealias Handler = @Sendable (Int32, DemoRequest, [UInt8]) -> Void

    let port: UInt16
    private let listener: Int32
    private let handler: Handler
    private let state = Mutex(State())

    private struct State {
        var stopped = false
        var connections = 0
        var open: Set<Int32> = []
    }

    /// Connections accepted so far.
    var connectionCount: Int { state.withLock { $0.connections } }

    init(handler: @escaping Handler = { DemoWebSocketRoutes.serve(fd: $0, request: $1, leftover: $2) }) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 64) == 0 else { close(fd); throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        listener = fd
        self.handler = handler
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    /// ws://127.0.0.1:PORT + path.
    func url(_ path: String) -> URL { URL(string: "ws://127.0.0.1:\(port)\(path)")! }

    /// Stops accepting and closes every open connection.
    func stop() {
        let open = state.withLock { state in
            state.stopped = true
            return state.open
        }
        shutdown(listener, Int32(SHUT_RDWR))
        for fd in open { shutdown(fd, Int32(SHUT_RDWR)) }
    }

    deinit { close(listener) }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if state.withLock({ $0.stopped }) { return }
                continue
            }
            state.withLock { $0.connections += 1; $0.open.insert(client) }
            let thread = Thread { [self] in
                serve(client)
                state.withLock { _ = $0.open.remove(client) }
                close(client)
            }
            thread.start()
        }
    }

    private func serve(_ fd: Int32) {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            if let end = Self.headEnd(bytes) {
                guard let request = Self.parse(Array(bytes[..<end])) else { return }
                handler(fd, request, Array(bytes[(end + 4)...]))
                return
            }
            let count = recv(fd, &chunk, chunk.count, 0)
            if count <= 0 { return }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }

    private static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        return (0...(bytes.count - 4)).first { bytes[$0] == 13 && bytes[$0 + 1] == 10 && bytes[$0 + 2] == 13 && bytes[$0 + 3] == 10 }
    }

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
func writeRaw(_ fd: Int32, _ bytes: [UInt8]) {
    _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
}

/// Answers an upgrade request with a correct 101 so a scripted test server can then misbehave.
func acceptUpgrade(_ fd: Int32, _ request: DemoRequest) {
    let key = request.header("Sec-WebSocket-Key") ?? ""
    let answer = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        + "Sec-WebSocket-Accept: \(WebSocketHandshake.acceptValue(forKey: key))\r\n\r\n"
    writeRaw(fd, Array(answer.utf8))
}

/// Reads from a raw socket until the peer closes or `seconds` pass; returns what arrived.
func readRaw(_ fd: Int32, seconds: Double = 5) -> [UInt8] {
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
    func url(_ path: String) -> URL { URL(string: "ws://127.0.0.1:\(port)\(path)")! }
}
