import CourierHTTP
import Foundation

/// Where the open request's last send is. The response itself lives in `ResponsePaneState`, the one model
/// the Response pane draws.
public struct ResponseState: Sendable, Hashable {
    public enum Phase: Sendable, Hashable {
        case idle
        case sending(method: String, url: String)
        /// The response pane (`AppState.responsePane`) holds the response.
        case received
        case failed(SendFailure)
        case cancelled
    }

    public var phase: Phase = .idle

    public init() {}
}
