import CourierBody
import CourierHTTP
import Foundation

/// The last response of each named request in a run, for `{{name.response.body.$.path}}`.
public struct ResponseStore: Sendable {
    /// What is kept of a response: enough to answer body and header lookups.
    public struct Entry: Sendable {
        public var status: Int
        public var headers: HTTPHeaders
        public var body: Data
        public init(status: Int, headers: HTTPHeaders, body: Data) {
            self.status = status
            self.headers = headers
            self.body = body
        }
    }

    private var entries: [String: Entry] = [:]
    /// Named requests that ran in this run and got no response, with why: a lookup then says so.
    private var failures: [String: String] = [:]
    /// Names of the requests the run can reach, so a lookup can tell "not run yet" from "no such request".
    private var declared: Set<String> = []
    /// Names whose responses a check without sending takes as given (`courier check`).
    private var assumed: Set<String> = []

    /// An empty store, for the start of a run.
    public init() {}

    /// Remembers the response of the request called `name`, replacing an earlier one.
    public mutating func record(name: String, response: HTTPResponse) {
        entries[name] = Entry(status: response.status, headers: response.headers,
                              body: (try? response.body.readAll()) ?? Data())
    }

    /// Remembers an already reduced response (tests and the explorer's history use this).
    public mutating func record(name: String, entry: Entry) { entries[name] = entry }

    /// Records that the request called `name` ran and got no response, and why.
    public mutating func recordFailure(name: String, reason: String) {
        if entries[name] == nil { failures[name] = reason }
    }

    /// Takes the responses of `names` as given, answering their lookups with a placeholder: for checking
    /// a file without sending anything.
    public mutating func assumeAnswered(_ names: some Sequence<String>) { assumed.formUnion(names) }

    /// Declares the names of requests that exist in the run (every named request of the files read).
    public mutating func declare(_ names: some Sequence<String>) { declared.formUnion(names) }

    /// The last response of the request called `name` in this run.
    public func entry(_ name: String) -> Entry? { entries[name] }

    /// Answers `name.response.body.<path>` or `name.response.headers.<Header>`; the error text says why not.
    func value(for expression: String) -> Result<String, ResponseLookupFailure> {
        guard let marker = expression.range(of: ".response.") else { return .failure(.init("not a response reference")) }
        let name = String(expression[..<marker.lowerBound])
        let rest = String(expression[marker.upperBound...])
        guard let entry = entries[name] else {
            return assumed.contains(name) ? .success("checked") : .failure(missing(name))
        }
        if rest.hasPrefix("headers.") {
            let header = String(rest.dropFirst("headers.".count))
            guard let value = entry.headers[header] else {
                return .failure(.init("the response of '\(name)' has no header '\(header)'"))
            }
            return .success(value)
        }
        guard rest.hasPrefix("body") else {
            return .failure(.init("expected 'response.body…' or 'response.headers…'"))
        }
        let path = rest.dropFirst("body".count).drop { $0 == "." }
        if path.isEmpty || path == "*" { return .success(String(decoding: entry.body, as: UTF8.self)) }
        // As the REST Client: an XML response is read with XPath (`body.//token`); `$…` is always JSONPath.
        if !path.hasPrefix("$") && XPathQuery.isXML(entry.body, contentType: entry.headers["Content-Type"]) {
            return XPathQuery(String(path)).evaluate(entry.body).mapError { failure in
                ResponseLookupFailure("XPath '\(path)' on the response of '\(name)': \(failure.message)")
            }
        }
        let expression: JSONPath
        do { expression = try JSONPath(String(path)) } catch { return .failure(.init(error.description)) }
        // One streaming pass that builds only the selected values: a token out of a 50 MB response costs
        // no tree of the whole body.
        let matches: [JSONPathMatch]
        do { matches = try expression.evaluate(entry.body, includePaths: false) } catch {
            return .failure(.init("the response of '\(name)' is not JSON"))
        }
        switch matches.count {
        case 0: return .failure(.init("the response of '\(name)' has nothing at path '\(path)'"))
        case 1: return .success(matches[0].value.text)
        // A wildcard, slice or filter that selects several values gives them all, as a JSON array.
        default: return .success(JSONValue.array(matches.map(\.value)).text)
        }
    }
}

extension ResponseStore {
    /// Why `name` has no response: it failed, it has not run yet, or no request has that name.
    func missing(_ name: String) -> ResponseLookupFailure {
        if let reason = failures[name] {
            return .init("request '\(name)' failed earlier in this run (\(reason)), so it has no response to use")
        }
        if !declared.isEmpty && !declared.contains(name) {
            let close = NameSuggestions.closest(to: name, in: declared.sorted())
            return .init("no request is named '\(name)'"
                         + (close.isEmpty ? "" : "; did you mean \(close.map { "'\($0)'" }.joined(separator: ", "))?"))
        }
        return .init("request '\(name)' has not run earlier in this run; run it first "
                     + "(put it above this request, or add --name \(name))")
    }
}

/// Why a response value could not be looked up.
struct ResponseLookupFailure: Error {
    var message: String
    init(_ message: String) { self.message = message }
}
