import Foundation
import Synchronization

/// A WebSocket that stays up: it reconnects after an abnormal close or a missed pong with backoff
/// and jitter, re-sends the subscription messages after every (re)connect, never reconnects after a
/// close the user asked for, and publishes everything that happens as `WebSocketEvent`s.
public final class WebSocketSession: Sendable {
    public let configuration: WebSocketConfiguration
    /// Sent after every successful handshake, before anything else.
    public let subscriptions: [WebSocketMessage]
    /// nil: one connection only.
    public let reconnectPolicy: ReconnectPolicy?
    /// Every event of every connection, in order, in the batches they arrived in (all the messages of
    /// one read at once): one hand-off per batch rather than per message. Finishes with the session.
    /// Read either this or `events`, not both. What is not taken yet is bounded: past 8 MB of messages the
    /// connection stops reading the socket until the reader catches up.
    public let batches: WebSocketBatches
    private let continuation: AsyncStream<[WebSocketEvent]>.Continuation
    private let backlog: DeliveryBacklog

    /// Every event of every connection, in order, one at a time (`batches`, flattened); finishes when
    /// the session is over.
    public var events: WebSocketEventSequence { WebSocketEventSequence(batches: batches) }
    private let state = Mutex(State())

    private struct State {
        var connection: WebSocketConnection?
        var open = false
        var userClose: (code: WebSocketCloseCode, reason: String)?
        var supervisor: Task<Void, Never>?
        var started = false
    }

    public init(configuration: WebSocketConfiguration, subscriptions: [WebSocketMessage] = [],
                reconnect: ReconnectPolicy? = .standard) {
        self.configuration = configuration
        self.subscriptions = subscriptions
        self.reconnectPolicy = reconnect
        let (stream, continuation) = AsyncStream<[WebSocketEvent]>.makeStream()
        let backlog = DeliveryBacklog()
        self.continuation = continuation
        self.backlog = backlog
        batches = WebSocketBatches(stream: stream, backlog: backlog)
    }

    /// Starts connecting; events begin with `connecting`.
    public func start() {
        let shouldStart = state.withLock { state -> Bool in
            defer { state.started = true }
            return !state.started
        }
        guard shouldStart else { return }
        let task = Task { [self] in await supervise() }
        state.withLock { $0.supervisor = task }
    }

    /// Whether a connection is open right now.
    public var isOpen: Bool { state.withLock { $0.open } }

    /// Sends a message on the open connection; throws `notConnected` between connections.
    public func send(_ message: WebSocketMessage) throws(WebSocketError) {
        let connection = state.withLock { $0.open ? $0.connection : nil }
        guard let connection, connection.send(message) else { throw .notConnected }
    }

    /// Sends a ping on the open connection.
    public func ping() { state.withLock { $0.open ? $0.connection : nil }?.ping() }

    /// Closes for good: the close handshake on an open connection, or stops a pending reconnect.
    public func close(code: WebSocketCloseCode = .normal, reason: String = "") {
        let (connection, supervisor) = state.withLock { state in
            if state.userClose == nil { state.userClose = (code, reason) }
            return (state.connection, state.supervisor)
        }
        if let connection {
            connection.close(code: code, reason: reason)
        } else {
            supervisor?.cancel()
        }
    }

    // MARK: - Supervision

    private func supervise() async {
        var failures = 0
        var attempt = 0
        while state.withLock({ $0.userClose == nil }) {
            attempt += 1
            continuation.yield([.connecting(url: configuration.url, attempt: attempt)])
            let (info, opened) = await runOneConnection()
            if opened {
                // The close carries what went wrong; a separate error event would say it twice.
                failures = 0
                continuation.yield([.closed(info)])
            } else if let error = info.error {
                continuation.yield([.error(error)])
            }
            guard let policy = reconnectPolicy, policy.shouldReconnect(after: info),
                  state.withLock({ $0.userClose == nil }) else {
                if !opened && info.error == nil { continuation.yield([.closed(info)]) }
                break
            }
            if let limit = policy.maxAttempts, failures >= limit { break }
            let delay = policy.delay(forAttempt: failures)
            failures += 1
            continuation.yield([.reconnecting(delay: delay, attempt: attempt + 1)])
            do {
                try await Task.sleep(nanoseconds: UInt64(delay * 1e9))
            } catch {
                let userClose = state.withLock { $0.userClose }
                continuation.yield([.closed(WebSocketCloseInfo(code: userClose?.code ?? .normal,
                                                               reason: userClose?.reason ?? "", byUser: true))])
                break
            }
        }
        continuation.finish()
    }

    private func runOneConnection() async -> (WebSocketCloseInfo, Bool) {
        await withCheckedContinuation { (done: CheckedContinuation<(WebSocketCloseInfo, Bool), Never>) in
            let events = continuation
            let backlog = self.backlog
            let connection = WebSocketConnection(
                configuration: configuration, initialMessages: subscriptions, backlog: backlog,
                onEvent: { [self] event in
                    if case .connected = event { state.withLock { $0.open = true } }
                    events.yield([event])
                },
                onEvents: { batch in
                    backlog.handed(batch)
                    events.yield(batch)
                },
                onEnd: { [self] info, opened in
                    state.withLock { $0.open = false; $0.connection = nil }
                    done.resume(returning: (info, opened))
                })
            let userClose = state.withLock { state in
                state.connection = connection
                return state.userClose
            }
            connection.start()
            if let userClose { connection.close(code: userClose.code, reason: userClose.reason) }
        }
    }
}
