import Foundation
import Synchronization

/// Gets, keeps and renews the OAuth 2.0 tokens of every auth configuration a client's requests name: one
/// `TokenStore` per configuration (so concurrent requests share one grant or one refresh), kept on disk
/// per environment and configuration by `OAuth2TokenCache`. Token requests go to the transport directly,
/// each an attempt of a request of its own in the events.
public final class OAuth2Session: Sendable {
    /// What the session needs from its surroundings; tests replace the clock, the sleep and the browser.
    public struct Hooks: Sendable {
        /// Shows the user what to do to sign in, at once (standard error, the status bar).
        public var prompt: @Sendable (AuthPrompt) -> Void
        /// Opens a URL in a browser when there is one; false when none could be started.
        public var openBrowser: @Sendable (URL) -> Bool
        public var now: @Sendable () -> Date
        /// The device grant's wait between polls; throws `.cancelled` when the task is cancelled.
        public var sleep: @Sendable (Duration) async throws(APIError) -> Void
        /// How long the authorization code grant waits for the browser to come back to the loopback redirect.
        public var signInWait: Duration

        /// The wait for a browser sign-in when nothing else is said: long enough to type a password and a
        /// second factor, short enough that a run with nobody at a browser ends.
        public static let defaultSignInWait = Duration.seconds(300)

        public init(prompt: @escaping @Sendable (AuthPrompt) -> Void = { _ in },
                    openBrowser: @escaping @Sendable (URL) -> Bool = BrowserOpener.open,
                    now: @escaping @Sendable () -> Date = { Date() },
                    sleep: @escaping @Sendable (Duration) async throws(APIError) -> Void = Hooks.taskSleep,
                    signInWait: Duration = defaultSignInWait) {
            self.prompt = prompt
            self.openBrowser = openBrowser
            self.now = now
            self.sleep = sleep
            self.signInWait = signInWait
        }

        /// `Task.sleep`, whose only failure is cancellation.
        public static let taskSleep: @Sendable (Duration) async throws(APIError) -> Void = {
            duration throws(APIError) in
            do { try await Task.sleep(for: duration) } catch { throw .cancelled }
        }
    }

    let transport: any Transport
    let cache: OAuth2TokenCache?
    let hooks: Hooks
    private let stores = Mutex<[String: TokenStore]>([:])

    /// A session sending token requests through `transport`, keeping tokens in `cache` (nil: in memory only).
    public init(transport: any Transport, cache: OAuth2TokenCache?, hooks: Hooks = Hooks()) {
        self.transport = transport
        self.cache = cache
        self.hooks = hooks
    }

    /// Credentials good for `configuration` now: held ones, refreshed ones, or new ones from its grant;
    /// `fresh` when this call waited for new ones.
    public func credentials(for configuration: OAuth2Configuration,
                            context: RequestContext) async throws(APIError) -> (credentials: Credentials, fresh: Bool) {
        let store = store(for: configuration)
        do {
            let (credentials, fresh) = try await store.usable(at: hooks.now()) { stale throws(APIError) in
                try await self.obtain(configuration, stale: stale, context: context)
            }
            if !fresh {
                context.events.emit(.auth(context.id, AuthEvent(configuration: configuration.id,
                                                                action: .reused(expiresAt: credentials.expiresAt))))
            }
            return (credentials, fresh)
        } catch {
            throw failure(error, configuration: configuration, context: context)
        }
    }

    /// New credentials after the server refused `token` (401): shared with every request refused at the
    /// same time, refreshed when there is a refresh token, else a new grant.
    public func renew(for configuration: OAuth2Configuration, replacing token: String,
                      context: RequestContext) async throws(APIError) -> Credentials {
        let store = store(for: configuration)
        do {
            let renewed = try await store.renew(replacing: token) { stale throws(APIError) in
                try await self.obtain(configuration, stale: stale, context: context)
            }
            context.events.emit(.auth(context.id, AuthEvent(configuration: configuration.id, action: .renewedAfter401)))
            return renewed
        } catch {
            throw failure(error, configuration: configuration, context: context)
        }
    }

    /// Forgets every token held in memory (the disk cache is `OAuth2TokenCache`'s).
    public func signOutAll() async {
        for store in stores.withLock({ Array($0.values) }) { await store.signOut() }
    }

