import CourierScript
import Foundation

/// Every failure of CourierCollections, with the context a user needs to fix it.
public enum CollectionError: Error, Sendable, Hashable {
    /// A file could not be read (missing, unreadable, not UTF-8).
    case unreadable(path: String, reason: String)
    /// A malformed line, reported as `file:line: message`.
    case syntax(Diagnostic)
    /// `{{name}}` has no value in any source.
    case unknownVariable(name: String, request: String)
    /// Variables refer to each other in a loop.
    case variableCycle(name: String, request: String)
    /// Variables refer to variables more than `limit` levels deep.
    case variableTooDeep(name: String, request: String, limit: Int)
    /// Expanding the request's variables produced more than `limit` bytes.
    case expansionTooLarge(request: String, limit: Int)
    /// `# @prompt NAME` has no value: `courier run` needs `--var NAME=value`.
    case promptNotAnswered(name: String, request: String, description: String?)
    /// `{{$name …}}` is not a dynamic variable Courier knows, or its arguments are wrong.
    case badDynamicVariable(expression: String, request: String, reason: String)
    /// An environment value names a secret store that could not give it (not installed, locked, no such entry).
    case secretStore(variable: String, request: String, reason: String)
    /// `{{name.response…}}` names a request that has not run yet in this run, or a missing value.
    case responseValueUnavailable(expression: String, request: String, reason: String)
    /// The URL is not valid once variables are substituted.
    case badURL(url: String, request: String)
    /// A request line holds only a path (`POST /login`), with no `Host:` header and no `host` variable.
    case missingHost(url: String, request: String)
    /// A GraphQL request's body is not a query (and optional JSON variables).
    case graphQL(request: String, reason: String)
    /// A `< ./file` body could not be read.
    case bodyFileUnreadable(path: String, request: String)
    /// The collection may not read or write a file, or only with the user's word (`CollectionFileAccess`).
    case fileAccess(FileAccessRefusal)
    /// An environment file is not valid JSON of the expected shape.
    case badEnvironmentFile(path: String, reason: String)
    /// `--env NAME` names an environment no file defines.
    case unknownEnvironment(name: String, available: [String])
    /// An environment's client certificate has a passphrase (`hasCertificatePassphrase`) and none was given.
    case certificatePassphraseMissing(source: String, request: String)
    /// The file changed on disk since it was loaded; saving would overwrite someone else's edit.
    case changedOnDisk(path: String)
    /// Writing the file failed; the original is untouched.
    case writeFailed(path: String, reason: String)
    /// The request to edit is not in the file (it was removed or the file was reloaded).
    case requestNotFound(id: String)
    /// `--name NAME` names no request in the file.
    case unknownRequest(name: String, available: [String])
    /// A curl command or Postman collection could not be converted.
    case importFailed(source: String, reason: String)
    /// A pre-request script threw or ran past its time limit (`file:line: message`).
    case script(ScriptError)
    /// The request asks for something Courier does not do, and sending it without would be a wrong request.
    case unsupported(request: String, reason: String)
    /// An httpyac script exported `$cancel`: the request is not sent (`place` is the script's `file:line`).
    case cancelledByScript(request: String, place: String)
    /// `{{name}}` is unknown, and a script of another request (`setter`: "the response handler of 'login'
    /// (api.http:12)") would have set it; `why` says whether that request ran.
    case scriptVariableUnset(name: String, request: String, setter: String, why: String)
}

