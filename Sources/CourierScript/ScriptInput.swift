import CourierMessage
import Foundation

/// The request as a script sees it: as written (`getRaw()`) and with variables substituted.
public struct ScriptRequest: Sendable, Hashable, Codable {
    /// One header: its name, its value as written and its value with variables substituted.
    public struct Header: Sendable, Hashable, Codable {
        public var name: String
        public var raw: String
        public var value: String
        public init(name: String, raw: String, value: String) {
            self.name = name
            self.raw = raw
            self.value = value
        }
    }

    /// The request's name (`pm.info.requestName`), when it has one.
    public var name: String?
    public var method: String
    public var rawURL: String
    /// The URL with variables substituted, or the raw URL when that is not possible yet.
    public var url: String
    public var headers: [Header]
    public var rawBody: String?
    public var body: String?

    /// A request seen by a script; substituted values default to the raw ones.
    public init(name: String? = nil, method: String, rawURL: String, url: String? = nil, headers: [Header] = [],
                rawBody: String? = nil, body: String? = nil) {
        self.name = name
        self.method = method
        self.rawURL = rawURL
        self.url = url ?? rawURL
        self.headers = headers
        self.rawBody = rawBody
        self.body = body ?? rawBody
    }
}

/// The response a handler reads as `response` (JetBrains) or `pm.response` (Postman). The preludes read
/// it as flat JSON (`status`, `headers`, `body`, `milliseconds`; `ScriptResponse+Coding`).
public struct ScriptResponse: Sendable, Hashable, ResponseHeadHolder {
    /// Status and headers (name and value pairs in the order the server sent them).
    public var head: ResponseHead
    /// The body decoded as UTF-8; handlers see it parsed when the content type is JSON.
    public var body: String
    /// How long the exchange took, for `pm.response.responseTime`.
    public var milliseconds: Int

    /// A response with this head, as handlers see it.
    public init(head: ResponseHead, body: String = "", milliseconds: Int = 0) {
        self.head = head
        self.body = body
        self.milliseconds = milliseconds
    }

    /// A response as handlers see it.
    public init(status: Int, headers: HTTPHeaders = [], body: String = "", milliseconds: Int = 0) {
        self.init(head: ResponseHead(status: status, headers: headers), body: body, milliseconds: milliseconds)
    }

}

/// Everything one script run reads.
public struct ScriptInput: Sendable {
    public var phase: ScriptPhase
    public var request: ScriptRequest
    public var response: ScriptResponse?
    /// The selected environment's values (`request.environment.get`, `pm.environment.get`).
    public var environment: [String: String]
    /// Values set by earlier scripts of the run or session (`client.global`).
    public var globals: [String: String]
    /// Variables of this request (`request.variables.get`): the request's own definitions and what its
    /// pre-request script set.
    public var requestVariables: [String: String]
    /// Seconds of CPU time the script may use before it is stopped.
    public var timeLimit: Double
    /// This iteration's row of `courier run --data` (`pm.iterationData`, legacy `data`), and its 0-based
    /// number of how many (`pm.info.iteration`, `pm.info.iterationCount`).
    public var iterationData: [String: String] = [:]
    public var iteration = 0
    public var iterationCount = 1
    /// The `.http` file's variables, substituted (Postman's collection variables: `pm.collectionVariables`,
    /// and `pm.variables` beneath the environment), and the environment's name (`pm.environment.name`).
    public var fileVariables: [String: String] = [:]
    public var environmentName = ""
    /// Asked while the script runs: true stops it (the explorer's Ctrl-C), reported as cancelled.
    public var isCancelled: @Sendable () -> Bool
    /// Whose API the script is written against.
    public var dialect: ScriptDialect = .jetBrains
    /// httpyac: every variable the request sees (values as text; JSON objects and arrays become objects),
    /// and named responses' bodies, made globals of the script by name.
    public var scope: [String: String] = [:]
    /// httpyac: the names in `scope` whose value is a JavaScript literal (`@flag = {{false}}`), given to the
    /// script as that value rather than as text.
    public var literalNames: Set<String> = []
    /// httpyac's `httpFile.fileName` and `__dirname`: the `.http` file and its folder.
    public var file = ""
    public var folder = ""
    /// What the script may ask of Courier while it runs (`pm.sendRequest`, dynamic variables in `replaceIn`).
    public var services = ScriptServices()

    /// Input for one script; the default time limit is five seconds.
    public init(phase: ScriptPhase, request: ScriptRequest, response: ScriptResponse? = nil,
                environment: [String: String] = [:], globals: [String: String] = [:],
                requestVariables: [String: String] = [:], timeLimit: Double = ScriptEngine.defaultTimeLimit,
                isCancelled: @escaping @Sendable () -> Bool = { false }) {
        self.phase = phase
        self.request = request
        self.response = response
        self.environment = environment
        self.globals = globals
        self.requestVariables = requestVariables
        self.timeLimit = timeLimit
        self.isCancelled = isCancelled
    }
}