    private func failure(_ failure: APIError, configuration: OAuth2Configuration,
                         context: RequestContext) -> APIError {
        if case .cancelled = failure { return failure }
        let reason: String
        if case .signIn(_, let why) = failure { reason = why } else { reason = failure.description }
        context.events.emit(.auth(context.id, AuthEvent(configuration: configuration.id, action: .failed(reason))))
        if case .signIn = failure { return failure }
        return .signIn(configuration: configuration.id, reason: reason)
    }

    /// The store of `configuration`, holding what the disk cache kept from an earlier run.
    private func store(for configuration: OAuth2Configuration) -> TokenStore {
        let key = configuration.cacheKey
        return stores.withLock { stores in
            if let store = stores[key] { return store }
            let store = TokenStore(credentials: cache?.credentials(for: configuration))
            stores[key] = store
            return store
        }
    }

    // MARK: Getting tokens

    /// Refreshes `stale` when it has a refresh token (a refused refresh falls back to the grant), else runs
    /// the grant; keeps the result on disk.
    private func obtain(_ configuration: OAuth2Configuration, stale: Credentials?,
                        context: RequestContext) async throws(APIError) -> Credentials {
        var obtained: Credentials?
        if let refreshToken = stale?.refreshToken, !refreshToken.isEmpty {
            do {
                obtained = try await refresh(configuration, refreshToken: refreshToken, stale: stale, context: context)
                context.events.emit(.auth(context.id, AuthEvent(configuration: configuration.id, action: .refreshed)))
            } catch {
                // A refresh token the server no longer takes means signing in again; anything else is reported.
                guard case .signIn = error else { throw error }
            }
        }
        if obtained == nil {
            obtained = try await grant(configuration, context: context)
            context.events.emit(.auth(context.id, AuthEvent(configuration: configuration.id,
                                                            action: .fetched(configuration.grant))))
        }
        guard let obtained else { throw APIError.signIn(configuration: configuration.id, reason: "no token") }
        cache?.save(obtained, for: configuration, now: hooks.now())
        return obtained
    }

    private func refresh(_ configuration: OAuth2Configuration, refreshToken: String, stale: Credentials?,
                         context: RequestContext) async throws(APIError) -> Credentials {
        var fields = [("grant_type", "refresh_token"), ("refresh_token", refreshToken)]
        if let scope = configuration.scope, !scope.isEmpty { fields.append(("scope", scope)) }
        let request = OAuth2TokenEndpoint.request(configuration.tokenURL, fields: fields, configuration: configuration)
        let response = try await exchange(request, configuration: configuration, context: context)
        return try OAuth2TokenEndpoint.credentials(response, endpoint: configuration.tokenURL,
                                                   configuration: configuration, now: hooks.now(), previous: stale)
    }

    private func grant(_ configuration: OAuth2Configuration,
                       context: RequestContext) async throws(APIError) -> Credentials {
        switch configuration.grant {
        case .clientCredentials, .password:
            let request = OAuth2TokenEndpoint.request(configuration.tokenURL,
                                                      fields: OAuth2TokenEndpoint.grantFields(configuration),
                                                      configuration: configuration)
            let response = try await exchange(request, configuration: configuration, context: context)
            return try OAuth2TokenEndpoint.credentials(response, endpoint: configuration.tokenURL,
                                                       configuration: configuration, now: hooks.now())
        case .deviceCode:
            return try await DeviceCodeFlow(session: self, configuration: configuration, context: context).run()
        case .authorizationCode:
            return try await AuthorizationCodeFlow(session: self, configuration: configuration, context: context).run()
        }
    }

    /// Sends one request to the authorization server as an attempt of a request of its own (the Log shows
    /// it, its credentials masked); a transport failure says which endpoint could not be reached.
    func exchange(_ request: HTTPRequest, configuration: OAuth2Configuration,
                  context: RequestContext) async throws(APIError) -> HTTPResponse {
        let own = RequestContext(id: RequestID.next(), events: context.events)
        let transport = self.transport
        do {
            return try await AttemptEvents().intercept(request, context: own) {
                request, context throws(APIError) in try await transport.send(request, context: context)
            }
        } catch {
            if case .cancelled = error { throw error }
            throw APIError.signIn(configuration: configuration.id,
                                  reason: "\(request.url.absoluteString) could not be reached: \(error)")
        }
    }
}
