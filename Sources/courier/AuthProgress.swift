import CourierHTTP
import Foundation

/// How `courier run` signs in: OAuth 2.0 tokens kept in the XDG state folder between runs, what the user
/// must do (a device code, a page to open) and each token fetched or refreshed said on standard error as it
/// happens (a token reused is not: the explorer's Log shows it).
enum AuthProgress {
    /// The session for a client on `transport`.
    static func session(transport: any Transport) -> OAuth2Session {
        OAuth2Session(transport: transport, cache: OAuth2TokenCache(),
                      hooks: OAuth2Session.Hooks(prompt: { Console.error($0.message) }))
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
