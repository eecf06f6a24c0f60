/// The five panes of the explorer, numbered as the `1`–`5` keys select them.
public enum PaneID: Int, Sendable, Hashable, CaseIterable {
    case collection = 1
    case request
    case response
    case log
    case webSocket

    /// The pane's title.
    public var title: String {
        switch self {
        case .collection: "Collection"
        case .request: "Request"
        case .response: "Response"
        case .log: "Log"
        case .webSocket: "WebSocket"
        }
    }

    /// The pane Tab moves to.
    public var next: PaneID { PaneID(rawValue: rawValue % PaneID.allCases.count + 1) ?? .collection }
    /// The pane Shift-Tab moves to.
    public var previous: PaneID {
        PaneID(rawValue: (rawValue + PaneID.allCases.count - 2) % PaneID.allCases.count + 1) ?? .collection
    }
}
