/// What the explorer keeps of one request while it is open or not: its last response (with the scroll,
/// folds and search of the pane over it), the response before that for `d`, and where its last send is.
/// Opening another request parks the shown session and brings that request's own back.
public struct RequestSession: Sendable {
    public var response = ResponseState()
    /// The Response pane's model of the last response.
    public var pane: ResponsePaneState?
    /// The response before it, of the same request, for the viewer's diff.
    public var previousPane: ResponsePaneState?
    /// The history key the last response was recorded under.
    public var historyKey: String?
    /// The generation of this request's last send: its response, failure and history record carry it.
    public var generation: Int?

    public init() {}
}
