import CourierHTTP
import Foundation

/// The `# @…` tags that change how a request is sent, read in this one place for `courier run` and the
/// explorer alike: `@timeout SECONDS`, `@connection-timeout SECONDS`, `@max-attempts N`, `@cache MODE`,
/// `@no-redirect`, `@insecure`, `@no-log`.
public struct RequestOptions: Sendable, Hashable {
    public static let timeoutTag = "timeout"
    public static let connectionTimeoutTag = "connection-timeout"
    public static let maxAttemptsTag = "max-attempts"
    /// What the explorer's Options tab once wrote for `max-attempts`; still read, never written.
    public static let legacyAttemptsTag = "attempts"
    public static let cacheTag = "cache"
    public static let noRedirectTag = "no-redirect"
    public static let insecureTag = "insecure"
    /// JetBrains' `# @no-log`: the request holds something the user does not want kept, so neither the
    /// explorer's history nor the HTTP cache keeps the request or its response.
    public static let noLogTag = "no-log"

    /// Seconds for one attempt; nil leaves the client's default.
    public var timeout: Double?
    /// Seconds for opening the connection; nil leaves the client's default (30 s).
    public var connectionTimeout: Double?
    /// Attempts the retry policy may make; nil leaves the client's default.
    public var maxAttempts: Int?
    public var cacheMode: CacheMode
    public var followRedirects: Bool
    public var insecure: Bool
    /// `# @no-log`: nothing of the exchange is kept on disk (no history entry; the cache is bypassed).
    public var noLog = false

    public init(timeout: Double? = nil, maxAttempts: Int? = nil, cacheMode: CacheMode = .default,
                followRedirects: Bool = true, insecure: Bool = false, connectionTimeout: Double? = nil) {
        self.timeout = timeout
        self.connectionTimeout = connectionTimeout
        self.maxAttempts = maxAttempts
        self.cacheMode = cacheMode
        self.followRedirects = followRedirects
        self.insecure = insecure
    }

    /// The options a request's tags ask for; a value that does not parse is left at the default.
    public init(tags: [String: String]) {
        self.init(
            timeout: tags[Self.timeoutTag].flatMap(Self.seconds).flatMap { $0 > 0 ? $0 : nil },
            maxAttempts: (tags[Self.maxAttemptsTag] ?? tags[Self.legacyAttemptsTag]).flatMap { Int($0) }
                .flatMap { $0 > 0 ? $0 : nil },
            cacheMode: tags[Self.cacheTag].flatMap { CacheMode(rawValue: $0) } ?? .default,
            followRedirects: tags[Self.noRedirectTag] == nil,
            insecure: tags[Self.insecureTag] != nil,
            connectionTimeout: tags[Self.connectionTimeoutTag].flatMap(Self.seconds).flatMap { $0 > 0 ? $0 : nil })
        noLog = tags[Self.noLogTag] != nil
    }

    /// Writes the options the explorer edits (timeout, attempts, cache mode) back into `tags`; other tags stay.
    public func write(into tags: inout [String: String]) {
        tags[Self.timeoutTag] = timeout.map(Self.format)
        tags[Self.maxAttemptsTag] = maxAttempts.map(String.init)
        tags[Self.legacyAttemptsTag] = nil
        tags[Self.cacheTag] = cacheMode == .default ? nil : cacheMode.rawValue
    }

    /// Sets the request's timeouts, attempts, cache mode, redirects and verification from the options.
    public func apply(to request: inout HTTPRequest) {
        if let timeout { request.timeout = .milliseconds(Int64(timeout * 1000)) }
        if let connectionTimeout { request.connectTimeout = .milliseconds(Int64(connectionTimeout * 1000)) }
        if let maxAttempts { request.maxAttempts = maxAttempts }
        // A response the user asked not to keep is not stored in the cache either (nor read from it).
        request.cacheMode = noLog && cacheMode == .default ? .bypass : cacheMode
        if !followRedirects { request.followRedirects = false }
        if insecure { request.insecure = true }
    }

    /// Seconds from a duration as the JetBrains client writes it: `30`, `30 s`, `500 ms`, `2 m` (the number
    /// may touch its unit: `500ms`); nil for anything else.
    public static func seconds(_ text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let number = trimmed.prefix { $0.isNumber || $0 == "." }
        guard let value = Double(number) else { return nil }
        switch trimmed.dropFirst(number.count).trimmingCharacters(in: .whitespaces).lowercased() {
        case "", "s": return value
        case "ms": return value / 1000
        case "m": return value * 60
        default: return nil
        }
    }

    /// `5`, not `5.0`; `0.5` as is.
    public static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() && abs(seconds) < 1e15 ? String(Int(seconds)) : String(seconds)
    }
}

extension RequestTemplate {
    /// How the request is sent, from its tags.
    public var options: RequestOptions { RequestOptions(tags: tags) }
}
