import CourierWebSocket
import Foundation
import Synchronization

/// Runs the pane's effects against a real `WebSocketSession` and hands the session's events back in
/// batches, one per frame interval, so the app applies tens of thousands of messages a second with
/// one action per frame (`WebSocketPaneState.apply(contentsOf:)`) instead of one per message.
public final class WebSocketPaneConnector: Sendable {
    /// Called with each non-empty batch, on a background thread; the app posts it as one action.
    private let onBatch: @Sendable ([WebSocketEvent]) -> Void
    private let interval: Double
    private let configure: @Sendable (inout WebSocketConfiguration) -> Void
    private let state = Mutex(State())

    private struct State {
        var session: WebSocketSession?
        var pending: [WebSocketEvent] = []
        var consumer: Task<Void, Never>?
        var flusher: Task<Void, Never>?
    }

    /// `configure` adjusts each connection's settings (headers, insecure, keepalive) before it opens.
    public init(interval: Double = 1.0 / 60, configure: @escaping @Sendable (inout WebSocketConfiguration) -> Void = { _ in },
                onBatch: @escaping @Sendable ([WebSocketEvent]) -> Void) {
        self.interval = interval
        self.configure = configure
        self.onBatch = onBatch
    }

    deinit { shutdown() }

    /// Performs one effect the pane returned.
    public func perform(_ effect: WebSocketPaneEffect) {
        switch effect {
        case .connect(let url, let subscriptions):
            connect(url: url, subscriptions: subscriptions)
        case .disconnect:
            state.withLock { $0.session }?.close(code: .normal, reason: "")
        case .send(let text):
            guard let session = state.withLock({ $0.session }) else { return }
            do {
                try session.send(.text(text))
            } catch {
                enqueue(.error(error))
            }
        }
    }

    /// Closes politely with 1001 (going away) when the explorer quits, and stops delivering batches.
    public func shutdown() {
        let (session, consumer, flusher) = state.withLock { state in
            defer { state.session = nil; state.consumer = nil; state.flusher = nil }
            return (state.session, state.consumer, state.flusher)
        }
        session?.close(code: .goingAway, reason: "")
        consumer?.cancel()
        flusher?.cancel()
    }

    private func connect(url text: String, subscriptions: [String]) {
        guard let url = URL(string: text) else {
            enqueue(.error(.badURL(text)))
            flush()
            return
        }
        var configuration = WebSocketConfiguration(url: url)
        configure(&configuration)
        let session = WebSocketSession(configuration: configuration, subscriptions: subscriptions.map { .text($0) })
        let previous = state.withLock { state in
            defer { state.session = session }
            return state.session
        }
        previous?.close(code: .normal, reason: "")
        let consumer = Task { [self] in
            for await event in session.events { enqueue(event) }
        }
        state.withLock { state in
            state.consumer = consumer
            if state.flusher == nil { state.flusher = Task { [self] in await flushPeriodically() } }
        }
        session.start()
    }

    private func enqueue(_ event: WebSocketEvent) {
        state.withLock { $0.pending.append(event) }
    }

    private func flush() {
        let batch = state.withLock { state in
            defer { state.pending = [] }
            return state.pending
        }
        if !batch.isEmpty { onBatch(batch) }
    }

    private func flushPeriodically() async {
        while !Task.isCancelled {
            try? await Task.sleep(nanoseconds: UInt64(interval * 1e9))
            flush()
        }
        flush()
    }
}
