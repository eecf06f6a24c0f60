import CourierGRPC
import CourierWebSocket
import Foundation
import Synchronization

/// Runs the pane's effects against a real `WebSocketSession` and hands the session's events back in
/// batches, one per frame interval, so the app applies tens of thousands of messages a second with
/// one action per frame (`WebSocketPaneState.apply(_:)`) instead of one per message.
///
/// Memory stays bounded when the explorer falls behind: events wait here, never more than the pane's
/// window of messages (older ones are dropped and counted in the batch), and a batch is handed over
/// only once the app is ready for it (`isReady`), so batches cannot pile up in the app's queue either.
public final class WebSocketPaneConnector: Sendable {
    /// Called with each non-empty batch, on a background thread; the app posts it as one action.
    private let onBatch: @Sendable (WebSocketPaneBatch) -> Void
    /// Whether the app has taken the previous batch; a flush waits while it has not.
    private let isReady: @Sendable () -> Bool
    private let interval: Double
    private let window: WebSocketPaneWindow
    private let configure: @Sendable (inout WebSocketConfiguration) -> Void
    private let state = Mutex(State())

    private struct State {
        var session: WebSocketSession?
        /// A gRPC call shown in the pane instead of a WebSocket session.
        var grpc: GRPCPaneCall?
        var pending: [WebSocketEvent] = []
        /// Messages in `pending` and their payload bytes, to trim it to the window.
        var pendingMessages = 0
        var pendingBytes = 0
        var dropped = 0
        /// Flushes skipped in a row because the app was not ready.
        var waited = 0
        var consumer: Task<Void, Never>?
        var flusher: Task<Void, Never>?
        /// Counts connects asked for and disconnects: a connection whose request is still being resolved
        /// opens only if nothing was asked since.
        var intent = 0
    }

    /// Flushes skipped at most while the app is not ready, so a busy queue cannot starve the pane.
    private static let maxWaits = 30

    /// `configure` adjusts each connection's settings (headers, insecure, keepalive) before it opens.
    public init(interval: Double = 1.0 / 60, window: WebSocketPaneWindow = .standard,
                configure: @escaping @Sendable (inout WebSocketConfiguration) -> Void = { _ in },
                isReady: @escaping @Sendable () -> Bool = { true },
                onBatch: @escaping @Sendable (WebSocketPaneBatch) -> Void) {
        self.interval = interval
        self.window = window
        self.configure = configure
        self.isReady = isReady
        self.onBatch = onBatch
    }

    deinit { shutdown() }

    /// Performs one effect the pane returned.
    public func perform(_ effect: WebSocketPaneEffect) {
        switch effect {
        case .connect(let url, let subscriptions):
            connect(url: url, subscriptions: subscriptions)
        case .disconnect:
            let (session, grpc) = state.withLock { state in
                state.intent += 1
                return (state.session, state.grpc)
            }
            session?.close(code: .normal, reason: "")
            grpc?.cancel()
        case .send(let text):
            if let grpc = state.withLock({ $0.grpc }) {
                grpc.send(text)
                return
            }
            guard let session = state.withLock({ $0.session }) else { return }
            do {
                try session.send(.text(text))
            } catch {
                enqueue(.error(error))
            }
        case .endStream:
            closeSend()
        case .saveMessages:
            // The app asks for a file name and writes the pane's transcript; nothing to do on the socket.
            break
        }
    }

    /// Closes politely with 1001 (going away) when the explorer quits, and stops delivering batches.
    public func shutdown() {
        let (session, grpc, consumer, flusher) = state.withLock { state in
            defer { state.session = nil; state.grpc = nil; state.consumer = nil; state.flusher = nil }
            return (state.session, state.grpc, state.consumer, state.flusher)
        }
        session?.close(code: .goingAway, reason: "")
        grpc?.cancel()
        consumer?.cancel()
        flusher?.cancel()
    }

    /// Marks that a connection was asked for whose settings are still being worked out (the request is
    /// resolved off the loop thread); pass the ticket to `connect(_:subscriptions:ticket:)`.
    public func beginConnect() -> Int {
        state.withLock { state in
            state.intent += 1
            return state.intent
        }
    }

    /// Opens a session with `configuration` (the resolved request's), unless another connect or a
    /// disconnect was asked for since `ticket` was taken. Reconnects re-use these settings.
    public func connect(_ configuration: WebSocketConfiguration, subscriptions: [String], ticket: Int) {
        open(configuration, subscriptions: subscriptions, ticket: ticket)
    }

    /// Shows `call` in the pane: `messages` go out first, each reply arrives as an incoming message, and the
    /// status ends it. The send box sends on it; disconnecting cancels it. A session or call open before is
    /// closed.
    public func open(grpc call: GRPCJSONCall, url: URL, messages: [String], ticket: Int) {
        let pane = GRPCPaneCall(call, url: url) { [weak self] events in self?.enqueue(contentsOf: events) }
        let previous: (opened: Bool, session: WebSocketSession?, grpc: GRPCPaneCall?) = state.withLock { state in
            guard state.intent == ticket else { return (false, nil, nil) }
            defer {
                state.session = nil
                state.grpc = pane
                if state.flusher == nil { state.flusher = Task { [self] in await flushPeriodically() } }
            }
            return (true, state.session, state.grpc)
        }
        guard previous.opened else {
            call.cancel()
            return
        }
        previous.session?.close(code: .normal, reason: "")
        previous.grpc?.cancel()
        pane.start(sending: messages)
    }

