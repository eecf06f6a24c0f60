import Foundation
import Synchronization

/// A listener on 127.0.0.1 that greets like an FTP server ("220") and records every byte a client sends:
/// a redirect to `ftp://` that was refused leaves it with no connection and no USER or RETR.
final class FTPStub: Sendable {
    let port: UInt16
    private let listener: Int32
    private let received = Mutex((connections: 0, bytes: Data()))

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 8) == 0 else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = UInt16(bigEndian: address.sin_port)
        Thread { [self] in acceptLoop() }.start()
    }

    var connections: Int { received.withLock { $0.connections } }
    var text: String { String(decoding: received.withLock { $0.bytes }, as: UTF8.self) }

    func stop() { shutdown(listener, Int32(SHUT_RDWR)) }

    private func acceptLoop() {
        defer { close(listener) }
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            received.withLock { $0.connections += 1 }
            Thread { [self] in serve(client) }.start()
        }
    }

    /// Greets, then answers every command line with a success code so a client would go on to RETR.
    private func serve(_ client: Int32) {
        defer { close(client) }
        func say(_ text: String) { _ = text.withCString { write(client, $0, strlen($0)) } }
        say("220 stub ready\r\n")
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(client, &buffer, buffer.count)
            guard count > 0 else { return }
            received.withLock { $0.bytes.append(contentsOf: buffer[0..<count]) }
            say("230 ok\r\n")
        }
    }
}
