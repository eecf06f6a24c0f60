import CourierHTTP
import Foundation

/// Watches a run as it happens, so a screen can follow a send while it is under way: told when each request
/// is about to go out. It only watches; it cannot change what is sent.
public protocol RunObserver: Sendable {
    /// `request` is resolved (its pre-request scripts ran) and about to be sent under `context`'s id;
    /// `secrets` are the values it carries as credentials, to be masked wherever they come back.
    func willSend(_ request: HTTPRequest, secrets: Set<String>, context: RequestContext)
}

extension RunObserver {
    public func willSend(_ request: HTTPRequest, secrets: Set<String>, context: RequestContext) {}
}
