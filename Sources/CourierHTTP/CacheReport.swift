/// What the HTTP cache did for one response, shown in the status line, the log and `--json`.
public struct CacheReport: Sendable, Hashable {
    public var decision: CacheDecision
    /// The stored response's age when served, in seconds.
    public var age: Double?
    /// Remaining freshness in seconds (negative when stale).
    public var ttl: Double?
    /// Why a response was not stored, for `.notStored`.
    public var detail: String?

    public init(decision: CacheDecision, age: Double? = nil, ttl: Double? = nil, detail: String? = nil) {
        self.decision = decision
        self.age = age
        self.ttl = ttl
        self.detail = detail
    }
}

/// The cache's decision for a response, as RFC 9111 lets it decide.
public enum CacheDecision: String, Sendable, Hashable, CaseIterable {
    /// Served from the cache while fresh; no request was sent.
    case fresh
    /// A stored entry was validated and the server answered 304.
    case revalidated
    /// A stored entry was validated and the server sent a new full response.
    case refetched
    /// Served stale, as the directives allowed (for example after a 5xx during validation).
    case stale
    /// Nothing usable was stored.
    case miss
    /// The response could not be stored (see `CacheReport.detail`).
    case notStored = "not-stored"
    /// The cache was not consulted.
    case bypass
    /// A stored response had to be validated (must-revalidate, no-cache) and the server could not be
    /// reached: the answer is a 504 that says so, never the stale response.
    case unvalidated
}
