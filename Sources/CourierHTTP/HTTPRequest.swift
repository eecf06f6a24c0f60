import CourierMessage
import Foundation

/// A request as an inert value: building one does no I/O.
public struct HTTPRequest: Sendable, Hashable {
    public var method: HTTPMethod
    public var url: URL
    public var headers: HTTPHeaders
    public var body: RequestBody
    /// The limit for one attempt; the retry policy's overall deadline is separate.
    public var timeout: Duration?
    /// The limit for opening the connection, over the transport's own (`# @connection-timeout`).
    public var connectTimeout: Duration?
    public var cacheMode: CacheMode
    /// Overrides the client's retry budget for this request (0 disables retries).
    public var maxAttempts: Int?
    public var followRedirects: Bool
    /// Skips TLS verification; only ever set from an explicit `--insecure`.
    public var insecure: Bool
    /// The certificate presented to a server that asks for one (mutual TLS); nil presents none.
    public var clientCertificate: ClientCertificate?
    /// Challenge-response credentials (Digest), answered by the transport; nil for none.
    public var authentication: HTTPAuthentication?
    /// The OAuth 2.0 configurations whose tokens the request carries where `OAuth2Placeholder`s stand
    /// (`{{$auth.token("id")}}`): `OAuth2Middleware` gets the tokens and puts them in.
    public var oauth2: [OAuth2Configuration] = []
    /// Signs each attempt with AWS Signature Version 4 (`AWSSigV4Signing`, next to the transport).
    public var awsSigV4: AWSSigV4Configuration?
    /// Signs each attempt with OAuth 1.0a (`OAuth1Signing`, next to the transport).
    public var oauth1: OAuth1Configuration?
    /// The cookie jar (an environment's name) this request reads and fills through `CookieMiddleware`;
    /// nil sends no stored cookies and keeps none (`courier send`, `# @no-cookie-jar`).
    public var cookieJar: String?
    /// Follows a redirect from https down to plain http; only from an explicit `--allow-insecure-redirect`.
    public var allowInsecureRedirect: Bool = false
    /// Values that are secrets wherever they appear (private-environment values the request was built
    /// from): never sent as such, only read by writers (the cache) to mask them.
    public var knownSecrets: Set<String> = []
    /// What the request line names in place of the URL's path and query: `*` for `OPTIONS *` (RFC 9110's
    /// asterisk form); nil sends the URL's own.
    public var requestTarget: String?

    public init(method: HTTPMethod = .get, url: URL, headers: HTTPHeaders = [:], body: RequestBody = .empty,
                timeout: Duration? = nil, cacheMode: CacheMode = .default, maxAttempts: Int? = nil,
                followRedirects: Bool = true, insecure: Bool = false) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.cacheMode = cacheMode
        self.maxAttempts = maxAttempts
        self.followRedirects = followRedirects
        self.insecure = insecure
    }

    /// The Idempotency-Key header, which makes a non-idempotent request safe to retry.
    public var idempotencyKey: String? {
        get { headers["Idempotency-Key"] }
        set { headers["Idempotency-Key"] = newValue }
    }

    /// Whether the retry policy may send this request more than once.
    public var isRetryable: Bool { method.isIdempotent || idempotencyKey != nil }
}

/// What a request sends.
public enum RequestBody: Sendable, Hashable {
    case empty
    case data(Data)
    /// A file streamed from disk when the request is sent.
    case file(URL)
    /// Pieces sent one after another, bytes and files streamed from disk: a multipart body whose parts
    /// embed files.
    case parts([RequestBodyPart])

    public var isEmpty: Bool {
        switch self {
        case .empty: true
        case .data(let data): data.isEmpty
        case .file: false
        case .parts(let parts): parts.allSatisfy { if case .data(let data) = $0 { data.isEmpty } else { false } }
        }
    }
}

/// One piece of a `RequestBody.parts` body.
public enum RequestBodyPart: Sendable, Hashable {
    case data(Data)
    /// A file streamed from disk when the request is sent.
    case file(URL)
}

/// How a request uses the HTTP cache.
public enum CacheMode: String, Sendable, Hashable, CaseIterable {
    /// Serve fresh entries, validate stale ones.
    case `default`
    /// Always validate a stored entry with the server.
    case revalidate
    /// Bypass stored entries and replace them with the answer.
    case reload
    /// Serve only from the cache; a miss is a 504.
    case onlyIfCached = "only-if-cached"
    /// Neither read nor write the cache.
    case bypass
}
