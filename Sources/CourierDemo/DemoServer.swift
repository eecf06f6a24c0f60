#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The embedded demo HTTP/1.1 server: binds a loopback port, answers the demo API on one thread per
/// connection, and keeps a log of every request for tests to inspect.
public final class DemoServer: Sendable {
    private let core: DemoServerCore
    private let listener: Int32
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let acceptFinished = DispatchSemaphore(value: 0)
    /// The TCP port the server listens on.
    public let port: UInt16
    /// The address it is bound to.
    public let host: String
    /// `http://HOST:PORT`, with no trailing slash.
    public let baseURL: URL

    /// Hosts accepted by name besides dotted IPv4 addresses.
    private static let hostAliases = ["localhost": "127.0.0.1"]
    /// Pending connections the kernel queues: enough for a thousand clients connecting at once.
    private static let backlog: Int32 = 1024
    /// How long `stop()` waits for connection threads to finish.
    private static let stopGraceSeconds = 5.0

    /// Binds 127.0.0.1 (port 0 = any free port) and starts serving on background threads.
    public static func start(port: UInt16 = 0, host: String = "127.0.0.1") throws -> DemoServer {
        let address = hostAliases[host.lowercased()] ?? host
        var inAddress = in_addr()
        guard inet_pton(AF_INET, address, &inAddress) == 1 else { throw DemoError.invalidHost(host) }
        // A client that vanishes mid-write must not kill the process (WebSocket handlers use write()).
        signal(SIGPIPE, SIG_IGN)
        let listener = try bindListener(address: inAddress, port: port)
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else {
            let code = errno
            close(listener)
            throw DemoError.socket(call: "pipe", code: code)
        }
        let boundPort: UInt16
        do {
            boundPort = try localPort(of: listener)
        } catch {
            close(listener); close(pipeEnds[0]); close(pipeEnds[1])
            throw error
        }
        let urlHost = address == "0.0.0.0" ? "127.0.0.1" : address
        guard let url = URL(string: "http://\(urlHost):\(boundPort)") else {
            close(listener); close(pipeEnds[0]); close(pipeEnds[1])
            throw DemoError.invalidHost(host)
        }
        let server = DemoServer(listener: listener, wake: (pipeEnds[0], pipeEnds[1]), port: boundPort,
                                host: address, baseURL: url)
        server.startAccepting()
        return server
    }

    private init(listener: Int32, wake: (read: Int32, write: Int32), port: UInt16, host: String, baseURL: URL) {
        self.core = DemoServerCore()
        self.listener = listener
        self.wakeRead = wake.read
        self.wakeWrite = wake.write
        self.port = port
        self.host = host
        self.baseURL = baseURL
    }

    deinit { stop() }

    /// Stops accepting, ends every live connection (slow responses see the client as gone) and waits
    /// briefly for the connection threads. Safe to call more than once.
    public func stop() {
        guard core.beginStopping() else { return }
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
        acceptFinished.wait()
        core.shutdownLiveSockets()
        let deadline = Date().addingTimeInterval(Self.stopGraceSeconds)
        while core.liveConnectionCount > 0 && Date() < deadline { usleep(2_000) }
        close(wakeRead)
        close(wakeWrite)
    }

    /// Every request seen, in order (method, path, query, headers, status, whether the response was
    /// completely written or the client closed first, connection number).
    public var log: [DemoLogEntry] { core.state.withLock { $0.log } }

    /// Requests received for a path.
    public func requestCount(path: String) -> Int {
        core.state.withLock { $0.log.count { $0.path == path } }
    }

    /// Responses to a path that were fully written.
    public func completedCount(path: String) -> Int {
        core.state.withLock { $0.log.count { $0.path == path && $0.completed } }
    }

    /// Responses to a path the client closed (or writing failed) before they were done.
    public func abortedCount(path: String) -> Int {
        core.state.withLock { $0.log.count { $0.path == path && $0.aborted } }
    }

    /// TCP connections accepted since the server started.
    public var connectionCount: Int { core.state.withLock { $0.connectionCount } }

    /// Empties the request log (counters of connections and endpoint state are kept).
    public func resetLog() { core.state.withLock { $0.log.removeAll() } }

    // MARK: - Accepting

    private func startAccepting() {
        let core = self.core, listener = self.listener, wakeRead = self.wakeRead
        let finished = acceptFinished
        let thread = Thread {
            Self.acceptLoop(listener: listener, wakeRead: wakeRead, core: core)
            close(listener)
            finished.signal()
        }
        thread.name = "courier-demo-accept"
        thread.start()
    }

    private static func acceptLoop(listener: Int32, wakeRead: Int32, core: DemoServerCore) {
        while !core.isStopping {
            var descriptors = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0),
                               pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&descriptors, 2, -1)
            if ready < 0 && errno == EINTR { continue }
            if ready < 0 || descriptors[1].revents != 0 || core.isStopping { return }
            let fd = accept(listener, nil, nil)
            if fd < 0 {
                // Out of descriptors: back off instead of spinning; other errors concern one peer.
                if errno == EMFILE || errno == ENFILE { usleep(10_000) }
                continue
            }
            var one: Int32 = 1
            _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            guard let number = core.register(fd) else {
                close(fd)
                return
            }
            let thread = Thread {
                let socket = DemoSocket(fd: fd, isStopping: { core.isStopping })
                DemoConnection(socket: socket, number: number, core: core).run()
                core.unregister(fd)
                close(fd)
            }
            thread.name = "courier-demo-connection-\(number)"
            thread.start()
        }
    }

    private static func bindListener(address: in_addr, port: UInt16) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw DemoError.socket(call: "socket", code: errno) }
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var socketAddress = sockaddr_in()
        socketAddress.sin_family = sa_family_t(AF_INET)
        socketAddress.sin_port = port.bigEndian
        socketAddress.sin_addr = address
        let bound = withUnsafePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else {
            let code = errno
            close(fd)
            throw DemoError.socket(call: "bind", code: code)
        }
        guard listen(fd, backlog) == 0 else {
            let code = errno
            close(fd)
            throw DemoError.socket(call: "listen", code: code)
        }
        return fd
    }

    private static func localPort(of fd: Int32) throws -> UInt16 {
        var socketAddress = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let result = withUnsafeMutablePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard result == 0 else { throw DemoError.socket(call: "getsockname", code: errno) }
        return UInt16(bigEndian: socketAddress.sin_port)
    }
}
