import Foundation
import Synchronization

/// Receives the authorization server's redirect on this machine's loopback interface (RFC 8252 section
/// 7.3): a listening socket on 127.0.0.1, on the port asked for or one the system picks, that answers the
/// browser's request for `path` with a short page and hands over its query. Other paths (a favicon) get a
/// 404 and the wait goes on. Blocking calls run on a thread of their own, never on the task pool.
final class LoopbackRedirectListener: Sendable {
    /// The port the socket listens on.
    let port: UInt16
    private let descriptor: Int32
    private let closed = Mutex(false)

    /// Listens on 127.0.0.1:`port` (0: a port the system picks).
    init(port: UInt16) throws(APIError) {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socket >= 0 else { throw .protocolError(underlying: "cannot open a socket: \(String(cString: strerror(errno)))") }
        var yes: Int32 = 1
        setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(socket, 8) == 0 else {
            let reason = String(cString: strerror(errno))
            close(socket)
            throw .protocolError(underlying: "cannot listen on 127.0.0.1:\(port) for the sign-in redirect: \(reason)")
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        self.port = UInt16(bigEndian: actual.sin_port)
        self.descriptor = socket
    }

    deinit { stop() }

    /// Closes the socket; a wait in progress ends with `.cancelled`.
    func stop() {
        let wasClosed = closed.withLock { closed in
            defer { closed = true }
            return closed
        }
        guard !wasClosed else { return }
        shutdown(descriptor, Int32(SHUT_RDWR))
        close(descriptor)
    }

    /// How a wait for the redirect ended.
    enum Outcome: Sendable {
        /// The query items of the request for the path.
        case redirected([String: String])
        /// The listener was stopped (the task was cancelled).
        case stopped
        /// No request for the path came within the limit.
        case timedOut
    }

    /// The query items of the first request for `path` within `limit`; the browser gets `page(items)` as HTML.
    /// The wait ends with `.stopped` once the task is cancelled (which stops the listener).
    func waitForRedirect(path: String, limit: Duration, page: @escaping @Sendable ([String: String]) -> String)
        async -> Outcome {
        let deadline = ContinuousClock.now + limit
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
                let thread = Thread { [self] in
                    continuation.resume(returning: accept(path: path, page: page, deadline: deadline))
                }
                thread.start()
            }
        } onCancel: {
            stop()
        }
    }

    private func accept(path: String, page: ([String: String]) -> String, deadline: ContinuousClock.Instant) -> Outcome {
        while true {
            // Short slices, so a stop from another thread or the deadline is seen within a quarter second
            // (closing a socket does not wake a poll on it).
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return .timedOut }
            guard !closed.withLock({ $0 }) else { return .stopped }
            var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let slice = Int32(min(250, max(1, (left / .milliseconds(1)).rounded(.up))))
            let ready = poll(&waiting, 1, slice)
            if ready == 0 || (ready < 0 && errno == EINTR) { continue }
            guard ready > 0, !closed.withLock({ $0 }) else { return .stopped }
            let connection = Glibc.accept(descriptor, nil, nil)
            guard connection >= 0 else {
                if errno == EINTR || errno == EAGAIN { continue }
                return .stopped
            }
            defer { close(connection) }
            var timeout = timeval(tv_sec: 10, tv_usec: 0)
            setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            guard let target = Self.requestTarget(connection) else { continue }
            let components = URLComponents(string: "http://127.0.0.1" + target)
            guard let components, components.path == path else {
                Self.reply(connection, status: "404 Not Found", body: "Not found")
                continue
            }
            var items: [String: String] = [:]
            for item in components.queryItems ?? [] { items[item.name] = item.value ?? "" }
            Self.reply(connection, status: "200 OK", body: page(items))
            return .redirected(items)
        }
    }

    /// The request target of the request line, once the head has arrived (at most 16 KB read).
    private static func requestTarget(_ connection: Int32) -> String? {
        var head = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while head.count < 16_384 {
            let count = recv(connection, &buffer, buffer.count, 0)
            // With a receive timeout set, any signal ends recv with EINTR, SA_RESTART or not.
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            head.append(contentsOf: buffer[0..<count])
            if head.range(of: Data("\r\n\r\n".utf8)) != nil || head.range(of: Data("\n\n".utf8)) != nil { break }
        }
        let line = String(decoding: head.prefix { $0 != UInt8(ascii: "\r") && $0 != UInt8(ascii: "\n") }, as: UTF8.self)
        let words = line.split(separator: " ")
        guard words.count >= 2, words[0] == "GET" else { return nil }
        return String(words[1])
    }

    private static func reply(_ connection: Int32, status: String, body: String) {
        let bytes = Data(body.utf8)
        let head = "HTTP/1.1 \(status)\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: \(bytes.count)\r\n"
            + "Cache-Control: no-store\r\nConnection: close\r\n\r\n"
        let all = Data(head.utf8) + bytes
        all.withUnsafeBytes { raw in
            var sent = 0
            while sent < raw.count {
                let count = send(connection, raw.baseAddress! + sent, raw.count - sent, Int32(MSG_NOSIGNAL))
                if count <= 0 { break }
                sent += count
            }
        }
    }
}
