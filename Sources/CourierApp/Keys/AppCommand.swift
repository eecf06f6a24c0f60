import CourierCollections

/// Any command, so the palette can list and run all of them.
public enum AppCommand: Sendable, Hashable {
    case global(GlobalCommand)
    case collection(CollectionCommand)
    case request(RequestCommand)
    case response(ResponseCommand)
    /// A command of the response viewer (CourierApp/Panes/Response).
    case responsePane(ResponsePaneCommand)
    /// A command of the cache compare view (CourierApp/Panes/Compare), shown over the response.
    case compare(ComparePaneCommand)
    /// A command of the log pane (CourierApp/Panes/Log).
    case log(LogPaneCommand)
    /// A command of the WebSocket pane (CourierApp/Panes/WebSocket).
    case webSocket(WebSocketPaneCommand)
    case theme(String)
    case environment(String?)
    /// Copies the open request as code in this language (the palette's "Copy as:" entries).
    case copyAsCode(CodeLanguage)

    /// The pane a command belongs to; running it from the palette focuses that pane first.
    public var pane: PaneID? {
        switch self {
        case .collection: .collection
        case .request: .request
        case .response, .responsePane, .compare: .response
        case .log: .log
        case .webSocket: .webSocket
        default: nil
        }
    }
}
