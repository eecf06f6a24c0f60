import Foundation
import Synchronization

/// A small HTTP/1.1 server on 127.0.0.1 for transport tests: keep-alive, Content-Length bodies,
/// an optional delay before answering during which it notices a client that hangs up.
final class LoopbackServer: Sendable {
    struct Request: Sendable {
        var method: String
        var path: String
        var query: String
        var headers: [String: String]
        var body: Data
        var connection: Int
    }

    struct Reply: Sendable {
        var status: Int = 200
        var headers: [(String, String)] = []
        var body = Data()
        /// Waited before the answer is written.
        var delay: Duration = .zero
        /// Bytes written as they are instead of an encoded answer, then the connection is closed: for
        /// replies that break HTTP.
        var raw: Data?
        /// After `raw`, the connection stays open this long (or until the client hangs up): a body that
        /// stops arriving half-way.
        var holdOpen: Duration = .zero

        static func raw(_ text: String) -> Reply { Reply(raw: Data(text.utf8)) }

        static func json(_ text: String, status: Int = 200, headers: [(String, String)] = []) -> Reply {
            Reply(status: status, headers: [("Content-Type", "application/json")] + headers, body: Data(text.utf8))
        }
    }

    private struct State {
        var requests: [Request] = []
        var completed: [String: Int] = [:]
        var aborted: [String: Int] = [:]
        var connections = 0
        var openSockets: Set<Int32> = []
        var stopped = false
    }

    let port: UInt16
    private let listener: Int32
    private let state = Mutex(State())
    private let handler: @Sendable (Request) -> Reply

    init(handler: @escaping @Sendable (Request) -> Reply) throws {
        self.handler = handler
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
        guard bound == 0, listen(fd, 64) == 0 else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }
    func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

    var requests: [Request] { state.withLock { $0.requests } }
    var connectionCount: Int { state.withLock { $0.connections } }
    func requestCount(path: String) -> Int { state.withLock { $0.requests.filter { $0.path == path }.count } }
    func completedCount(path: String) -> Int { state.withLock { $0.completed[path, default: 0] } }
    func abortedCount(path: String) -> Int { state.withLock { $0.aborted[path, default: 0] } }

    func stop() {
        // Under the lock: a serving thread removes its socket before closing it, so no descriptor
        // number shut down here can already belong to someone else. The accept thread closes the listener.
        state.withLock { state in
            guard !state.stopped else { return }
            state.stopped = true
            shutdown(listener, Int32(SHUT_RDWR))
            for socket in state.openSockets { shutdown(socket, Int32(SHUT_RDWR)) }
        }
    }

    /// Polls `condition` every 10 ms for up to `seconds`.
    static func eventually(seconds: Double = 10, _ condition: () -> Bool) async -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition()
    }

    // MARK: Serving

    private func acceptLoop() {
        defer { close(listener) }
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            let number: Int? = state.withLock { state in
                guard !state.stopped else { return nil }
                state.connections += 1
                state.openSockets.insert(client)
                return state.connections
            }
            guard let number else { close(client); return }
            let thread = Thread { [self] in serve(client, connection: number) }
            thread.start()
        }
    }

    private func serve(_ socket: Int32, connection: Int) {
        defer {
            state.withLock { _ = $0.openSockets.remove(socket) }
            close(socket)
        }
        var pending = Data()
        while let request = readRequest(socket, buffer: &pending, connection: connection) {
            state.withLock { $0.requests.append(request) }
            let reply = handler(request)
            if reply.delay > .zero, !waitWatchingForHangUp(socket, delay: reply.delay) {
                state.withLock { $0.aborted[request.path, default: 0] += 1 }
                return
            }
            guard write(socket, reply.raw ?? Self.encode(reply, head: request.method == "HEAD")) else {
                state.withLock { $0.aborted[request.path, default: 0] += 1 }
                return
            }
            state.withLock { $0.completed[request.path, default: 0] += 1 }
            if reply.raw != nil {
                if reply.holdOpen > .zero { _ = waitWatchingForHangUp(socket, delay: reply.holdOpen) }
                return
            }
            if request.headers["connection"]?.lowercased() == "close" { return }
        }
    }

    private func readRequest(_ socket: Int32, buffer: inout Data, connection: Int) -> Request? {
        let separator = Data("\r\n\r\n".utf8)
        while buffer.range(of: separator) == nil {
            guard let chunk = receive(socket) else { return nil }
            buffer.append(chunk)
        }
        guard let end = buffer.range(of: separator) else { return nil }
        let headText = String(decoding: buffer[buffer.startIndex..<end.lowerBound], as: UTF8.self)
        buffer = Data(buffer[end.upperBound...])
        var lines = headText.components(separatedBy: "\r\n")
        let parts = lines.removeFirst().split(separator: " ")
        guard parts.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = Int(headers["content-length"] ?? "0") ?? 0
        while buffer.count < length {
            guard let chunk = receive(socket) else { return nil }
            buffer.append(chunk)
        }
        let body = Data(buffer.prefix(length))
        buffer = Data(buffer.dropFirst(length))
        let target = String(parts[1])
        let path = target.split(separator: "?", maxSplits: 1).first.map(String.init) ?? target
        let query = target.contains("?") ? String(target.split(separator: "?", maxSplits: 1)[1]) : ""
        return Request(method: String(parts[0]), path: path, query: query, headers: headers, body: body,
                       connection: connection)
    }

    private func receive(_ socket: Int32) -> Data? {
        var bytes = [UInt8](repeating: 0, count: 65_536)
        let count = recv(socket, &bytes, bytes.count, 0)
        guard count > 0 else { return nil }
        return Data(bytes[0..<count])
    }

    /// Waits `delay`; false as soon as the client closes its end.
    private func waitWatchingForHangUp(_ socket: Int32, delay: Duration) -> Bool {
        let end = ContinuousClock.now + delay
        while ContinuousClock.now < end {
            let remaining = Int32(max(1, min(50, (end - ContinuousClock.now).milliseconds)))
            var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            if poll(&descriptor, 1, remaining) > 0 {
                var byte: UInt8 = 0
                if recv(socket, &byte, 1, Int32(MSG_PEEK)) <= 0 { return false }
            }
        }
        return true
    }

    private func write(_ socket: Int32, _ data: Data) -> Bool {
        data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let sent = send(socket, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
                if sent <= 0 { return false }
                offset += sent
            }
            return true
        }
    }

    private static func encode(_ reply: Reply, head: Bool) -> Data {
        var text = "HTTP/1.1 \(reply.status) \(reasons[reply.status] ?? "Status")\r\n"
        for (name, value) in reply.headers { text += "\(name): \(value)\r\n" }
        text += "Content-Length: \(reply.body.count)\r\n\r\n"
        var data = Data(text.utf8)
        if !head { data.append(reply.body) }
        return data
    }

    private static let reasons = [200: "OK", 201: "Created", 204: "No Content", 400: "Bad Request",
                                  401: "Unauthorized", 404: "Not Found", 429: "Too Many Requests",
                                  500: "Internal Server Error", 503: "Service Unavailable"]
}
