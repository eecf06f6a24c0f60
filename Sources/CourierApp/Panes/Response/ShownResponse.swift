/// A response as the Response pane draws it: the viewer's state and its request's recent latency.
public struct ShownResponse: Sendable {
    public var pane: ResponsePaneState
    /// Follows the status line when it fits.
    public var latency: LatencyStats?

    public init(_ pane: ResponsePaneState, latency: LatencyStats? = nil) {
        self.pane = pane
        self.latency = latency
    }
}
