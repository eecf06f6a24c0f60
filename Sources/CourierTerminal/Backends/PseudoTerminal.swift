@preconcurrency import CNcursesw
import Glibc
import Synchronization

/// A pseudo-terminal pair for driving the curses backend without a real terminal: the backend runs on
/// the `replica` side; a reader thread collects everything written to it from the `controller` side,
/// and `send` types into it. Used by tests; closes both sides when released.
public final class PseudoTerminal: Sendable {
    /// The side a terminal program uses (what would be its stdin/stdout).
    public let replica: Int32
    /// The side a terminal emulator uses.
    public let controller: Int32
    /// What the reader thread shares with the terminal: the bytes read, and whether to stop.
    private final class Shared: Sendable {
        let output = Mutex<[UInt8]>([])
        let stopped = Mutex(false)
    }

    private let shared = Shared()
    private let reader: Mutex<ReaderThread?> = Mutex(nil)

    /// Opens a pair of `size`.
    public init(size: Size = Size(width: 80, height: 24)) throws {
        var controller: Int32 = -1, replica: Int32 = -1
        guard courier_open_pty(&controller, &replica) == 0 else {
            throw TerminalError.systemCall(name: "posix_openpt", errno: errno)
        }
        self.controller = controller
        self.replica = replica
        _ = courier_set_window_size(controller, Int32(size.height), Int32(size.width))
        startReader()
    }

    deinit {
        shared.stopped.withLock { $0 = true }
        close(replica)
        // Closing the replica makes the controller's reads fail, which ends the reader thread.
        reader.withLock { $0?.join() }
        close(controller)
    }

    /// Changes the terminal size (the program learns of it by SIGWINCH or by asking).
    public func resize(to size: Size) { _ = courier_set_window_size(controller, Int32(size.height), Int32(size.width)) }

    /// Types `text` as a terminal would send it.
    public func send(_ text: String) {
        var bytes = Array(text.utf8)
        _ = write(controller, &bytes, bytes.count)
    }

    /// Everything the program has written so far.
    public var written: [UInt8] { shared.output.withLock { $0 } }
    /// `written` as text (invalid UTF-8 repaired).
    public var writtenText: String { String(decoding: written, as: UTF8.self) }
    /// Forgets what was written so far, so the next check sees only new output.
    public func clearWritten() { shared.output.withLock { $0.removeAll() } }

    private func startReader() {
        let fd = controller
        let shared = shared
        let thread = ReaderThread {
            var chunk = [UInt8](repeating: 0, count: 4096)
            while !shared.stopped.withLock({ $0 }) {
                var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
                guard poll(&fds, 1, 50) >= 0 || errno == EINTR else { return }
                guard fds[0].revents != 0 else { continue }
                let count = read(fd, &chunk, chunk.count)
                if count <= 0 { if count < 0 && errno == EINTR { continue } else { return } }
                shared.output.withLock { $0.append(contentsOf: chunk[..<count]) }
            }
        }
        reader.withLock { $0 = thread }
        thread.start()
    }
}

/// A thread that can be joined (Glibc's pthreads wrapped just enough for the pty reader).
final class ReaderThread: Sendable {
    private let body: @Sendable () -> Void
    private let handle = Mutex<pthread_t?>(nil)

    init(_ body: @escaping @Sendable () -> Void) { self.body = body }

    func start() {
        let box = Unmanaged.passRetained(self)
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { raw in
            let me = Unmanaged<ReaderThread>.fromOpaque(raw!).takeRetainedValue()
            me.body()
            return nil
        }, box.toOpaque())
        if result == 0 { handle.withLock { $0 = thread } } else { box.release() }
    }

    func join() {
        guard let thread = handle.withLock({ $0 }) else { return }
        pthread_join(thread, nil)
    }
}
