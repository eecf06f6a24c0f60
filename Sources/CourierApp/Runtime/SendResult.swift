import CourierCollections
import CourierHTTP

/// What a send's task produced: the viewer's state of a response (nil when its body file could not be read),
/// or why the request could not be built.
enum SendResult: Sendable {
    case response(ResponsePaneState?)
    case unresolved(SendFailure)
}

/// A request whose pre-request scripts ran: resolved, with the explorer's options, and what the scripts did.
typealias PreparedSend = (resolved: ResolvedRequest, request: HTTPRequest, report: ScriptReport)