    /// Ends the client's side of the open gRPC call (half-close): the server sees the end of the stream.
    public func closeSend() {
        state.withLock { $0.grpc }?.closeSend()
    }

    private func connect(url text: String, subscriptions: [String]) {
        guard let url = URL(string: text) else {
            enqueue(.error(.badURL(text)))
            flush(force: true)
            return
        }
        open(WebSocketConfiguration(url: url), subscriptions: subscriptions, ticket: beginConnect())
    }

    private func open(_ settings: WebSocketConfiguration, subscriptions: [String], ticket: Int) {
        var configuration = settings
        configure(&configuration)
        let session = WebSocketSession(configuration: configuration, subscriptions: subscriptions.map { .text($0) })
        // Checked where the session is swapped in, so a disconnect asked for meanwhile always wins.
        let swapped: (opened: Bool, previous: WebSocketSession?) = state.withLock { state in
            guard state.intent == ticket else { return (false, nil) }
            defer { state.session = session }
            return (true, state.session)
        }
        guard swapped.opened else { return }
        swapped.previous?.close(code: .normal, reason: "")
        let consumer = Task { [self] in
            var subprotocol: String?
            for await batch in session.batches {
                for event in batch { Self.answer(event, on: session, subprotocol: &subprotocol) }
                enqueue(contentsOf: batch, from: session)
            }
        }
        let previousConsumer = state.withLock { state in
            defer { state.consumer = consumer }
            return state.consumer
        }
        // The replaced session's last events (its close) could otherwise reach the pane after the new one had
        // opened, and show it closed.
        previousConsumer?.cancel()
        state.withLock { state in
            if state.flusher == nil { state.flusher = Task { [self] in await flushPeriodically() } }
        }
        session.start()
    }

    /// Answers what the subprotocol says a client must (a GraphQL server's ping), as `courier ws` does.
    private static func answer(_ event: WebSocketEvent, on session: WebSocketSession, subprotocol: inout String?) {
        switch event {
        case .connected(_, let chosen):
            subprotocol = chosen
        case .message(let record) where record.direction == .incoming:
            guard case .text(let text) = record.message,
                  let reply = GraphQLSubscription.reply(to: text, subprotocol: subprotocol) else { return }
            try? session.send(.text(reply))
        default:
            break
        }
    }

    private func enqueue(_ event: WebSocketEvent) { enqueue(contentsOf: [event]) }

    /// Queues `events` for the next batch; with `session`, only while it is the pane's session.
    private func enqueue(contentsOf events: [WebSocketEvent], from session: WebSocketSession? = nil) {
        let window = self.window
        state.withLock { state in
            if let session, state.session !== session { return }
            for event in events {
                state.pending.append(event)
                guard case .message(let record) = event else { continue }
                state.pendingMessages += 1
                state.pendingBytes += record.size
                // Trims only at twice the window, so trimming costs O(1) per message amortised.
                if state.pendingMessages > 2 * window.messages || state.pendingBytes > 2 * window.bytes {
                    Self.trim(&state, to: window)
                }
            }
        }
    }

    /// Keeps the newest messages that fit the window, and every connection event.
    private static func trim(_ state: inout State, to window: WebSocketPaneWindow) {
        var keptMessages = 0
        var keptBytes = 0
        var kept: [WebSocketEvent] = []
        for event in state.pending.reversed() {
            if case .message(let record) = event {
                guard (keptMessages < window.messages && keptBytes + record.size <= window.bytes) || keptMessages == 0 else {
                    state.dropped += 1
                    continue
                }
                keptMessages += 1
                keptBytes += record.size
            }
            kept.append(event)
        }
        state.pending = kept.reversed()
        state.pendingMessages = keptMessages
        state.pendingBytes = keptBytes
    }

    private func flush(force: Bool = false) {
        let ready = force || isReady()
        let window = self.window
        let batch: WebSocketPaneBatch? = state.withLock { state in
            guard !state.pending.isEmpty else { return nil }
            guard ready || state.waited >= Self.maxWaits else {
                state.waited += 1
                return nil
            }
            if state.pendingMessages > window.messages || state.pendingBytes > window.bytes {
                Self.trim(&state, to: window)
            }
            defer {
                state.pending = []
                state.pendingMessages = 0
                state.pendingBytes = 0
                state.dropped = 0
                state.waited = 0
            }
            return WebSocketPaneBatch(events: state.pending, droppedMessages: state.dropped)
        }
        if let batch { onBatch(batch) }
    }

    private func flushPeriodically() async {
        while !Task.isCancelled {
            try? await Task.sleep(nanoseconds: UInt64(interval * 1e9))
            flush()
        }
        flush(force: true)
    }
}
