import Foundation

/// The connections the pane saw open and close, so each ended one can be kept in history like a response.
extension WebSocketPaneState {
    /// A connection from its `connected` event on.
    struct ConnectionSpan: Sendable, Hashable {
        /// The id of the first entry that belongs to it.
        var firstEntryID: Int
        var opened: Date
        var subprotocol: String?
    }

    /// A connection that closed: when it opened and closed, and the close line the pane showed.
    public struct EndedConnection: Sendable, Hashable {
        var span: ConnectionSpan
        public var closed: Date
        /// `closed 1000`, `closed 4005 grpc NOT_FOUND: …`, as the pane's status row reads.
        public var closeLine: String
        public var opened: Date { span.opened }
        public var subprotocol: String? { span.subprotocol }
    }

    /// The connection that closed since the last call, with its kept messages as NDJSON (`transcript()`'s
    /// lines); nil when none did. Each ended connection is handed out once.
    public mutating func takeEndedConnection() -> (connection: EndedConnection, transcript: Data)? {
        guard let ended = endedConnection else { return nil }
        endedConnection = nil
        return (ended, transcript(fromEntryID: ended.span.firstEntryID))
    }
}
