import CourierCollections
import CourierHTTP
import Foundation

/// How `courier run` signs in: OAuth 2.0 tokens kept in the XDG state folder between runs, what the user
/// must do (a device code, a page to open) and each token fetched or refreshed said on standard error as it
/// happens (a token reused is not: the explorer's Log shows it).
enum AuthProgress {
    /// Keeps `setup`'s tokens in the state folder and prints what the user must do on standard error.
    static func configure(_ setup: inout ClientSetup) {
        setup.authTokens = OAuth2TokenCache()
        setup.authPrompt = { Console.error($0.message) }
    }

    /// Prints `auth: token 'sso' fetched (client credentials)` lines; prompts are printed by the session.
    static let sink = EventSink { event in
        guard case .auth(_, let auth) = event else { return }
        switch auth.action {
        case .fetched, .refreshed, .renewedAfter401: Console.error("auth: " + auth.description())
        case .reused, .prompt, .failed: break
        }
    }
}
