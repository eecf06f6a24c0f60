import CourierSecurity
import Foundation

/// One stored cookie after RFC 6265 section 5.3: where it goes (domain, path, host-only), when it
/// ends, and its attributes. Values are secrets: show them through `maskedValue` unless asked.
public struct Cookie: Sendable, Hashable, Codable {
    public var name: String
    public var value: String
    /// Lower-cased, without a leading dot.
    public var domain: String
    /// Sent only to exactly `domain` (no Domain attribute was given), not to its subdomains.
    public var hostOnly: Bool
    public var path: String
    /// Sent only over HTTPS.
    public var secure: Bool
    /// Hidden from scripts in a browser; kept here so the jar shows it.
    public var httpOnly: Bool
    /// `Strict`, `Lax` or `None` as the server sent it; kept and shown, not enforced (no browsing context).
    public var sameSite: String?
    /// nil: a session cookie, kept until the jar is cleared.
    public var expires: Date?
    public var created: Date

    /// Creates a cookie from its parts.
    public init(name: String, value: String, domain: String, hostOnly: Bool = true, path: String = "/",
                secure: Bool = false, httpOnly: Bool = false, sameSite: String? = nil, expires: Date? = nil,
                created: Date = Date()) {
        self.name = name
        self.value = value
        self.domain = domain
        self.hostOnly = hostOnly
        self.path = path
        self.secure = secure
        self.httpOnly = httpOnly
        self.sameSite = sameSite
        self.expires = expires
        self.created = created
    }

    /// The value as shown: the redaction placeholder unless `showSecrets`.
    public func shownValue(showSecrets: Bool) -> String { showSecrets ? value : SecretPolicy.mask }

    /// One line for lists (`courier cookies ls`, the explorer's jar):
    /// `.example.com  /  sid=REDACTED  Secure HttpOnly SameSite=Lax  expires 2026-12-01T10:00:00Z`.
    public func listing(showSecrets: Bool) -> String {
        var flags: [String] = []
        if secure { flags.append("Secure") }
        if httpOnly { flags.append("HttpOnly") }
        if let sameSite { flags.append("SameSite=\(sameSite)") }
        let expiry = expires.map { "expires \(ISO8601DateFormatter().string(from: $0))" } ?? "session"
        return [hostOnly ? domain : "." + domain, path, "\(name)=\(shownValue(showSecrets: showSecrets))",
                flags.joined(separator: " "), expiry].filter { !$0.isEmpty }.joined(separator: "  ")
    }

    /// Whether the cookie has expired at `now`.
    public func isExpired(at now: Date) -> Bool { expires.map { $0 <= now } ?? false }

    /// Whether this cookie goes with a request to `url` (domain, path and Secure rules of section 5.4).
    public func matches(_ url: URL) -> Bool {
        guard let host = url.host?.lowercased() else { return false }
        // A WebSocket handshake over TLS (wss://) is a secure channel too.
        if secure && !["https", "wss"].contains(url.scheme?.lowercased() ?? "") { return false }
        let domainMatches = hostOnly ? host == domain : Self.domainMatches(host: host, domain: domain)
        return domainMatches && Self.pathMatches(requestPath: url.path.isEmpty ? "/" : url.path, cookiePath: path)
    }

    /// Section 5.1.3: identical, or `domain` is a suffix after a dot and the host is not an IP address.
    static func domainMatches(host: String, domain: String) -> Bool {
        if host == domain { return true }
        return host.hasSuffix("." + domain) && !Self.isIPAddress(host)
    }

    /// Section 5.1.4: the same path, or a prefix ending at a `/` boundary.
    static func pathMatches(requestPath: String, cookiePath: String) -> Bool {
        if requestPath == cookiePath { return true }
        guard requestPath.hasPrefix(cookiePath) else { return false }
        return cookiePath.hasSuffix("/") || requestPath.dropFirst(cookiePath.count).hasPrefix("/")
    }

    static func isIPAddress(_ host: String) -> Bool {
        host.contains(":") || host.split(separator: ".").allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) }
    }
}
