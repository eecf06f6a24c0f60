import CourierHTTP
import Foundation

extension ChildProcess {
    /// Whether the server this child runs answers `url` (any status; an insecure request on a throwaway
    /// transport, so the transport under test starts without a connection), asked until it does, the child
    /// exits, or a generous limit passes. Servers such as nginx and nghttpd say nothing when they are ready.
    public func answers(_ url: URL) async -> Bool {
        let probe = CurlTransport()
        let end = ContinuousClock.now + .seconds(120)
        while ContinuousClock.now < end && isRunning {
            if (try? await probe.send(HTTPRequest(url: url, insecure: true), context: RequestContext())) != nil { return true }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return false
    }
}
