import Foundation
import Synchronization

/// A loopback HTTP/1.1 server that keeps the exact head and body of every request it receives, for
/// tests that check what went on the wire. Answers `{"token":"t0k"}` (or the token it was given, with the
/// request's header lines echoed under `"echo"`); paths under `/digest` first challenge for Digest
/// authentication and answer 200 once a Digest Authorization comes.
final class CaptureServer: Sendable {
    struct Received: Sendable {
        var requestLine: String
        /// Header lines in the order sent, as sent.
        var headerLines: [String]
        var body: Data
        var method: String { String(requestLine.split(separator: " ").first ?? "") }
        var target: String { requestLine.split(separator: " ").dropFirst().first.map(String.init) ?? "" }
        var bodyText: String { String(decoding: body, as: UTF8.self) }
        /// The value of the first header called `name` (case-insensitive).
        func header(_ name: String) -> String? {
            for line in headerLines {
                guard let colon = line.firstIndex(of: ":") else { continue }
                if line[..<colon].lowercased() == name.lowercased() {
                    return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                }
            }
            return nil
        }
        var headerNames: [String] { headerLines.compactMap { $0.split(separator: ":").first.map { $0.lowercased() } } }
    }

    let port: UInt16
    private let listener: Int32
    private let received = Mutex<[Received]>([])
    private let sockets = Mutex<Set<Int32>>([])
    /// The token every answer carries; when set, answers also echo the request's header lines.
    private let issuedToken: String?

    init(issuing token: String? = nil) throws {
        issuedToken = token
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 16) == 0 else { close(fd); throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = UInt16(bigEndian: address.sin_port)
        Thread { [self] in acceptLoop() }.start()
    }

    var requests: [Received] { received.withLock { $0 } }
    var base: String { "http://127.0.0.1:\(port)" }

    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        sockets.withLock { for socket in $0 { shutdown(socket, Int32(SHUT_RDWR)) } }
    }

    private func acceptLoop() {
        defer { close(listener) }
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            sockets.withLock { _ = $0.insert(client) }
            Thread { [self] in serve(client) }.start()
        }
    }

    private func serve(_ socket: Int32) {
        defer { sockets.withLock { _ = $0.remove(socket) }; close(socket) }
        var buffer = Data()
        let separator = Data("\r\n\r\n".utf8)
        while true {
            while buffer.range(of: separator) == nil {
                guard let chunk = receive(socket) else { return }
                buffer.append(chunk)
            }
            guard let end = buffer.range(of: separator) else { return }
            var lines = String(decoding: buffer[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
            buffer = Data(buffer[end.upperBound...])
            let requestLine = lines.removeFirst()
            var request = Received(requestLine: requestLine, headerLines: lines, body: Data())
            let length = Int(request.header("Content-Length") ?? "0") ?? 0
            while buffer.count < length {
                guard let chunk = receive(socket) else { return }
                buffer.append(chunk)
            }
            request.body = Data(buffer.prefix(length))
            buffer = Data(buffer.dropFirst(length))
            received.withLock { $0.append(request) }
            let challenge = request.target.hasPrefix("/digest")
                && !(request.header("Authorization")?.hasPrefix("Digest ") ?? false)
            let body = challenge ? "" : answer(to: request)
            let head = challenge
                ? "HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: Digest realm=\"courier\", nonce=\"abc123\", qop=\"auth\"\r\n"
                : "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
            let reply = head + "Content-Length: \(body.utf8.count)\r\n\r\n" + body
            let bytes = Array(reply.utf8)
            guard send(socket, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count else { return }
        }
    }

    /// The JSON body of a 200: the fixed token, or the issued one with the request's headers echoed back.
    private func answer(to request: Received) -> String {
        guard let issuedToken else { return "{\"token\":\"t0k\"}" }
        let echo = (try? JSONSerialization.data(withJSONObject: request.headerLines)).map {
            String(decoding: $0, as: UTF8.self)
        } ?? "[]"
        return "{\"token\":\"\(issuedToken)\",\"echo\":\(echo)}"
    }

    private func receive(_ socket: Int32) -> Data? {
        var bytes = [UInt8](repeating: 0, count: 65_536)
        let count = recv(socket, &bytes, bytes.count, 0)
        return count > 0 ? Data(bytes[0..<count]) : nil
    }
}