extension CollectionError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "\(path): cannot read: \(reason)"
        case .syntax(let diagnostic): diagnostic.description
        case .unknownVariable(let name, let request): "unknown variable '\(name)' in request '\(request)'"
        case .variableCycle(let name, let request): "variable '\(name)' refers to itself in request '\(request)'"
        case .variableTooDeep(let name, let request, let limit):
            "variable '\(name)' in request '\(request)' is reached through more than \(limit) variables; "
                + "shorten the chain"
        case .expansionTooLarge(let request, let limit):
            "the variables of request '\(request)' expand to more than \(limit >> 20) MB; "
                + "a value probably repeats another one at every level"
        case .promptNotAnswered(let name, let request, let description):
            "request '\(request)' asks for '\(name)'" + (description.map { " (\($0))" } ?? "")
                + "; pass --var \(name)=VALUE"
        case .badDynamicVariable(let expression, let request, let reason):
            "bad dynamic variable '{{\(expression)}}' in request '\(request)': \(reason)"
        case .secretStore(let variable, let request, let reason):
            "'{{\(variable)}}' in request '\(request)' is read from a secret store: \(reason)"
        case .responseValueUnavailable(let expression, let request, let reason):
            "'{{\(expression)}}' in request '\(request)': \(reason)"
        case .badURL(let url, let request): "request '\(request)': not a valid URL: \(url)"
        case .missingHost(let url, let request):
            "request '\(request)': '\(url)' names no host: add a 'Host:' header, or define 'host' "
                + "(@host = http://api.example.com, or in the environment)"
        case .graphQL(let request, let reason): "GraphQL request '\(request)': \(reason)"
        case .bodyFileUnreadable(let path, let request): "request '\(request)': cannot read body file \(path)"
        case .fileAccess(let refusal): refusal.message
        case .badEnvironmentFile(let path, let reason): "\(path): \(reason)"
        case .unknownEnvironment(let name, let available):
            "no environment '\(name)'" + (available.isEmpty ? " (no environment files found)"
                                          : "; available: \(available.joined(separator: ", "))")
        case .certificatePassphraseMissing(let source, let request):
            "request '\(request)': the client certificate of \(source) needs its passphrase "
                + "(hasCertificatePassphrase); give it with --pass, or enter it when asked"
        case .changedOnDisk(let path): "\(path) changed on disk since it was loaded; reload before saving"
        case .writeFailed(let path, let reason): "\(path): cannot save: \(reason)"
        case .requestNotFound(let id): "request \(id) is no longer in its file"
        case .unknownRequest(let name, let available): Self.unknownRequestText(name, available)
        case .importFailed(let source, let reason): "cannot import \(source): \(reason)"
        case .script(let error): error.description
        case .unsupported(let request, let reason): "request '\(request)': \(reason)"
        case .cancelledByScript(let request, let place):
            "request '\(request)' not sent: the script at \(place) exported $cancel"
        case .scriptVariableUnset(let name, let request, let setter, let why):
            "unknown variable '\(name)' in request '\(request)': it is set by \(setter), which \(why)"
        }
    }
}

extension CollectionError {
    /// How many names an unknown `--name` lists in full; past that only the closest few are named.
    static let namesListedInFull = 10

    static func unknownRequestText(_ name: String, _ available: [String]) -> String {
        let text = "no request named '\(name)'"
        if available.isEmpty { return text + " (the file has no named requests)" }
        if available.count <= namesListedInFull { return text + "; named requests: \(available.joined(separator: ", "))" }
        let close = NameSuggestions.closest(to: name, in: available)
        let list = close.isEmpty ? "" : "; did you mean \(close.map { "'\($0)'" }.joined(separator: ", "))?"
        return text + list + " (\(available.count) named requests; 'courier check FILE' lists them)"
    }
}

/// A problem found while reading a file, located by line.
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    /// Errors skip the affected request; warnings keep it (e.g. a script Courier does not run).
    public enum Severity: String, Sendable, Hashable { case error, warning }

    public var file: String
    /// 1-based.
    public var line: Int
    public var message: String
    public var severity: Severity

    public init(file: String, line: Int, message: String, severity: Severity = .error) {
        self.file = file
        self.line = line
        self.message = message
        self.severity = severity
    }

    /// `file:line: message`, the shape compilers use so editors can jump to it.
    public var description: String {
        "\(file):\(line): " + (severity == .warning ? "warning: " : "") + message
    }
}
