#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A response as the raw test client read it.
struct RawResponse {
    var status: Int
    var reason: String
    var headers: [(name: String, value: String)]
    var body: [UInt8]

    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    var text: String { String(decoding: body, as: UTF8.self) }

    /// The body parsed as a JSON object (empty when it is not one).
    var json: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:]
    }
}

/// Errors of the raw client.
enum RawClientError: Error {
    case connect(Int32)
    case closedEarly(received: Int)
    case timedOut
    case malformed(String)
}

/// A tiny blocking HTTP/1.1 client on one TCP connection, so tests see exactly what goes over the wire.
final class RawHTTPClient {
    let fd: Int32
    private var buffer: [UInt8] = []

    /// Connects to 127.0.0.1:port with a generous receive timeout (no test waits on it normally).
    init(port: UInt16, timeoutSeconds: Int = 10) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            let code = errno
            close(fd)
            throw RawClientError.connect(code)
        }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    /// Sends raw bytes.
    func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { return }
            offset += sent
        }
    }

    func send(_ text: String) { send(Array(text.utf8)) }

    /// Sends a request with Host and, when there is a body, Content-Length.
    func request(_ method: String = "GET", _ target: String, headers: [String] = [], body: String? = nil) {
        var text = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for header in headers { text += header + "\r\n" }
        if let body { text += "Content-Length: \(body.utf8.count)\r\n" }
        text += "\r\n" + (body ?? "")
        send(text)
    }

    /// Sends a request and reads its response.
    func fetch(_ method: String = "GET", _ target: String, headers: [String] = [], body: String? = nil) throws -> RawResponse {
        request(method, target, headers: headers, body: body)
        return try readResponse(method: method)
    }

    /// Reads everything until the server closes (or the timeout), returning the bytes and whether it was a reset.
    func readToEnd() -> (bytes: [UInt8], reset: Bool) {
        var bytes = buffer
        buffer = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 { bytes += chunk[0..<count]; continue }
            if count < 0 && errno == EINTR { continue }
            return (bytes, count < 0 && errno == ECONNRESET)
        }
    }

    /// Reads one response: head, then a Content-Length, chunked or read-to-close body.
    func readResponse(method: String = "GET") throws -> RawResponse {
        let headEnd = try fill { buffer in Self.find([13, 10, 13, 10], in: buffer).map { $0 + 4 } }
        let headText = String(decoding: buffer[0..<headEnd], as: UTF8.self)
        buffer.removeFirst(headEnd)
        var lines = headText.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        let statusParts = lines.removeFirst().split(separator: " ", maxSplits: 2)
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else {
            throw RawClientError.malformed(headText)
        }
        let headers = lines.map { line -> (name: String, value: String) in
            let parts = line.split(separator: ":", maxSplits: 1)
            return (String(parts[0]), parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : "")
        }
        var response = RawResponse(status: status, reason: statusParts.count > 2 ? String(statusParts[2]) : "",
                                   headers: headers, body: [])
        if method == "HEAD" || status == 204 || status == 304 || status < 200 { return response }
        if let length = response.header("Content-Length").flatMap(Int.init) {
            _ = try fill { $0.count >= length ? length : nil }
            response.body = Array(buffer[0..<length])
            buffer.removeFirst(length)
        } else if response.header("Transfer-Encoding")?.lowercased() == "chunked" {
            response.body = try readChunked()
        } else {
            response.body = readToEnd().bytes
        }
        return response
    }

    private func readChunked() throws -> [UInt8] {
        var body: [UInt8] = []
        while true {
            let lineEnd = try fill { Self.find([13, 10], in: $0) }
            let sizeText = String(decoding: buffer[0..<lineEnd], as: UTF8.self)
            guard let size = Int(sizeText.split(separator: ";")[0], radix: 16) else {
                throw RawClientError.malformed(sizeText)
            }
            buffer.removeFirst(lineEnd + 2)
            if size == 0 {
                _ = try fill { Self.find([13, 10], in: $0) }
                buffer.removeFirst(2)
                return body
            }
            _ = try fill { $0.count >= size + 2 ? size : nil }
            body += buffer[0..<size]
            buffer.removeFirst(size + 2)
        }
    }

    /// Reads until `complete` finds what it needs in the buffer.
    private func fill(_ complete: ([UInt8]) -> Int?) throws -> Int {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            if let found = complete(buffer) { return found }
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            // A receive timeout makes recv fail with EINTR on any signal, SA_RESTART or not (signal(7)).
            if count < 0 && errno == EINTR { continue }
            if count == 0 { throw RawClientError.closedEarly(received: buffer.count) }
            if count < 0 { throw errno == EAGAIN ? RawClientError.timedOut : RawClientError.closedEarly(received: buffer.count) }
            buffer += chunk[0..<count]
        }
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for index in 0...(haystack.count - needle.count) where haystack[index] == needle[0] {
            if Array(haystack[index..<(index + needle.count)]) == needle { return index }
        }
        return nil
    }
}

/// Checks `condition` every 10 ms, sleeping asynchronously, until it holds or `seconds` pass (a bound for
/// a loaded machine, not a speed requirement); true once it holds.
func eventually(within seconds: Double = 60, _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return condition()
}

extension RawHTTPClient {
    /// Reads up to the end of a response head and returns it as text, leaving the body unread.
    func readResponseHead() throws -> String {
        var received: [UInt8] = []
        var byte: UInt8 = 0
        while RawHTTPClient.find([13, 10, 13, 10], in: Array(received.suffix(4))) == nil {
            let count = recv(fd, &byte, 1, 0)
            if count < 0 && errno == EINTR { continue }
            guard count == 1 else { throw RawClientError.closedEarly(received: received.count) }
            received.append(byte)
        }
        return String(decoding: received, as: UTF8.self)
    }
}
