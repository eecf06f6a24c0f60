import Foundation

/// Access and refresh tokens issued by `/auth/login` and `/auth/refresh`.
struct DemoTokenStore {
    private struct Access { let username: String; let expires: Date }
    private struct Refresh { let username: String; let lifetime: TimeInterval }

    private var accessTokens: [String: Access] = [:]
    private var refreshTokens: [String: Refresh] = [:]

    /// What a bearer token is worth right now.
    enum Verdict: Equatable {
        case valid(username: String, expiresIn: TimeInterval)
        case expired
        case unknown
    }

    /// Issues a token pair; the access token lives `lifetime` seconds, the refresh token until the server stops.
    mutating func login(username: String, lifetime: TimeInterval, now: Date) -> (access: String, refresh: String) {
        let refresh = Self.newToken(prefix: "rt")
        refreshTokens[refresh] = Refresh(username: username, lifetime: lifetime)
        return (issueAccess(username: username, lifetime: lifetime, now: now), refresh)
    }

    /// A new access token for a known refresh token (its lifetime from login unless overridden).
    mutating func refresh(_ token: String, lifetime: TimeInterval?, now: Date)
        -> (access: String, lifetime: TimeInterval)? {
        guard let grant = refreshTokens[token] else { return nil }
        let seconds = lifetime ?? grant.lifetime
        return (issueAccess(username: grant.username, lifetime: seconds, now: now), seconds)
    }

    /// Checks an access token.
    func verdict(_ token: String, now: Date) -> Verdict {
        guard let access = accessTokens[token] else { return .unknown }
        let left = access.expires.timeIntervalSince(now)
        return left > 0 ? .valid(username: access.username, expiresIn: left) : .expired
    }

    private mutating func issueAccess(username: String, lifetime: TimeInterval, now: Date) -> String {
        let token = Self.newToken(prefix: "at")
        accessTokens[token] = Access(username: username, expires: now.addingTimeInterval(lifetime))
        return token
    }

    private static func newToken(prefix: String) -> String {
        prefix + "_" + (0..<3).map { _ in String(UInt64.random(in: .min ... .max), radix: 16) }.joined()
    }
}
