#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization

/// The demo server's shared, mutable state: the request log, live connections, and the data behind
/// the endpoints (users, tokens, counters). Connection threads share it; one mutex guards it.
final class DemoServerCore: Sendable {
    /// Everything the mutex guards.
    struct State {
        var log: [DemoLogEntry] = []
        var nextSequence = 1
        var connectionCount = 0
        var liveSockets: Set<Int32> = []
        var counters: [String: Int] = [:]
        var users = DemoUserStore.seeded
        var tokens = DemoTokenStore()
        var oauth = DemoOAuthStore()
    }

    let state = Mutex(State())
    /// Most log entries kept; past it the oldest tenth is dropped, so a long-running server stays small.
    static let logLimit = 100_000
    private let stopping = Atomic<Bool>(false)
    /// When the server started: the Last-Modified of its fixed resources.
    let startedAt = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))

    var isStopping: Bool { stopping.load(ordering: .acquiring) }

    /// Marks the server as stopping; true for the first caller only.
    func beginStopping() -> Bool {
        !stopping.exchange(true, ordering: .acquiringAndReleasing)
    }

    // MARK: - Connections

    /// Records an accepted socket and gives it a connection number; nil when the server is stopping.
    func register(_ fd: Int32) -> Int? {
        state.withLock { state -> Int? in
            guard !isStopping else { return nil }
            state.connectionCount += 1
            state.liveSockets.insert(fd)
            return state.connectionCount
        }
    }

    /// Forgets a socket before its owner closes it, so `shutdownLiveSockets` never touches a reused fd.
    func unregister(_ fd: Int32) {
        _ = state.withLock { $0.liveSockets.remove(fd) }
    }

    /// Wakes every connection thread blocked on its socket; each closes its own descriptor.
    func shutdownLiveSockets() {
        state.withLock { state in
            for fd in state.liveSockets { _ = shutdown(fd, Int32(SHUT_RDWR)) }
        }
    }

    var liveConnectionCount: Int { state.withLock { $0.liveSockets.count } }

    // MARK: - Log

    /// Appends a log entry for a request just received and returns its sequence number.
    func logReceived(_ request: DemoRequest, connection: Int) -> Int {
        state.withLock { state in
            let sequence = state.nextSequence
            state.nextSequence += 1
            state.log.append(DemoLogEntry(sequence: sequence, method: request.method, path: request.path,
                                          query: request.query, headers: request.headers, status: 0,
                                          completed: false, aborted: false, connection: connection,
                                          bytesSent: 0, bodyPrefix: request.body.prefix(DemoLogEntry.bodyPrefixLimit)))
            if state.log.count > Self.logLimit { state.log.removeFirst(Self.logLimit / 10) }
            return sequence
        }
    }

    /// Records how the response to a logged request ended.
    func logFinished(_ sequence: Int, status: Int, completed: Bool, bytesSent: Int) {
        state.withLock { state in
            guard let index = state.log.lastIndex(where: { $0.sequence == sequence }) else { return }
            state.log[index].status = status
            state.log[index].completed = completed
            state.log[index].aborted = !completed
            state.log[index].bytesSent = bytesSent
        }
    }

    /// Adds one to a named counter and returns the new value.
    func increment(_ counter: String) -> Int {
        state.withLock { state in
            let value = (state.counters[counter] ?? 0) + 1
            state.counters[counter] = value
            return value
        }
    }
}
