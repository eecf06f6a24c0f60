/// Keys of the send box.
public enum WebSocketPaneComposeCommand: Sendable, Hashable {
    case send, newline, historyPrevious, historyNext, cancel
}
