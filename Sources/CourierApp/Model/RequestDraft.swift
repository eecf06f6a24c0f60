import CourierCollections
import CourierHTTP

/// A saved request as the explorer shows and edits it: text as the user wrote it, variables unresolved.
public struct RequestDraft: Sendable, Hashable {
    public var name: String
    /// The method as written: an HTTP method or `WEBSOCKET`.
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

    public init(name: String, method: String = "GET", url: String, headers: HTTPHeaders = [:], body: String = "",
                timeout: Double? = nil, maxAttempts: Int? = nil, cacheMode: CacheMode = .default,
                messages: [String] = [], subscriptions: Set<Int> = []) {
        self.name = name
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

    /// Whether this is a `WEBSOCKET` request for the WebSocket pane rather than an HTTP one.
    public var isWebSocket: Bool { method == "WEBSOCKET" }

    /// The methods the method selector cycles through, in order.
    public static let selectableMethods = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "WEBSOCKET"]
}
