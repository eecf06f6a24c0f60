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
    /// `{{$name …}}` is not a dynamic variable Courier knows, or its arguments are wrong.
    case badDynamicVariable(expression: String, request: String, reason: String)
    /// `{{name.response…}}` names a request that has not run yet in this run, or a missing value.
    case responseValueUnavailable(expression: String, request: String, reason: String)
    /// The URL is not valid once variables are substituted.
    case badURL(url: String, request: String)
    /// A `< ./file` body could not be read.
    case bodyFileUnreadable(path: String, request: String)
    /// An environment file is not valid JSON of the expected shape.
    case badEnvironmentFile(path: String, reason: String)
    /// `--env NAME` names an environment no file defines.
    case unknownEnvironment(name: String, available: [String])
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
        case .badDynamicVariable(let expression, let request, let reason):
            "bad dynamic variable '{{\(expression)}}' in request '\(request)': \(reason)"
        case .responseValueUnavailable(let expression, let request, let reason):
            "'{{\(expression)}}' in request '\(request)': \(reason)"
        case .badURL(let url, let request): "request '\(request)': not a valid URL: \(url)"
        case .bodyFileUnreadable(let path, let request): "request '\(request)': cannot read body file \(path)"
        case .badEnvironmentFile(let path, let reason): "\(path): \(reason)"
        case .unknownEnvironment(let name, let available):
            "no environment '\(name)'" + (available.isEmpty ? " (no environment files found)"
                                          : "; available: \(available.joined(separator: ", "))")
        case .changedOnDisk(let path): "\(path) changed on disk since it was loaded; reload before saving"
        case .writeFailed(let path, let reason): "\(path): cannot save: \(reason)"
        case .requestNotFound(let id): "request \(id) is no longer in its file"
        case .unknownRequest(let name, let available):
            "no request named '\(name)'" + (available.isEmpty ? " (the file has no named requests)"
                                             : "; named requests: \(available.joined(separator: ", "))")
        case .importFailed(let source, let reason): "cannot import \(source): \(reason)"
        case .script(let error): error.description
        case .scriptVariableUnset(let name, let request, let setter, let why):
            "unknown variable '\(name)' in request '\(request)': it is set by \(setter), which \(why)"
        }
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
