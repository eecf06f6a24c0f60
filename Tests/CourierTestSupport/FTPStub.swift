import Foundation
import Synchronization

/// A listener on 127.0.0.1 that greets like an FTP server ("220") and records every byte a client sends:
/// a redirect to `ftp://` that was refused leaves it with no connection and no USER or RETR.
public final class FTPStub: Sendable {
    /// What the connection threads record, shared with them before the stub itself exists.
    private final class Record: Sendable {
        let bytes = Mutex(Data())
    }

    private let listener: LoopbackListener
    private let record: Record

    public init() throws {
        let record = Record()
        self.record = record
        listener = try LoopbackListener(backlog: 8) { socket, _ in Self.serve(socket, record: record) }
    }

    public var port: UInt16 { listener.port }
    public var connections: Int { listener.connectionCount }
    public var text: String { String(decoding: record.bytes.withLock { $0 }, as: UTF8.self) }

    public func stop() { listener.stop() }

    /// Greets, then answers every command line with a success code so a client would go on to RETR.
    private static func serve(_ socket: Int32, record: Record) {
        LoopbackSocket.send(socket, "220 stub ready\r\n")
        while let chunk = LoopbackSocket.receive(socket) {
            record.bytes.withLock { $0.append(chunk) }
            LoopbackSocket.send(socket, "230 ok\r\n")
        }
    }
}
