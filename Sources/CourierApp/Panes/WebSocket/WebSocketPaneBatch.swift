import CourierWebSocket

/// What the connector hands the pane once per frame: the session's events, and how many messages it
/// dropped itself because the explorer fell behind by more than a whole window.
public struct WebSocketPaneBatch: Sendable {
    public var events: [WebSocketEvent]
    /// Messages received but dropped before reaching the pane (the oldest ones).
    public var droppedMessages: Int

    public init(events: [WebSocketEvent], droppedMessages: Int = 0) {
        self.events = events
        self.droppedMessages = droppedMessages
    }
}
