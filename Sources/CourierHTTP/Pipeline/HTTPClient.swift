import Foundation

/// The typed client: one ordered array of middlewares folded over a transport.
///
/// The order of `Configuration.pipeline`, outermost first, is the behaviour:
/// 0. `oauth2`: puts the OAuth 2.0 tokens a request names in place (fetching or refreshing them first),
///    and on a 401 renews a held token once and replays the whole inner stack. Outermost for the reasons
///    `auth` is, and because a grant may wait for the user (the device code, the browser).
/// 1. `auth`: attaches the bearer token; on a 401 it refreshes once and replays the whole inner
///    stack, so the replay is cached and retried like any request. Outside the cache so the cache
///    sees the request exactly as it goes out (Authorization included).
/// 2. `cache`: a fresh hit answers here, before retry and before the attempt layer, so it makes no
///    transport call and no attempt. Outside retry so that one logical fetch, with its retries,
///    fills one entry, and a validation request is retried like any other.
/// 3. `middlewares`: the caller's own steps, seeing each logical request once.
/// 4. `retry`: calls the rest once per attempt, numbering attempts in the context.
/// 5. `AWSSigV4Signing`, `OAuth1Signing`: sign each attempt of a request that asks for it, after every step
///    that changes the request, with the attempt's own time (and OAuth 1.0a's own nonce).
/// 6. `AttemptEvents`: next to the transport, so each transport call is exactly one attempt with
///    one `attemptStarted` and one `attemptFinished`.
public final class HTTPClient: Sendable {
    /// What the client is built from.
    public struct Configuration: Sendable {
        public var transport: any Transport
        public var auth: AuthMiddleware?
        /// Gets and renews the OAuth 2.0 tokens requests name; nil: a session of the client's own, in memory.
        public var oauth2: OAuth2Session?
        /// The HTTP cache (CourierHTTP/Cache); nil sends every request to the network.
        public var cache: (any Middleware)?
        /// Extra steps between the cache and retry.
        public var middlewares: [any Middleware]
        /// nil disables retries altogether.
        public var retry: RetryPolicy?
        /// Backoff sleeps and deadline checks go through this; tests inject one that does not wait.
        public var sleeper: any Sleeper
        /// Receives every event of every request, in addition to each request's own sink.
        public var events: EventSink

        public init(transport: any Transport, auth: AuthMiddleware? = nil, cache: (any Middleware)? = nil,
                    middlewares: [any Middleware] = [], retry: RetryPolicy? = .standard,
                    sleeper: any Sleeper = SystemSleeper(), events: EventSink = .none, oauth2: OAuth2Session? = nil) {
            self.transport = transport
            self.oauth2 = oauth2
            self.auth = auth
            self.cache = cache
            self.middlewares = middlewares
            self.retry = retry
            self.sleeper = sleeper
            self.events = events
        }

        /// The one ordered array, outermost first; see `HTTPClient` for why this order.
        public var pipeline: [any Middleware] {
            var steps: [any Middleware] = []
            if let oauth2 { steps.append(OAuth2Middleware(session: oauth2)) }
            if let auth { steps.append(auth) }
            if let cache { steps.append(cache) }
            steps.append(contentsOf: middlewares)
            if let retry { steps.append(RetryMiddleware(policy: retry, sleeper: sleeper)) }
            steps.append(AWSSigV4Signing())
            steps.append(OAuth1Signing())
            steps.append(AttemptEvents())
            return steps
        }
    }

    public let configuration: Configuration
    private let handler: Next

    /// Folds the pipeline over the transport once; every request then runs through the same chain.
    public init(configuration: Configuration) {
        var configuration = configuration
        // Every client fills the tokens its requests name; without a session of the caller's they last as
        // long as the client, and the user is asked nothing beyond the events.
        if configuration.oauth2 == nil {
            configuration.oauth2 = OAuth2Session(transport: configuration.transport, cache: nil)
        }
        self.configuration = configuration
        let transport = configuration.transport
        var next: Next = { request, context throws(APIError) in
            try await transport.send(request, context: context)
        }
        for middleware in configuration.pipeline.reversed() {
            let inner = next
            next = { request, context throws(APIError) in
                try await middleware.intercept(request, context: context, next: inner)
            }
        }
        handler = next
    }

    /// A client on `transport` with the standard retry policy and nothing else.
    public convenience init(transport: any Transport) {
        self.init(configuration: Configuration(transport: transport))
    }

    /// Sends a request through the pipeline. Any status comes back as a response; transport
    /// failures, cancellation and pipeline decisions are thrown as `APIError`.
    public func send(_ request: HTTPRequest, context: RequestContext = RequestContext()) async throws(APIError)
        -> HTTPResponse {
        var context = context
        context.events = configuration.events.merged(with: context.events)
        do {
            return try await handler(request, context)
        } catch {
            if case .cancelled = error { context.events.emit(.cancelled(context.id, superseded: false)) }
            throw error
        }
    }

    /// Sends an endpoint's request, turns an error status into `APIError`, and decodes the body.
    public func send<Response>(_ endpoint: Endpoint<Response>, context: RequestContext = RequestContext())
        async throws(APIError) -> Response {
        let response = try await send(endpoint.request, context: context)
        if let failure = APIError(response: response) { throw failure }
        return try endpoint.decode(response)
    }
}

extension APIError {
    /// Any error as an `APIError`: Swift's CancellationError becomes `.cancelled`, anything
    /// else unexpected is kept as a protocol error with its description.
    public init(_ error: any Error) {
        switch error {
        case let error as APIError: self = error
        case is CancellationError: self = .cancelled
        default: self = .protocolError(underlying: String(describing: error))
        }
    }
}
