import CourierMessage
import CourierSecurity
/// The cache's rules as data, each set with the reason it exists (RFC 9111 unless said otherwise).
public enum CachePolicy {
    /// Methods whose responses are stored: the RFC lets other methods be cached only with rules
    /// (POST with Content-Location) that no API client relies on.
    public static let storableMethods: Set<HTTPMethod> = [.get, .head]

    /// Status codes that are cacheable by default (RFC 9110 section 15.1), so heuristic freshness may apply.
    public static let heuristicallyCacheable: Set<Int> = [200, 203, 204, 206, 300, 301, 308, 404, 405, 410, 414, 501]

    /// Statuses whose caching rules this cache implements, so that a `must-understand` response with one of
    /// them is stored despite its `no-store` (RFC 9111 section 5.2.2.3).
    public static let understoodStatuses: Set<Int> = heuristicallyCacheable.subtracting(neverStoredStatuses)

    /// Statuses never stored even with explicit freshness: a 206 is part of a response (a range request
    /// is answered from a stored 200 instead, or forwarded), and a 304 only updates an entry.
    public static let neverStoredStatuses: Set<Int> = [206, 304]

    /// Server errors after which a stale entry may answer, when the directives allow it (RFC 9111 4.2.4).
    public static let staleOnErrorStatuses: Set<Int> = [500, 502, 503, 504]

    /// Heuristic freshness is this fraction of the time since Last-Modified (RFC 9111 section 4.2.2).
    public static let heuristicFraction = 0.1
    /// ...and never more than a day, so a file untouched for years is not trusted for months.
    public static let heuristicCap: Double = 86_400

    /// Hop-by-hop fields are about one connection, never stored (RFC 9111 section 3.1), nor are the
    /// fields a `Connection` field names (`connectionNamedFields`).
    public static let hopByHopHeaders: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "te", "transfer-encoding", "upgrade",
        "proxy-authenticate", "proxy-authentication-info",
    ]

    /// Secret fields (`Set-Cookie`, `Authorization`, API keys, tokens), as the one secret policy
    /// (`SecretPolicy`) names them. RFC 9111 section 7.3 lets a cache store a response's, but Courier
    /// writes no secret to disk: the stored response is kept without them (and says so), and a request's
    /// that Vary selects are compared by digest.
    public static func isWithheld(_ name: String) -> Bool { SecretPolicy.isSecretHeader(name) }

    /// Why a response that echoes a credential the request sent (an Authorization, a token, a private value)
    /// is not stored: a stored copy would keep the secret on disk, and a masked copy is not the server's
    /// answer to serve later.
    public static let echoesCredential = "the response echoes a credential the request sent"

    /// The lower-cased names a response's `Connection` fields list: hop-by-hop for that response.
    public static func connectionNamedFields(_ headers: HTTPHeaders) -> Set<String> {
        Set(headers.values(for: "Connection").flatMap { CacheControl.fieldNames($0) })
    }

    /// The fields of `headers` that may be stored: no hop-by-hop field, none `Connection` names, no secret.
    public static func storableFields(_ headers: HTTPHeaders) -> [(name: String, value: String)] {
        let named = connectionNamedFields(headers)
        return headers.filter {
            let name = $0.name.lowercased()
            return !hopByHopHeaders.contains(name) && !named.contains(name) && !isWithheld(name)
        }.map { ($0.name, $0.value) }
    }

    /// Fields a 304 must not overwrite in the stored response (RFC 9111 section 3.2): Content-Length
    /// describes the stored body, and the body was stored already decoded by its Content-Encoding.
    public static let notUpdatedBy304: Set<String> = hopByHopHeaders.union([
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
