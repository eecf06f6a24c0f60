import CourierMessage

/// A request a script sends itself (Postman's `pm.sendRequest`), as the script described it.
public struct ScriptOutgoingRequest: Sendable, Hashable, Codable {
    public var method: String
    public var url: String
    /// Name and value pairs in the script's order.
    public var headers: HTTPHeaders
    /// The body as text (a form or multipart body already encoded); nil sends none.
    public var body: String?

    /// A request a script asked for.
    public init(method: String, url: String, headers: HTTPHeaders = [], body: String? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// Why a script's own request got no response (connection refused, timeout, a URL that is not one): the
/// message its callback reads as `err.message`.
public struct ScriptSendFailure: Error, Sendable, Hashable {
    public var message: String
    public init(_ message: String) { self.message = message }
}

/// What a script may ask of the program that runs it while it runs, injected by that program (the script
/// module knows no client): sending a request, and the value of a dynamic variable such as `$guid`. A script
/// process asks its parent for them (`ScriptFrame`).
public struct ScriptServices: Sendable {
    /// Sends a request and waits for its response; nil when scripts may not send (`pm.sendRequest` then says
    /// it is unsupported).
    public var send: (@Sendable (ScriptOutgoingRequest) -> Result<ScriptResponse, ScriptSendFailure>)?
    /// A fresh value for a dynamic variable's expression (`$randomInt`, `$guid`), or nil when it is not one.
    public var dynamicValue: (@Sendable (String) -> String?)?
    /// Answers `pm.cookies.jar()`'s calls on the request's cookie jar, JSON in and out (`ScriptCookieWire`
    /// in CourierCollections says what crosses); nil where scripts have no jar.
    public var cookies: (@Sendable (String) -> String)?

    /// Services a script may use; none by default.
    public init(send: (@Sendable (ScriptOutgoingRequest) -> Result<ScriptResponse, ScriptSendFailure>)? = nil,
                dynamicValue: (@Sendable (String) -> String?)? = nil, cookies: (@Sendable (String) -> String)? = nil) {
        self.send = send
        self.dynamicValue = dynamicValue
        self.cookies = cookies
    }
}
