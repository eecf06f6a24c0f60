import CourierMessage
import Foundation

/// One `client.test` or `pm.test`: its name, whether it passed and, when it failed, the assertion's message.
public struct ScriptTestResult: Sendable, Hashable, Codable {
    public var name: String
    public var passed: Bool
    public var message: String
    public init(name: String, passed: Bool, message: String = "") {
        self.name = name
        self.passed = passed
        self.message = message
    }
}

/// A script that could not finish: its JavaScript message and the line of the file it was on.
public struct ScriptError: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    /// Why it stopped.
    public enum Reason: Sendable, Hashable, Codable {
        /// The JavaScript threw (a TypeError, a failed `client.assert` outside a test, …).
        case exception
        /// It ran past its time limit (seconds) and was stopped.
        case timeLimit(Double)
        /// Its caller gave up on it (the request was cancelled) and it was stopped.
        case cancelled
        /// It called a `pm` function Courier does not provide.
        case unsupported
    }

    public var reason: Reason
    public var message: String
    public var file: String
    public var line: Int

    public init(reason: Reason, message: String, file: String, line: Int) {
        self.reason = reason
        self.message = message
        self.file = file
        self.line = line
    }

    public var description: String { "\(file):\(line): \(message)" }
}

/// What a script did: the variables it set, its tests and its log lines, and how the request changed.
public struct ScriptResult: Sendable, Equatable, Codable {
    /// The run's globals after the script (`client.global`, `pm.environment.set` …).
    public var globals: [String: String]
    /// The request's variables after the script (`request.variables.set`).
    public var requestVariables: [String: String]
    public var tests: [ScriptTestResult]
    /// `client.log` and `console.log` lines, in order.
    public var logs: [String]
    /// Headers after a pre-request script changed them (`pm.request.headers.add`); nil when unchanged.
    public var headers: HTTPHeaders?
    /// The URL, method and body after an httpyac pre-request script changed `request.url`, `.method` or
    /// `.body`; nil when unchanged.
    public var url: String?
    public var method: String?
    public var body: String?
    /// An httpyac script exported `$cancel`: the request is not sent.
    public var cancelled = false
    /// Set when the script stopped on an error; what it did before that is kept.
    public var error: ScriptError?
    /// What `postman.setNextRequest` asked for, when it was called.
    public var nextRequest: NextRequest?

    public init(globals: [String: String] = [:], requestVariables: [String: String] = [:],
                tests: [ScriptTestResult] = [], logs: [String] = [], headers: HTTPHeaders? = nil,
                error: ScriptError? = nil) {
        self.globals = globals
        self.requestVariables = requestVariables
        self.tests = tests
        self.logs = logs
        self.headers = headers
        self.error = error
    }
}

/// The request Postman's `postman.setNextRequest(name)` (or `pm.execution.setNextRequest`) asks to run next.
public enum NextRequest: Sendable, Hashable, Codable {
    /// Run the request of that name next, wherever it is in the file.
    case named(String)
    /// `setNextRequest(null)`: stop the run after this request.
    case stop

    /// From the prelude's `{"name": …}` / `{"stop": true}`; nil for `null`.
    init?(json: String) {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any] else {
            return nil
        }
        if let name = object["name"] as? String { self = .named(name) } else { self = .stop }
    }
}
