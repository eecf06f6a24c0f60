/// The cache's rules as data, each set with the reason it exists (RFC 9111 unless said otherwise).
public enum CachePolicy {
    /// Methods whose responses are stored: the RFC lets other methods be cached only with rules
    /// (POST with Content-Location) that no API client relies on.
    public static let storableMethods: Set<HTTPMethod> = [.get, .head]

    /// Status codes that are cacheable by default (RFC 9110 section 15.1), so heuristic freshness may apply.
    public static let heuristicallyCacheable: Set<Int> = [200, 203, 204, 206, 300, 301, 308, 404, 405, 410, 414, 501]

    /// Statuses never stored even with explicit freshness: 206 needs range combination this cache does
    /// not do, and 304 only updates an entry.
    public static let neverStoredStatuses: Set<Int> = [206, 304]

    /// Server errors after which a stale entry may answer, when the directives allow it (RFC 9111 4.2.4).
    public static let staleOnErrorStatuses: Set<Int> = [500, 502, 503, 504]

    /// Heuristic freshness is this fraction of the time since Last-Modified (RFC 9111 section 4.2.2).
    public static let heuristicFraction = 0.1
    /// ...and never more than a day, so a file untouched for years is not trusted for months.
    public static let heuristicCap: Double = 86_400

    /// Hop-by-hop fields are about one connection, never stored (RFC 9111 section 3.1).
    public static let unstoredResponseHeaders: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "te", "transfer-encoding", "upgrade",
        "proxy-authenticate", "proxy-authentication-info",
        // A secret: never written to disk (Courier's rule, not the RFC's).
        "set-cookie",
    ]

    /// Fields a 304 must not overwrite in the stored response (RFC 9111 section 3.2): Content-Length
    /// describes the stored body, and the body was stored already decoded by its Content-Encoding.
    public static let notUpdatedBy304: Set<String> = unstoredResponseHeaders.union([
        "content-length", "content-encoding", "content-range",
    ])

    /// Bodies up to this size are kept in memory in a `CacheRevalidation`, so the compare view can diff
    /// them after the caller has deleted its files; larger ones are compared by size.
    public static let comparisonBodyLimit = 256 * 1024

    /// Request headers that make a request conditional; the caller's own conditions pass through.
    public static let conditionalRequestHeaders: [String] = [
        "If-None-Match", "If-Modified-Since", "If-Match", "If-Unmodified-Since", "If-Range",
    ]

    /// A stable 64-bit FNV-1a digest in hex: enough to tell two secrets apart without storing either.
    public static func digest(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
