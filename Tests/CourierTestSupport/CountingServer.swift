import Foundation
import Synchronization

/// A loopback HTTP/1.1 server that counts the bytes of each request body without keeping them, for
/// bodies of gigabytes: it answers `{"received":N}` once it has read the whole body.
public final class CountingServer: Sendable {
    /// What the connection threads record: each body's size, and the request heads.
    private final class Record: Sendable {
        let sizes = Mutex<[Int]>([])
        let heads = Mutex<[String]>([])
    }

    private let listener: LoopbackListener
    private let record: Record

    public init() throws {
        let record = Record()
        self.record = record
        listener = try LoopbackListener(backlog: 16) { socket, _ in Self.serve(socket, record: record) }
    }

    public var base: String { "http://127.0.0.1:\(listener.port)" }
    /// The size of each body received whole, in order.
    public var bodySizes: [Int] { record.sizes.withLock { $0 } }
    /// The head of each request received (request line and header lines).
    public var heads: [String] { record.heads.withLock { $0 } }

    public func stop() { listener.stop() }

    private static func serve(_ socket: Int32, record: Record) {
        var buffer = Data()
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 1)
        defer { chunk.deallocate() }
        while let head = LoopbackSocket.readHead(socket, buffer: &buffer) {
            record.heads.withLock { $0.append(head) }
            let length = head.split(separator: "\r\n").lazy.compactMap { line -> Int? in
                let parts = line.split(separator: ":", maxSplits: 1)
                guard parts.count == 2, parts[0].lowercased() == "content-length" else { return nil }
                return Int(parts[1].trimmingCharacters(in: .whitespaces))
            }.first ?? 0
            var received = min(buffer.count, length)
            buffer = Data(buffer.dropFirst(received))
            while received < length {
                let count = recv(socket, chunk.baseAddress, min(chunk.count, length - received), 0)
                guard count > 0 else { return }
                received += count
            }
            record.sizes.withLock { $0.append(received) }
            let body = "{\"received\":\(received)}"
            let reply = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n"
                + body
            guard LoopbackSocket.send(socket, reply) else { return }
        }
    }
}
