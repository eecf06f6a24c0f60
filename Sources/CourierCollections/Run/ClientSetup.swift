import CourierHTTP
import CourierSecurity
import Foundation

/// How a command wants its client: the one place a Courier client is put together (transport, HTTP cache,
/// cookie jars, retry policy, events, OAuth 2.0 sign-in) and the one place a command's per-request defaults (`--cache-mode`,
/// `--allow-insecure-redirect`) are applied, so the explorer and every command send through the same pipeline.
public struct ClientSetup: Sendable {
    /// The transport; nil builds libcurl's with `transportConfiguration`.
    public var transport: (any Transport)?
    /// libcurl's settings when `transport` is nil: trusted certificates, idle timeout, spill folder.
    public var transportConfiguration = CurlTransport.Configuration()
    /// The HTTP cache in the pipeline; nil sends everything to the network.
    public var cache: HTTPCacheMiddleware?
    /// The cookie jars saved requests share (one per environment); nil keeps no cookies.
    public var cookies: CookieJarStore?
    /// nil disables retries.
    public var retry: RetryPolicy? = .standard
    /// Receives every event of every request.
    public var events: EventSink = .none
    /// A cache mode that beats each request's own, except `bypass` (`# @no-log` keeps its response nowhere).
    public var cacheMode: CacheMode?
    /// Lets every request follow redirects from https to plain http.
    public var allowInsecureRedirect = false
    /// Where OAuth 2.0 tokens are kept between runs; nil keeps them as long as the client.
    public var authTokens: OAuth2TokenCache?
    /// Told what the user must do to sign in (a device code to enter, a page to open).
    public var authPrompt: @Sendable (AuthPrompt) -> Void = { _ in }
    /// How long a browser sign-in waits for its redirect: `COURIER_SIGN_IN_WAIT` (seconds, or with `m`
    /// for minutes), else five minutes.
    public var signInWait = ClientSetup.signInWait(ProcessEnvironment.values(["COURIER_SIGN_IN_WAIT"]))

    public init() {}

    /// `COURIER_SIGN_IN_WAIT` read as a duration: `90`, `90s`, `5m`; the default when unset or unreadable.
    static func signInWait(_ environment: [String: String]) -> Duration {
        guard var text = environment["COURIER_SIGN_IN_WAIT"]?.trimmingCharacters(in: .whitespaces).lowercased(),
              !text.isEmpty else { return OAuth2Session.Hooks.defaultSignInWait }
        var unit = 1
        if text.hasSuffix("m") { unit = 60; text.removeLast() } else if text.hasSuffix("s") { text.removeLast() }
        guard let count = Int(text), count > 0 else { return OAuth2Session.Hooks.defaultSignInWait }
        return .seconds(count * unit)
    }

    /// The HTTP cache a command asks for: in `directory`, or in the default folder when `requested`; nil when
    /// neither. Throws when the folder cannot be opened.
    public static func cache(directory: URL?, requested: Bool) throws -> HTTPCacheMiddleware? {
        guard requested || directory != nil else { return nil }
        return try HTTPCacheMiddleware(directory: directory)
    }

    /// The client this setup describes.
    public func makeClient() -> HTTPClient {
        let steps: [any Middleware] = cookies.map { jars in [CookieMiddleware { jars.jar($0) }] } ?? []
        let transport = transport ?? CurlTransport(configuration: transportConfiguration)
        let oauth2 = OAuth2Session(transport: transport, cache: authTokens,
                                   hooks: OAuth2Session.Hooks(prompt: authPrompt, signInWait: signInWait))
        return HTTPClient(configuration: HTTPClient.Configuration(
            transport: transport, cache: cache, middlewares: steps, retry: retry, events: events, oauth2: oauth2))
    }

    /// `count` clients (at least one) for a command that keeps several cores busy: each with a transport, so a
    /// libcurl loop thread, of its own, all sharing what the setup holds (cookie jars, HTTP cache, events) and the
    /// first client's OAuth 2.0 session, so a token is fetched, refreshed and signed in for once, not per client.
    public func makeClients(count: Int) -> [HTTPClient] {
        let first = makeClient()
        return [first] + (1..<max(1, count)).map { _ in
            var configuration = makeClient().configuration
            configuration.oauth2 = first.configuration.oauth2
            return HTTPClient(configuration: configuration)
        }
    }

    /// The executor `client`'s requests are best run on: its libcurl loop thread, where its transfers finish and
    /// resume their tasks; nil for another transport.
    public static func loopExecutor(of client: HTTPClient) -> (any TaskExecutor)? {
        (client.configuration.transport as? CurlTransport)?.executor
    }

    /// A lane per client, each sending through its client with this setup's defaults, on its loop thread.
    public func lanes(through clients: [HTTPClient]) -> SendLanes {
        SendLanes(clients.map { SendLanes.Lane(executor: Self.loopExecutor(of: $0), send: send(through: $0)) })
    }

    /// `client`'s send with this setup's per-request defaults applied: what a `CollectionRunner` sends through.
    public func send(through client: HTTPClient) -> CollectionRunner.Send {
        let setup = self
        // Without defaults to apply, each request goes as it is: no copy of it per send.
        guard cacheMode != nil || allowInsecureRedirect else {
            return { request, context async throws(APIError) -> HTTPResponse in
                try await client.send(request, context: context)
            }
        }
        return { request, context async throws(APIError) -> HTTPResponse in
            try await client.send(setup.applyingDefaults(to: request), context: context)
        }
    }

    /// `request` with this setup's per-request defaults (`cacheMode`, `allowInsecureRedirect`) applied.
    public func applyingDefaults(to request: HTTPRequest) -> HTTPRequest {
        var request = request
        if let cacheMode, request.cacheMode != .bypass { request.cacheMode = cacheMode }
        if allowInsecureRedirect { request.allowInsecureRedirect = true }
        return request
    }
}
