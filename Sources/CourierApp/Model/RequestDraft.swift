import CourierCollections
import CourierHTTP
import CourierMessage

/// A saved request as the explorer shows and edits it: text as the user wrote it, variables unresolved.
public struct RequestDraft: Sendable, Hashable {
    public var name: String
    /// HTTP, WebSocket or GraphQL: what the Send key does and how the request is drawn.
    public var kind: RequestTemplate.Kind
    /// The HTTP method as written (a WebSocket request's upgrade is a GET).
    public var method: String
    public var url: String
    public var headers: HTTPHeaders
    public var body: String
    /// Seconds for one attempt; nil leaves the client's default.
    public var timeout: Double?
    /// Attempts the retry policy may make; nil leaves the client's default.
    public var maxAttempts: Int?
    public var cacheMode: CacheMode
    /// The `===`-separated messages of a WebSocket request.
    public var messages: [String]
    /// Indexes of the messages marked `# @subscribe`: sent on connect and after every reconnect.
    public var subscriptions: Set<Int>
    /// `# @prompt NAME` values asked for before each send.
    public var prompts: [PromptVariable] = []
    /// `# @no-log`: the exchange is not recorded in history.
    public var noLog = false
    /// The REST Client's `# @note [text]`: the explorer asks before sending it (the text, when given, is the
    /// question's reason); nil when the request has no such tag.
    public var note: String?
    /// `run #name` lines: the block runs these requests instead of sending one of its own.
    public var runs: [String] = []

    public init(name: String, kind: RequestTemplate.Kind = .http, method: String = "GET", url: String,
                headers: HTTPHeaders = [:], body: String = "", timeout: Double? = nil, maxAttempts: Int? = nil,
                cacheMode: CacheMode = .default, messages: [String] = [], subscriptions: Set<Int> = []) {
        self.name = name
        self.kind = kind
        self.method = method.uppercased()
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.maxAttempts = maxAttempts
        self.cacheMode = cacheMode
        self.messages = messages
        self.subscriptions = subscriptions
    }

    /// Whether this is a WebSocket request for the WebSocket pane rather than an HTTP one.
    public var isWebSocket: Bool { kind == .websocket }

    /// What the method column shows: `WS` for a WebSocket request, `GRAPHQL` for a GraphQL one, else the
    /// method.
    public var methodLabel: String { Self.methodLabel(kind: kind, method: method) }

    /// The method column's text for a request of `kind` sent with `method`.
    public static func methodLabel(kind: RequestTemplate.Kind, method: String) -> String {
        switch kind {
        case .http: method
        case .websocket: "WS"
        case .graphql: "GRAPHQL"
        case .grpc: "GRPC"
        }
    }

    /// The HTTP methods the method selector cycles through, in order; a WebSocket request comes after them.
    public static let selectableMethods = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]
}
