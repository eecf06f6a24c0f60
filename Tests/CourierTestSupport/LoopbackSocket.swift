import Foundation

/// Blocking socket I/O for the test servers' connection threads (never for async code).
public enum LoopbackSocket {
    /// Binds `fd` to 127.0.0.1 at a port the kernel picks; the port, or nil.
    static func bindLoopback(_ fd: Int32) -> UInt16? {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        return bound ? UInt16(bigEndian: address.sin_port) : nil
    }

    /// A TCP port on 127.0.0.1 that nothing listens on: bound and kept bound, never listening, for the rest of
    /// the test run (one descriptor each), so a connection to it is refused and no parallel test's server is
    /// given it (a port merely released may be).
    public static func closedPort() -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        guard let port = bindLoopback(fd) else {
            close(fd)
            return 9
        }
        return port
    }

    /// A port on 127.0.0.1 that refuses connections while `body` runs: bound and never listening, so that no
    /// other server of a parallel test run is given it meanwhile (a port merely released may be).
    public static func withRefusingPort<T>(_ body: (UInt16) async throws -> T) async rethrows -> T {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        return try await body(bindLoopback(fd) ?? 9)
    }

    /// The next bytes from `socket`; nil at end of stream or on an error.
    public static func receive(_ socket: Int32) -> Data? {
        var bytes = [UInt8](repeating: 0, count: 65_536)
        let count = recv(socket, &bytes, bytes.count, 0)
        return count > 0 ? Data(bytes[0..<count]) : nil
    }

    /// Writes all of `data`; false when the peer went away.
    @discardableResult
    public static func send(_ socket: Int32, _ data: Data) -> Bool {
        data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let sent = Glibc.send(socket, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
                if sent <= 0 { return false }
                offset += sent
            }
            return true
        }
    }

    /// Writes `text` as UTF-8; false when the peer went away.
    @discardableResult
    public static func send(_ socket: Int32, _ text: String) -> Bool { send(socket, Data(text.utf8)) }

    /// Reads one HTTP/1.1 request (head, then a Content-Length body) from `socket`, `buffer` holding what
    /// arrived beyond the previous request and, afterwards, beyond this one; nil when the peer hangs up.
    public static func readRequest(_ socket: Int32, buffer: inout Data) -> LoopbackRequest? {
        guard let head = readHead(socket, buffer: &buffer) else { return nil }
        var lines = head.components(separatedBy: "\r\n")
        var request = LoopbackRequest(requestLine: lines.removeFirst(), headerLines: lines, body: Data())
        let length = Int(request.header("Content-Length") ?? "0") ?? 0
        while buffer.count < length {
            guard let chunk = receive(socket) else { return nil }
            buffer.append(chunk)
        }
        request.body = Data(buffer.prefix(length))
        buffer = Data(buffer.dropFirst(length))
        return request
    }

    /// Reads up to the blank line that ends a request or response head; the head without it, `buffer`
    /// keeping the bytes after it. Nil when the peer hangs up first.
    public static func readHead(_ socket: Int32, buffer: inout Data) -> String? {
        let separator = Data("\r\n\r\n".utf8)
        while buffer.range(of: separator) == nil {
            guard let chunk = receive(socket) else { return nil }
            buffer.append(chunk)
        }
        guard let end = buffer.range(of: separator) else { return nil }
        let head = String(decoding: buffer[buffer.startIndex..<end.lowerBound], as: UTF8.self)
        buffer = Data(buffer[end.upperBound...])
        return head
    }
}

/// One HTTP request as a test server received it: the request line and header lines exactly as sent.
public struct LoopbackRequest: Sendable {
    public var requestLine: String
    /// Header lines in the order sent, as sent.
    public var headerLines: [String]
    public var body: Data

    public init(requestLine: String, headerLines: [String], body: Data) {
        self.requestLine = requestLine
        self.headerLines = headerLines
        self.body = body
    }

    public var method: String { String(requestLine.split(separator: " ").first ?? "") }
    /// The request target: path and query.
    public var target: String { requestLine.split(separator: " ").dropFirst().first.map(String.init) ?? "" }
    public var path: String { target.split(separator: "?", maxSplits: 1).first.map(String.init) ?? target }
    public var query: String { target.split(separator: "?", maxSplits: 1).dropFirst().first.map(String.init) ?? "" }
    public var bodyText: String { String(decoding: body, as: UTF8.self) }
    /// Header names, lowercased, in the order sent.
    public var headerNames: [String] { headerLines.compactMap { $0.split(separator: ":").first.map { $0.lowercased() } } }

    /// The value of the first header called `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        for line in headerLines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            if line[..<colon].lowercased() == name.lowercased() {
                return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }
}
