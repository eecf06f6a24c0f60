import CourierHTTP
import CourierMessage

/// A saved request as written in a `.http` file, before variables are substituted.
public struct RequestTemplate: Sendable, Hashable, Identifiable {
    /// What the block asks for: a plain HTTP request, a WebSocket connection (`WEBSOCKET url`), a GraphQL
    /// query (JetBrains' `GRAPHQL url`, or VS Code's `X-REQUEST-TYPE: GraphQL` header), sent as a POST of
    /// `{"query": …, "variables": …}`, or a gRPC call (JetBrains' `GRPC host:port/package.Service/Method`, its
    /// JSON messages `===` separated). Only the parser and the writer know how a kind is spelled in a file.
    public enum Kind: String, Sendable, Hashable, CaseIterable { case http, websocket, graphql, grpc }

    /// The fields, behind one reference (`CopyOnWrite`): a template goes into every resolved request and every
    /// outcome of a run, and was copied field by field several times per request.
    private struct Fields: Sendable, Hashable {
        var id: RequestTemplateID
        var name: String?
        var kind: Kind
        var method: HTTPMethod
        var url: String
        var httpVersion: String?
        var headers: HTTPHeaders
        var body: BodyTemplate
        var variables: [VariableDefinition]
        var tags: [String: String]
        var messages: [WebSocketMessage]
        var unsupported: [UnsupportedDirective]
        var prompts: [PromptVariable]
        var scripts: [RequestScript]
        var lines: Range<Int>
        var sourceText: String
        var runs: [RunDirective] = []
        var references: [RequestReference] = []
        var loop: RequestLoop?
        var runsBefore: [RunDirective] = []
        var responseVariables: [VariableDefinition] = []
        var headerSpreads: [String] = []
    }

    private var fields: CopyOnWrite<Fields>

    public static func == (lhs: RequestTemplate, rhs: RequestTemplate) -> Bool {
        lhs.fields.sharesStorage(with: rhs.fields) || lhs.fields.value == rhs.fields.value
    }

    public func hash(into hasher: inout Hasher) { fields.value.hash(into: &hasher) }

