/// How a cache report reads in `--json` output and on one line for people.
extension CacheReport {
    /// The `--json` fields: `cache` (the decision), `age_s` and `ttl_s` in whole seconds when known,
    /// and `cache_detail` when there is one (why a response was not stored, why it was stale).
    public var jsonFields: [String: any Sendable] {
        var fields: [String: any Sendable] = ["cache": decision.rawValue]
        if let age { fields["age_s"] = Int(age.rounded()) }
        if let ttl { fields["ttl_s"] = Int(ttl.rounded()) }
        if let detail { fields["cache_detail"] = detail }
        return fields
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
