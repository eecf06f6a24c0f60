import Synchronization

/// What a session has handed to its consumer and the consumer has not taken yet, in bytes: the back-pressure
/// between the socket and whoever reads `WebSocketSession.batches`. Past `highWater` the connection stops
/// reading the socket (the peer's sends then wait on TCP, not on this process's memory); once the consumer
/// has taken enough to bring it under `lowWater`, the connection is woken to read again.
final class DeliveryBacklog: Sendable {
    /// What one event costs besides its payload: the event and the message around it.
    static let eventOverhead = 128
    /// The default bounds: reading stops past 8 MB handed over and not taken, and starts again under 4 MB.
    static let defaultHighWater = 8 << 20

    let highWater: Int
    let lowWater: Int
    private struct State {
        var bytes = 0
        /// Wakes the connection that is waiting for the consumer, if one is.
        var waiting: (@Sendable () -> Void)?
    }
    private let state = Mutex(State())

    init(highWater: Int = defaultHighWater) {
        self.highWater = highWater
        lowWater = highWater / 2
    }

    /// What `events` cost while they wait for the consumer.
    static func cost(_ events: [WebSocketEvent]) -> Int {
        events.reduce(0) { total, event in
            if case .message(let record) = event { return total + record.size + eventOverhead }
            return total + eventOverhead
        }
    }

    /// The connection hands `events` over.
    func handed(_ events: [WebSocketEvent]) {
        let cost = Self.cost(events)
        state.withLock { $0.bytes += cost }
    }

    /// The consumer took `events`: a connection waiting for room is woken once there is enough.
    func taken(_ events: [WebSocketEvent]) {
        let cost = Self.cost(events)
        let wake = state.withLock { state -> (@Sendable () -> Void)? in
            state.bytes = max(0, state.bytes - cost)
            guard state.bytes < lowWater, let waiting = state.waiting else { return nil }
            state.waiting = nil
            return waiting
        }
        wake?()
    }

    /// Whether the connection must stop reading; when it must, `wake` is called once there is room again.
    func isFull(wake: @escaping @Sendable () -> Void) -> Bool {
        state.withLock { state in
            guard state.bytes >= highWater else { return false }
            state.waiting = wake
            return true
        }
    }
}
