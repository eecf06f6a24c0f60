import CourierHTTP
import CourierScript
import Foundation

/// What happened to one request of a run.
public struct RunOutcome: Sendable {
    /// Why a request did not succeed.
    public enum Failure: Error, Sendable {
        /// The request could not be built (unknown variable, bad URL, unreadable body file).
        case collection(CollectionError)
        /// The transport or the pipeline failed.
        case transport(APIError)
        /// The server answered with a status the request does not accept.
        case status(Int)
        /// A WebSocket request failed to connect or broke off; the details are in `webSocket`.
        case webSocket(WebSocketRunResult.Failure)
        /// A response handler threw or ran past its time limit.
        case script(ScriptError)
        /// Tests declared by the response handlers failed (how many).
        case tests(failed: Int)
    }

    public var template: RequestTemplate
    /// The identity of the request in the client's events, for looking up its attempts.
    public var context: RequestContext
    public var resolved: ResolvedRequest?
    public var response: HTTPResponse?
    /// What a WebSocket request did, when it ran.
    public var webSocket: WebSocketRunResult?
    public var failure: Failure?
    /// Set when the request was not sent at all (WebSocket requests when the runner has no `exchange`).
    public var skipped: String?
    /// What the request's scripts did: tests, log lines, the error that stopped one.
    public var scripts = ScriptReport()
    /// Files the response body was saved to by `>> file` / `>>! file`: the written paths, variables expanded,
    /// with the numbered name `>>` chose when the file existed.
    public var savedTo: [String] = []

    public var succeeded: Bool { failure == nil }

    /// The request's secret set (`ResolvedRequest.secretSet`) with the credentials the pipeline added on
    /// the way out (`HTTPResponse.sentSecrets`: the jar's cookies, a followed redirect's user info).
    public var secrets: Set<String> {
        (resolved?.secretSet ?? []).union(response?.sentSecrets ?? [])
    }
}

extension RunOutcome.Failure {
    /// One short line saying what went wrong, for messages about a later request.
    public var summary: String {
        switch self {
        case .collection(let error): "\(error)"
        case .transport(let error): "\(error)"
        case .status(let status): "status \(status)"
        case .webSocket(let failure): failure.message
        case .script(let error): "\(error)"
        case .tests(let failed): failed == 1 ? "1 test failed" : "\(failed) tests failed"
        }
    }
}

extension RunOutcome {
    /// `login 200`, `me failed: status 404`: one request of a run, for a line that names each request run.
    public var shortSummary: String {
        let name = template.displayName
        if let failure, response == nil { return "\(name) failed: \(failure.summary)" }
        let status = "\(name) \(response.map { String($0.status) } ?? "skipped")"
        // The answer came but what the request does with it failed: a `>> file` it may not write.
        if case .collection(let error)? = failure { return status + ", then: \(error)" }
        return status
    }
}
