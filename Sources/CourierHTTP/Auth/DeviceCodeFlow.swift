import Foundation

/// The device authorization grant (RFC 8628), which suits a terminal best: ask for a user code, show it
/// with the address to enter it at, then poll the token endpoint at the interval the server gives, slower
/// when it says `slow_down`, until the user has signed in, refused, or the code expired.
struct DeviceCodeFlow {
    let session: OAuth2Session
    let configuration: OAuth2Configuration
    let context: RequestContext

    /// The wait between polls when the server names none (RFC 8628 section 3.2).
    static let defaultInterval = 5.0
    /// What `slow_down` adds to the wait (section 3.5).
    static let slowDownStep = 5.0

    func run() async throws(APIError) -> Credentials {
        guard let endpoint = configuration.deviceAuthorizationURL else {
            throw APIError.signIn(configuration: configuration.id,
                                  reason: "the device grant needs 'Device Auth URL' (the device authorization endpoint)")
        }
        var fields: [(String, String)] = []
        if let scope = configuration.scope, !scope.isEmpty { fields.append(("scope", scope)) }
        let request = OAuth2TokenEndpoint.request(endpoint, fields: fields, configuration: configuration,
                                                  use: .authorizationRequest)
        let answer = OAuth2TokenEndpoint.Answer(try await session.exchange(request, configuration: configuration,
                                                                             context: context))
        if let problem = answer.problem(from: endpoint) {
            throw APIError.signIn(configuration: configuration.id, reason: "the device authorization endpoint " + problem)
        }
        // Google's endpoint spells it `verification_url`.
        guard let deviceCode = answer.string("device_code"), let userCode = answer.string("user_code"),
              let verification = (answer.string("verification_uri") ?? answer.string("verification_url"))
                  .flatMap(URL.init(string:)) else {
            throw APIError.signIn(configuration: configuration.id, reason: "the device authorization endpoint's "
                                      + "answer lacks device_code, user_code or verification_uri")
        }
        let complete = answer.string("verification_uri_complete").flatMap(URL.init(string:))
        let prompt = AuthPrompt.deviceCode(userCode: userCode, verificationURL: verification, completeURL: complete)
        session.hooks.prompt(prompt)
        context.events.emit(.auth(context.id, AuthEvent(configuration: configuration.id, action: .prompt(prompt))))

        var interval = max(answer.number("interval") ?? Self.defaultInterval, 0)
        let deadline = session.hooks.now().addingTimeInterval(answer.number("expires_in") ?? 600)
        let poll = OAuth2TokenEndpoint.request(configuration.tokenURL,
                                               fields: [("grant_type", OAuth2Configuration.Grant.deviceCode.rawValue),
                                                        ("device_code", deviceCode)],
                                               configuration: configuration)
        while true {
            try await session.hooks.sleep(.milliseconds(Int(interval * 1000)))
            let response = try await session.exchange(poll, configuration: configuration, context: context)
            let answer = OAuth2TokenEndpoint.Answer(response)
            switch answer.errorCode {
            case "authorization_pending"?:
                break
            case "slow_down"?:
                interval += Self.slowDownStep
            case "access_denied"?:
                throw APIError.signIn(configuration: configuration.id, reason: "the user denied access")
            case "expired_token"?:
                throw APIError.signIn(configuration: configuration.id,
                                      reason: "the user code \(userCode) expired before anyone signed in with it")
            default:
                return try OAuth2TokenEndpoint.credentials(response, endpoint: configuration.tokenURL,
                                                           configuration: configuration, now: session.hooks.now())
            }
            if session.hooks.now() > deadline {
                throw APIError.signIn(configuration: configuration.id,
                                      reason: "the user code \(userCode) expired before anyone signed in with it")
            }
        }
    }
}
