/// What the app must do for the pane; the pane never touches the network itself.
public enum WebSocketPaneEffect: Sendable, Hashable {
    /// Open a session on `url` that sends `subscriptions` after every (re)connect.
    case connect(url: String, subscriptions: [String])
    /// Close the session at the user's request (no reconnect).
    case disconnect
    /// Send one text message on the open session.
    case send(String)
    /// Ask where to save the kept messages (`transcript()`), then write them there.
    case saveMessages
    /// End the request side of the open gRPC call (half-close).
    case endStream
}
