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

    /// The fields, behind one reference (`CopyOnWrite`): an outcome (its template, resolved request and
    /// response) is handed from the sender to the runner, to the run's list and to each observer, and every
    /// hand-over copied it field by field. Fields are read in place (`_read`): `outcome.resolved?.request`
    /// copies the request, not the whole resolved request first.
    private struct Fields: Sendable {
        var template: RequestTemplate
        var context: RequestContext
        var resolved: ResolvedRequest?
        var response: HTTPResponse?
        var webSocket: WebSocketRunResult?
        var failure: Failure?
        var skipped: String?
        var scripts = ScriptReport()
        var savedTo: [String] = []
    }

    private var fields: CopyOnWrite<Fields>

    /// An outcome of `template` that has not run yet: no response, no failure.
    public init(template: RequestTemplate, context: RequestContext) {
        fields = CopyOnWrite(Fields(template: template, context: context))
    }

    public var template: RequestTemplate {
        _read { yield fields.value.template }
        _modify { yield &fields.value.template }
    }
    /// The identity of the request in the client's events, for looking up its attempts.
    public var context: RequestContext {
        _read { yield fields.value.context }
        _modify { yield &fields.value.context }
    }
    public var resolved: ResolvedRequest? {
        _read { yield fields.value.resolved }
        _modify { yield &fields.value.resolved }
    }
    public var response: HTTPResponse? {
        _read { yield fields.value.response }
        _modify { yield &fields.value.response }
    }
    /// What a WebSocket request did, when it ran.
    public var webSocket: WebSocketRunResult? {
        _read { yield fields.value.webSocket }
        _modify { yield &fields.value.webSocket }
    }
    public var failure: Failure? {
        _read { yield fields.value.failure }
        _modify { yield &fields.value.failure }
    }
    /// Set when the request was not sent at all (WebSocket requests when the runner has no `exchange`).
    public var skipped: String? {
        _read { yield fields.value.skipped }
        _modify { yield &fields.value.skipped }
    }
    /// What the request's scripts did: tests, log lines, the error that stopped one.
    public var scripts: ScriptReport {
        _read { yield fields.value.scripts }
        _modify { yield &fields.value.scripts }
    }
    /// Files the response body was saved to by `>> file` / `>>! file`: the written paths, variables expanded,
    /// with the numbered name `>>` chose when the file existed.
    public var savedTo: [String] {
        _read { yield fields.value.savedTo }
        _modify { yield &fields.value.savedTo }
    }

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