    /// Stable within a loaded collection: the file's path and the request's ordinal there.
    public var id: RequestTemplateID {
        get { fields.value.id }
        _modify { yield &fields.value.id }
    }
    /// From `# @name NAME`, or from the text after `###` when there is no `@name`.
    public var name: String? {
        get { fields.value.name }
        _modify { yield &fields.value.name }
    }
    public var kind: Kind {
        get { fields.value.kind }
        _modify { yield &fields.value.kind }
    }
    public var method: HTTPMethod {
        get { fields.value.method }
        _modify { yield &fields.value.method }
    }
    /// The URL as written, continuation lines joined, variables not yet substituted.
    public var url: String {
        get { fields.value.url }
        _modify { yield &fields.value.url }
    }
    /// `HTTP/1.1` and the like when the request line names one.
    public var httpVersion: String? {
        get { fields.value.httpVersion }
        _modify { yield &fields.value.httpVersion }
    }
    public var headers: HTTPHeaders {
        get { fields.value.headers }
        _modify { yield &fields.value.headers }
    }
    public var body: BodyTemplate {
        get { fields.value.body }
        _modify { yield &fields.value.body }
    }
    /// Request-local `@name = value` definitions, in order.
    public var variables: [VariableDefinition] {
        get { fields.value.variables }
        _modify { yield &fields.value.variables }
    }
    /// `# @key value` tags other than `@name` (e.g. `@no-redirect`, `@timeout 5`, `@expect-status 429`).
    public var tags: [String: String] {
        get { fields.value.tags }
        _modify { yield &fields.value.tags }
    }
    /// WebSocket messages, or the JSON messages of a gRPC call, separated by `===` lines in the file.
    public var messages: [WebSocketMessage] {
        get { fields.value.messages }
        _modify { yield &fields.value.messages }
    }
    /// Directives kept verbatim after the body: `>> ./saved-response.json`, which `courier run` acts on.
    public var unsupported: [UnsupportedDirective] {
        get { fields.value.unsupported }
        _modify { yield &fields.value.unsupported }
    }
    /// `# @prompt NAME [description]` lines: values asked of the user before sending.
    public var prompts: [PromptVariable] {
        get { fields.value.prompts }
        _modify { yield &fields.value.prompts }
    }
    /// Pre-request scripts and response handlers, in file order.
    public var scripts: [RequestScript] {
        get { fields.value.scripts }
        _modify { yield &fields.value.scripts }
    }
    /// The request's lines in the file, 1-based and half-open, from its `###` line (if any) to the next one.
    public var lines: Range<Int> {
        get { fields.value.lines }
        _modify { yield &fields.value.lines }
    }
    /// The exact source text of those lines.
    public var sourceText: String {
        get { fields.value.sourceText }
        _modify { yield &fields.value.sourceText }
    }
    /// `run #name` / `run ./other.http` lines written instead of a request line: running this block runs
    /// what they name (`CollectionRunner`); the block itself sends nothing.
    public var runs: [RunDirective] {
        get { fields.value.runs }
        _modify { yield &fields.value.runs }
    }
    /// httpyac's `# @ref NAME` / `# @forceRef NAME` lines: requests that run before this one.
    public var references: [RequestReference] {
        get { fields.value.references }
        _modify { yield &fields.value.references }
    }
    /// httpyac's `# @loop …`: the request is sent once per item.
    public var loop: RequestLoop? {
        get { fields.value.loop }
        _modify { yield &fields.value.loop }
    }
    /// kulala.nvim's `run #name` lines above the request line: what they name runs before the request.
    public var runsBefore: [RunDirective] {
        get { fields.value.runsBefore }
        _modify { yield &fields.value.runsBefore }
    }
    /// httpyac's `@name = value` lines after the request line: set once the response is in, for the requests
    /// after it (`@token = {{response.parsedBody.token}}`).
    public var responseVariables: [VariableDefinition] {
        get { fields.value.responseVariables }
        _modify { yield &fields.value.responseVariables }
    }
    /// httpyac's `...defaultHeaders` lines among the headers: JavaScript expressions whose object's entries
    /// are sent as headers (over the ones written).
    public var headerSpreads: [String] {
        get { fields.value.headerSpreads }
        _modify { yield &fields.value.headerSpreads }
    }

    public init(id: RequestTemplateID, name: String? = nil, kind: Kind = .http, method: HTTPMethod = .get,
                url: String, httpVersion: String? = nil, headers: HTTPHeaders = [:], body: BodyTemplate = .none,
                variables: [VariableDefinition] = [], tags: [String: String] = [:],
                messages: [WebSocketMessage] = [], unsupported: [UnsupportedDirective] = [],
                prompts: [PromptVariable] = [], scripts: [RequestScript] = [], lines: Range<Int> = 0..<0,
                sourceText: String = "") {
        fields = CopyOnWrite(Fields(id: id, name: name, kind: kind, method: method, url: url, httpVersion: httpVersion,
                         headers: headers, body: body, variables: variables, tags: tags, messages: messages,
                         unsupported: unsupported, prompts: prompts, scripts: scripts, lines: lines,
                         sourceText: sourceText))
    }

    /// A label for lists and errors: the name, else the method and URL (the `run` line of a run block).
    public var displayName: String { name ?? (runs.first.map(\.text) ?? "\(method.rawValue) \(url)") }

    /// The REST Client's `# @note` tag: confirm before sending (the explorer asks; `courier run` says so).
    public static let noteTag = "note"

    /// Whether the block runs other requests (`run #name`) instead of sending one of its own.
    public var isRunBlock: Bool { !runs.isEmpty }

    /// Statuses `courier run` counts as success besides 2xx and 3xx, from `# @expect-status 404 429`.
    public var expectedStatuses: Set<Int> {
        Set((tags["expect-status"] ?? "").split(whereSeparator: { $0 == " " || $0 == "," }).compactMap { Int($0) })
    }

