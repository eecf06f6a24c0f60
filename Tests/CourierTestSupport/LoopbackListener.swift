import Foundation
import Synchronization

/// A TCP listener on 127.0.0.1 at a port the kernel picks: the scaffolding every test server shares. An
/// accept thread hands each connection, numbered from 1, to `serve` on a thread of its own and closes the
/// socket when `serve` returns; `stop()` shuts the listener and every open connection down.
public final class LoopbackListener: Sendable {
    public typealias Serve = @Sendable (_ socket: Int32, _ connection: Int) -> Void

    private struct State {
        var stopped = false
        var connections = 0
        var open: Set<Int32> = []
    }

    public let port: UInt16
    private let listener: Int32
    private let serve: Serve
    private let state = Mutex(State())

    public init(backlog: Int32 = 64, serve: @escaping Serve) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EMFILE) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        guard let port = LoopbackSocket.bindLoopback(fd), listen(fd, backlog) == 0 else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        self.port = port
        listener = fd
        self.serve = serve
        Thread { [self] in acceptLoop() }.start()
    }

    /// Connections accepted so far.
    public var connectionCount: Int { state.withLock { $0.connections } }

    /// Stops accepting and shuts every open connection down; the threads close their sockets.
    public func stop() {
        // Under the lock: a serving thread removes its socket before closing it, so no descriptor shut
        // down here can already belong to someone else. The accept thread closes the listener.
        state.withLock { state in
            guard !state.stopped else { return }
            state.stopped = true
            shutdown(listener, Int32(SHUT_RDWR))
            for socket in state.open { shutdown(socket, Int32(SHUT_RDWR)) }
        }
    }

    private func acceptLoop() {
        defer { close(listener) }
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                return
            }
            let number: Int? = state.withLock { state in
                guard !state.stopped else { return nil }
                state.connections += 1
                state.open.insert(client)
                return state.connections
            }
            guard let number else { close(client); return }
            Thread { [self] in
                serve(client, number)
                state.withLock { _ = $0.open.remove(client) }
                close(client)
            }.start()
        }
    }
}
