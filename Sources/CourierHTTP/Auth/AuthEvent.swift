import Foundation

/// What the user must do for a sign-in to go on: shown at once by whoever runs the client (`courier run`
/// on standard error, the explorer in its status bar and Log).
public enum AuthPrompt: Sendable, Hashable {
    /// Open `url` in a browser and sign in (the authorization code grant); `opened` says whether a browser
    /// was started for it.
    case openURL(URL, opened: Bool)
    /// Enter `userCode` at `verificationURL` (the device grant, RFC 8628 section 3.3).
    case deviceCode(userCode: String, verificationURL: URL, completeURL: URL?)

    /// One line for the user.
    public var message: String {
        switch self {
        case .openURL(let url, let opened):
            (opened ? "Sign in in the browser that opened, or open: " : "To sign in, open: ") + url.absoluteString
        case .deviceCode(let code, let url, let complete):
            "To sign in, open \(url.absoluteString) and enter the code \(code)"
                + (complete.map { " (or open \($0.absoluteString))" } ?? "")
        }
    }
}

/// What the auth middleware did about one request's token, for the Log and `courier run`.
public struct AuthEvent: Sendable, Hashable {
    /// Why a token was or was not requested.
    public enum Action: Sendable, Hashable {
        /// A token already held was good; `expiresAt` nil when the server gave no expiry.
        case reused(expiresAt: Date?)
        /// A new token came from the grant.
        case fetched(OAuth2Configuration.Grant)
        /// The refresh token got a new access token (it had expired, or the server answered 401).
        case refreshed
        /// The server refused the token (401): a new one was asked for and the request sent again.
        case renewedAfter401
        /// The user has something to do.
        case prompt(AuthPrompt)
        /// No token could be had.
        case failed(String)
    }

    /// The auth configuration's name.
    public var configuration: String
    public var action: Action

    public init(configuration: String, action: Action) {
        self.configuration = configuration
        self.action = action
    }

    /// One line for the log: `token 'sso' fetched (client credentials)`.
    public func description(now: Date = Date()) -> String {
        let name = "token '\(configuration)'"
        switch action {
        case .reused(let expiresAt):
            guard let expiresAt else { return "\(name) reused (no expiry given)" }
            let minutes = Int((expiresAt.timeIntervalSince(now) / 60).rounded(.down))
            return "\(name) reused (expires in " + (minutes >= 1 ? "\(minutes) min)" : "under a minute)")
        case .fetched(let grant): return "\(name) fetched (\(grant.displayName))"
        case .refreshed: return "\(name) refreshed with its refresh token"
        case .renewedAfter401: return "\(name) refused by the server (401): renewed and sent again"
        case .prompt(let prompt): return prompt.message
        case .failed(let reason): return "\(name) not had: \(reason)"
        }
    }
}
