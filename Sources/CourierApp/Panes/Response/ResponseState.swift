import CourierHTTP
import Foundation

/// How the last send ended, when it did not give a response.
public struct SendFailure: Sendable, Hashable {
    /// `APIError.kind`.
    public var kind: String
    public var message: String
    public init(kind: String, message: String) { self.kind = kind; self.message = message }
    /// The kind of a request that names a variable no environment or file defines.
    public static let unknownVariableKind = "unknownVariable"
}

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