    /// Whether the content (not the position) of two templates is the same.
    public func sameContent(as other: RequestTemplate) -> Bool {
        name == other.name && kind == other.kind && method == other.method && url == other.url
            && httpVersion == other.httpVersion && headers == other.headers && body == other.body
            && variables == other.variables && tags == other.tags && messages == other.messages
            && unsupported == other.unsupported && prompts == other.prompts
            && scripts.map(\.source) == other.scripts.map(\.source) && runs == other.runs
            && references == other.references && loop == other.loop && runsBefore == other.runsBefore
    }
}

/// Identifies a request in a collection: its file and its 1-based position in that file.
public struct RequestTemplateID: Sendable, Hashable, CustomStringConvertible {
    public var file: String
    public var ordinal: Int
    public init(file: String, ordinal: Int) { self.file = file; self.ordinal = ordinal }
    public var description: String { "\(file)#\(ordinal)" }
}

/// What a saved request sends.
public enum BodyTemplate: Sendable, Hashable {
    case none
    /// Text with `{{variables}}`; multipart bodies are text too, with `< ./file` lines inside parts.
    case text(String)
    /// `< ./path` (sent as is) or `<@ ./path` (variables substituted), relative to the `.http` file.
    case file(path: String, substituteVariables: Bool)
    /// The REST Client's `<@ENCODING ./path`: read in that encoding (`BodyEncoding`), variables substituted,
    /// sent as UTF-8.
    case encodedFile(path: String, encoding: String)

    public var isNone: Bool { self == .none }
}

/// `@name = value`: the value may use other variables.
public struct VariableDefinition: Sendable, Hashable {
    public var name: String
    public var value: String
    /// 1-based line in the file.
    public var line: Int
    /// httpyac's `@name := value`: after a request, kept as written and evaluated where it is used.
    public var isLazy = false
    public init(name: String, value: String, line: Int = 0) { self.name = name; self.value = value; self.line = line }

    public static func == (a: Self, b: Self) -> Bool { a.name == b.name && a.value == b.value }
    public func hash(into hasher: inout Hasher) { hasher.combine(name); hasher.combine(value) }
}

/// One message of a `WEBSOCKET` request.
public struct WebSocketMessage: Sendable, Hashable {
    public var text: String
    /// Marked with a `# @subscribe` line at the start of its block: re-sent after every reconnect.
    public var subscribe: Bool
    /// Preceded by `=== wait-for-server`: send only after the server has said something.
    public var waitForServer: Bool
    public init(text: String, subscribe: Bool = false, waitForServer: Bool = false) {
        self.text = text
        self.subscribe = subscribe
        self.waitForServer = waitForServer
    }
}

/// A JetBrains directive after the body that Courier keeps verbatim: `>> file` and `>>! file`, which
/// `courier run` acts on (`ResponseRedirect`).
public struct UnsupportedDirective: Sendable, Hashable {
    /// The directive's text, all its lines.
    public var text: String
    /// 1-based line where it starts.
    public var line: Int
    public init(text: String, line: Int) { self.text = text; self.line = line }

    public static func == (a: Self, b: Self) -> Bool { a.text == b.text }
    public func hash(into hasher: inout Hasher) { hasher.combine(text) }
}

/// `# @prompt NAME [description]`: a value the user types before the request is sent.
public struct PromptVariable: Sendable, Hashable {
    public var name: String
    public var description: String?
    /// kulala's `# @secret NAME`, httpyac's `{{$password …}}`: the answer is masked like a private value.
    public var isSecret = false
    /// httpyac's `$value: default`: what `courier run` uses when no `--var` answers it.
    public var defaultValue: String?
    public init(name: String, description: String? = nil, isSecret: Bool = false, defaultValue: String? = nil) {
        self.name = name
        self.description = description
        self.isSecret = isSecret
        self.defaultValue = defaultValue
    }
}
