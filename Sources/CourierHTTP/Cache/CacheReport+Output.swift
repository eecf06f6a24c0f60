/// How a cache report reads in `--json` output and on one line for people.
extension CacheReport {
    /// The `--json` fields: `cache` (the decision), `cache_reason` (why, on one line), `age_s` and
    /// `ttl_s` in whole seconds when known, and `cache_detail` when there is one (why a response was
    /// not stored, why it was stale).
    public var jsonFields: [String: any Sendable] {
        var fields: [String: any Sendable] = ["cache": decision.rawValue, "cache_reason": reason]
        if let age { fields["age_s"] = Int(age.rounded()) }
        if let ttl { fields["ttl_s"] = Int(ttl.rounded()) }
        if let detail { fields["cache_detail"] = detail }
        return fields
    }

    /// Why the cache decided as it did, on one line: the detail when there is one, else what the
    /// decision means.
    public var reason: String {
        let text = detail ?? {
            switch decision {
            case .fresh: "fresh: served from the cache without a request"
            case .revalidated: "stale: the server confirmed the stored response (304 Not Modified)"
            case .refetched: "stale: the server sent a new response to the validation"
            case .stale: "served stale, as the directives allow"
            case .miss: "nothing usable was stored"
            case .notStored: "the response may not be stored"
            case .bypass: "the cache was not used"
            case .unvalidated: "the stored response must be validated and could not be"
            }
        }()
        return text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    /// `fresh (age 10 s, 50 s left)`, `stale (age 70 s, stale by 10 s)`, `not-stored: the response said no-store`.
    public var summary: String {
        var text = decision.rawValue
        var parts: [String] = []
        if let age { parts.append("age \(Int(age.rounded())) s") }
        if let ttl {
            let whole = Int(ttl.rounded())
            parts.append(whole > 0 ? "\(whole) s left" : "stale by \(-whole) s")
        }
        if !parts.isEmpty { text += " (" + parts.joined(separator: ", ") + ")" }
        if let detail { text += ": " + detail }
        return text
    }
}
