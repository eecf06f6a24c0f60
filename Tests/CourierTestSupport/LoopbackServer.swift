import Foundation
import Synchronization

/// A small HTTP/1.1 server on 127.0.0.1 for transport tests: keep-alive, Content-Length bodies,
/// an optional delay before answering during which it notices a client that hangs up.
public final class LoopbackServer: Sendable {
    public struct Request: Sendable {
        public var method: String
        public var path: String
        public var query: String
        public var headers: [String: String]
        public var body: Data
        public var connection: Int
        /// The request line and header lines exactly as they came, each ended by CRLF (the blank line not included).
        public var head: String

        public init(method: String, path: String, query: String = "", headers: [String: String] = [:],
                    body: Data = Data(), connection: Int = 1, head: String = "") {
            self.head = head
            self.method = method
            self.path = path
            self.query = query
            self.headers = headers
            self.body = body
            self.connection = connection
        }
    }

    public struct Reply: Sendable {
        public var status: Int = 200
        public var headers: [(String, String)] = []
        public var body = Data()
        /// Waited before the answer is written.
        public var delay: Duration = .zero
        /// Bytes written as they are instead of an encoded answer, then the connection is closed: for
        /// replies that break HTTP.
        public var raw: Data?
        /// After `raw`, the connection stays open this long (or until the client hangs up): a body that
        /// stops arriving half-way.
        public var holdOpen: Duration = .zero

        public init(status: Int = 200, headers: [(String, String)] = [], body: Data = Data(), delay: Duration = .zero,
                    raw: Data? = nil, holdOpen: Duration = .zero) {
            self.status = status
            self.headers = headers
            self.body = body
            self.delay = delay
            self.raw = raw
            self.holdOpen = holdOpen
        }

        public static func raw(_ text: String) -> Reply { Reply(raw: Data(text.utf8)) }

        public static func json(_ text: String, status: Int = 200, headers: [(String, String)] = []) -> Reply {
            Reply(status: status, headers: [("Content-Type", "application/json")] + headers, body: Data(text.utf8))
        }
    }

    private struct State {
        var requests: [Request] = []
        var completed: [String: Int] = [:]
        var aborted: [String: Int] = [:]
    }

    /// What the connection threads record, shared with them before the server itself exists.
    private final class Record: Sendable {
        let mutex = Mutex(State())
        func withLock<T>(_ body: (inout State) -> T) -> T { mutex.withLock { body(&$0) } }
    }

    private let listener: LoopbackListener
    private let state: Record

    public init(handler: @escaping @Sendable (Request) -> Reply) throws {
        let state = Record()
        self.state = state
        listener = try LoopbackListener { socket, connection in
            Self.serve(socket, connection: connection, state: state, handler: handler)
        }
    }

    public var port: UInt16 { listener.port }
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }
    public func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

    public var requests: [Request] { state.withLock { $0.requests } }
    public var connectionCount: Int { listener.connectionCount }
    public func requestCount(path: String) -> Int { state.withLock { $0.requests.filter { $0.path == path }.count } }
    public func completedCount(path: String) -> Int { state.withLock { $0.completed[path, default: 0] } }
    public func abortedCount(path: String) -> Int { state.withLock { $0.aborted[path, default: 0] } }

    public func stop() { listener.stop() }

    /// Checks `condition` every 10 ms (suspending, not blocking) for up to `seconds`: for counts the
    /// connection threads update, which have nothing to await.
    public static func eventually(seconds: Double = 60, _ condition: () -> Bool) async -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition()
    }

    // MARK: Serving

    private static func serve(_ socket: Int32, connection: Int, state: Record,
                              handler: @Sendable (Request) -> Reply) {
        var pending = Data()
        while let received = LoopbackSocket.readRequest(socket, buffer: &pending) {
            var headers: [String: String] = [:]
            for line in received.headerLines {
                guard let colon = line.firstIndex(of: ":") else { continue }
                headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
            let head = ([received.requestLine] + received.headerLines).map { $0 + "\r\n" }.joined()
            let request = Request(method: received.method, path: received.path, query: received.query,
                                  headers: headers, body: received.body, connection: connection, head: head)
            state.withLock { $0.requests.append(request) }
            let reply = handler(request)
            if reply.delay > .zero, !waitWatchingForHangUp(socket, delay: reply.delay) {
                state.withLock { $0.aborted[request.path, default: 0] += 1 }
                return
            }
            guard LoopbackSocket.send(socket, reply.raw ?? encode(reply, head: request.method == "HEAD")) else {
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

    /// Waits `delay`; false as soon as the client closes its end.
    private static func waitWatchingForHangUp(_ socket: Int32, delay: Duration) -> Bool {
        let end = ContinuousClock.now + delay
        while ContinuousClock.now < end {
            let left = (end - ContinuousClock.now).components
            let remaining = Int32(max(1, min(50, left.seconds * 1000 + left.attoseconds / 1_000_000_000_000_000)))
            var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            if poll(&descriptor, 1, remaining) > 0 {
                var byte: UInt8 = 0
                if recv(socket, &byte, 1, Int32(MSG_PEEK)) <= 0 { return false }
            }
        }
        return true
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
