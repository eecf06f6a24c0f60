import CourierBody
import CourierHTTP
import CourierMessage
import Foundation

/// The last response of each named request in a run, and the request as it was sent, for
/// `{{name.response.body.$.path}}` and the REST Client's `{{name.request.headers.Name}}`.
public struct ResponseStore: Sendable {
    /// What is kept of a response: enough to answer body and header lookups.
    public struct Entry: Sendable {
        public var status: Int
        public var headers: HTTPHeaders
        public var body: Data
        /// The request that got this response, variables substituted: `{{name.request.…}}`.
        public var request: SentRequest?
        /// Where the request went: the default domain and path of the cookies the response set.
        public var url: URL?
        public init(status: Int, headers: HTTPHeaders, body: Data, request: SentRequest? = nil, url: URL? = nil) {
            self.status = status
            self.headers = headers
            self.body = body
            self.request = request
            self.url = url
        }
    }

    /// The headers and body of a request as it went out (after variables and scripts).
    public struct SentRequest: Sendable {
        public var headers: HTTPHeaders
        public var body: Data
        /// The secret values that went into it (private environment values, credentials): a later request
        /// that copies one (`{{login.request.headers.Authorization}}`) keeps it masked.
        public var secrets: Set<String>
        public init(headers: HTTPHeaders, body: Data, secrets: Set<String> = []) {
            self.headers = headers
            self.body = body
            self.secrets = secrets
        }

        /// What `request` sends: its headers and its body's bytes (a file body is read when it fits in
        /// memory, `CollectionFileAccess.inMemoryLimit`; a larger one streamed from disk is not kept).
        public init(_ request: HTTPRequest) {
            let body: Data = switch request.body {
            case .empty: Data()
            case .data(let data): data
            case .file(let url): (try? CollectionFileAccess.contents(of: url)) ?? Data()
            case .parts(let parts): CollectionFileAccess.contents(of: parts) ?? Data()
            }
            self.init(headers: request.headers, body: body,
                      secrets: request.knownSecrets.union(request.headers.secretValues))
        }
    }

    /// Which half of a named exchange a reference reads: `name.response.…` or `name.request.…`.
    enum Part: String, CaseIterable {
        case response, request

        /// `.response.`, `.request.`: what stands between the name and the rest.
        var marker: String { self == .response ? ".response." : ".request." }
    }

    /// `login.response.body.$.token` split into the request's name, the part and the rest; nil for any
    /// other expression.
    static func reference(_ expression: String) -> (name: String, part: Part, rest: String)? {
        // Over the bytes when the expression is ASCII (Foundation's search then finds the same, far slower).
        let ascii = expression.utf8.allSatisfy { $0 < 0x80 }
        for part in Part.allCases {
            let marker = ascii ? expression.utf8.firstRange(of: part.marker.utf8)
                               : expression.range(of: part.marker)
            if let marker {
                return (String(expression[..<marker.lowerBound]), part, String(expression[marker.upperBound...]))
            }
        }
        return nil
    }

    /// Whether `expression` reads an earlier request or response (`login.response.…`, `login.request.…`).
    public static func isReference(_ expression: String) -> Bool { reference(expression) != nil }

    /// httpyac names a response by its request's name: `{{login}}` is the body, `{{login.token}}` and
    /// `{{login.items[0].id}}` JSON fields of it, and `loginResponse` the whole response. The reference those
    /// mean, when `login` names a request the run knows; nil otherwise.
    static func namedResponseReference(_ expression: String, known store: ResponseStore) -> String? {
        let head = String(expression.prefix { $0 != "." && $0 != "[" })
        let rest = expression.dropFirst(head.count)
        if !head.isEmpty, store.knows(head) {
            return rest.isEmpty ? "\(head).response.body.*" : "\(head).response.body.$\(rest)"
        }
        // `{{loginResponse.headers.server}}`, `.body`, `.parsedBody.token`: the whole response, by httpyac's name;
        // `{{response.…}}` the last one of the run.
        let name: String
        if head == "response" {
            guard store.entries[lastName] != nil || store.checking else { return nil }
            name = store.checking ? "response" : lastName
        } else {
            guard let whole = wholeResponseName(head) else { return nil }
            name = whole
        }
        guard store.knows(name) || name == lastName else { return nil }
        if rest == ".statusCode" || rest == ".status" { return "\(name).response.status" }
        if rest.hasPrefix(".headers.") { return "\(name).response\(rest)" }
        if rest == ".body" || rest == ".parsedBody" { return "\(name).response.body.*" }
        if rest.hasPrefix(".parsedBody") { return "\(name).response.body.$\(rest.dropFirst(".parsedBody".count))" }
        return nil
    }

    /// The request whose whole response httpyac's `loginResponse` names (`login`); nil for other names.
    static func wholeResponseName(_ head: String) -> String? {
        let suffix = "Response"
        guard head.hasSuffix(suffix), head.count > suffix.count else { return nil }
        return String(head.dropLast(suffix.count))
    }

    /// Whether `name` names a request of the run: declared, answered, failed or taken as given.
    func knows(_ name: String) -> Bool {
        entries[name] != nil || failures[name] != nil || declared.contains(name) || assumed.contains(name)
    }

    /// The names of the requests that answered, for scripts that read responses by name (httpyac).
    /// httpyac's `$xpath:NAME EXPRESSION` (into the response named NAME) and `$xpath EXPRESSION` (into the
    /// last response), as the `NAME.response.body.EXPRESSION` reference that reads it; nil for other text.
    static func httpyacXPath(_ expression: String) -> String? {
        guard expression.hasPrefix("$xpath") else { return nil }
        var rest = expression.dropFirst("$xpath".count)
        var name = lastName
        if rest.hasPrefix(":") {
            name = String(rest.dropFirst().prefix { $0 != " " && $0 != "\t" })
            rest = rest.dropFirst(name.count + 1)
        }
        let path = rest.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, !path.isEmpty, rest.first == " " || rest.first == "\t" else { return nil }
        return name + ".response.body." + path
    }

    public var answeredNames: [String] { entries.keys.filter { $0 != Self.lastName }.sorted() }

    private var entries: [String: Entry] = [:]
    /// Named requests that ran in this run and got no response, with why: a lookup then says so.
    private var failures: [String: String] = [:]
    /// Names of the requests the run can reach, so a lookup can tell "not run yet" from "no such request".
    private var declared: Set<String> = []
    /// Names whose responses a check without sending takes as given (`courier check`).
    private var assumed: Set<String> = []
    /// Whether this store answers a check without sending: the last response is then taken as given too.
    private var checking = false
    /// The names recorded (answered or failed) since `trackChanges()`, so that `merge` takes only those from a
    /// copy that started with everything another store had; nil when not tracked.
    private var changed: Set<String>?
    /// Whether a person sends the requests one at a time (the explorer): a missing response then says to send
    /// that request, not how `courier run` orders a file.
    public var isInteractive = false

    /// The only names whose responses (and failures) are kept, when a run knows that no request of it reads
    /// any other (`CollectionRunner.responsesRead`); nil keeps every one. A file of 2,000 named GETs that read
    /// none kept every response, its body copied, for the whole run.
    public var keptNames: Set<String>?

    /// An empty store, for the start of a run.
    public init() {}

    /// Whether a response or failure recorded under `name` is kept.
    private func keeps(_ name: String) -> Bool {
        keptNames.map { $0.contains(name) } ?? true
    }

    /// Remembers the response of the request called `name`, replacing an earlier one.
    public mutating func record(name: String, response: HTTPResponse, request: HTTPRequest? = nil) {
        guard keeps(name) else { return }
        changed?.insert(name)
        entries[name] = Entry(status: response.status, headers: response.headers,
                              body: (try? response.body.readAll()) ?? Data(), request: request.map(SentRequest.init),
                              url: request?.url)
    }

    /// Remembers the run's last response, httpyac's `{{response.…}}`.
    public mutating func recordLast(response: HTTPResponse, request: HTTPRequest? = nil) {
        record(name: Self.lastName, response: response, request: request)
    }

    /// The name the last response is kept under: no request can be called so.
    static let lastName = "\u{1}last"

    /// Remembers an already reduced response (tests and the explorer's history use this).
    public mutating func record(name: String, entry: Entry) {
        guard keeps(name) else { return }
        changed?.insert(name)
        entries[name] = entry
    }

    /// Records that the request called `name` ran and got no response, and why.
    public mutating func recordFailure(name: String, reason: String) {
        if entries[name] == nil, keeps(name) {
            changed?.insert(name)
            failures[name] = reason
        }
    }

    /// Starts noting which names are recorded from now on: a request run in parallel gets a copy of the run's
    /// store, and only what it added goes back (`merge`), not the whole store again for every request.
    public mutating func trackChanges() { changed = [] }

    /// Takes what `other` knows (responses, failures, declared names) over this store's: how requests run in
    /// parallel (`courier run --jobs`) hand their responses to the ones that wait for them.
    public mutating func merge(_ other: ResponseStore) {
        if let changed = other.changed {
            for name in changed {
                if let entry = other.entries[name] {
                    entries[name] = entry
                    failures[name] = nil
                } else if let reason = other.failures[name], entries[name] == nil {
                    failures[name] = reason
                }
            }
        } else {
            entries.merge(other.entries) { _, new in new }
            for name in other.entries.keys { failures[name] = nil }
            for (name, reason) in other.failures where entries[name] == nil { failures[name] = reason }
        }
        // Most often the very same sets (a copy of this store's): comparing them is then one identity check,
        // where a union hashed every name of the file again for each request `--jobs` ran.
        if other.declared != declared { declared.formUnion(other.declared) }
        if other.assumed != assumed { assumed.formUnion(other.assumed) }
    }

    /// Takes the responses of `names` as given, answering their lookups with a placeholder: for checking
    /// a file without sending anything.
    public mutating func assumeAnswered(_ names: some Sequence<String>) {
        assumed.formUnion(names)
        checking = true
        assumed.insert("response")
    }

    /// Declares the names of requests that exist in the run (every named request of the files read).
    public mutating func declare(_ names: some Sequence<String>) { declared.formUnion(names) }

    /// The last response of the request called `name` in this run.
    public func entry(_ name: String) -> Entry? { entries[name] }

    /// The secrets of the request `expression` reads (`login.request.…`) that are in `value`, the text it gave.
    func secrets(readBy expression: String, in value: String) -> Set<String> {
        guard let (name, part, rest) = Self.reference(expression) else { return [] }
        // A cookie's value is a secret wherever it goes, as in the jar.
        if part == .response, rest.hasPrefix(Self.cookiesPrefix), let entry = entries[name] {
            return Set(Self.cookies(of: entry).map(\.value).filter { !$0.isEmpty && value.contains($0) })
        }
        guard part == .request, let sent = entries[name]?.request else { return [] }
        return sent.secrets.filter { !$0.isEmpty && value.contains($0) }
    }

    /// Answers `name.response.body.<path>`, `name.response.headers.<Header>` and the same of `name.request`;
    /// the error text says why not.
    func value(for expression: String) -> Result<String, ResponseLookupFailure> {
        guard let (name, part, rest) = Self.reference(expression) else {
            return .failure(.init("not a response reference"))
        }
        guard let entry = entries[name] else {
            return assumed.contains(name) ? .success("checked") : .failure(missing(name))
        }
        let headers: HTTPHeaders
        let body: Data
        switch part {
        case .response: (headers, body) = (entry.headers, entry.body)
        case .request:
            guard let request = entry.request else {
                return .failure(.init("the request '\(name)' sent is not known (only its response was kept)"))
            }
            (headers, body) = (request.headers, request.body)
        }
        let whose = name == Self.lastName ? "the last response" : "the \(part.rawValue) of '\(name)'"
        if rest == "status" { return .success(String(entry.status)) }
        if part == .response, rest.hasPrefix(Self.cookiesPrefix) {
            return Self.cookieValue(String(rest.dropFirst(Self.cookiesPrefix.count)), of: entry, whose: whose)
        }
        if rest.hasPrefix("headers.") || rest.hasPrefix("headers[") {
            // kulala.nvim also writes `headers['Content-Type']`.
            var (header, position) = Self.valuePosition(String(rest.dropFirst("headers".count)))
            if header.hasPrefix(".") { header.removeFirst() } else {
                header = header.trimmingCharacters(in: CharacterSet(charactersIn: "[]'\""))
            }
            let values = headers.values(for: header)
            guard let first = values.first else { return .failure(.init("\(whose) has no header '\(header)'")) }
            guard let position else { return .success(first) }
            guard values.indices.contains(position - 1) else {
                return .failure(.init("\(whose) has \(values.count) '\(header)' header(s); kulala counts them from 1, "
                                      + "so [\(position)] names none"))
            }
            return .success(values[position - 1])
        }
        guard rest.hasPrefix("body") else {
            return .failure(.init("expected '\(part.rawValue).body…', '\(part.rawValue).headers…'"
                                  + (part == .response ? " or 'response.cookies…'" : "")))
        }
        let path = rest.dropFirst("body".count).drop { $0 == "." }
        if path.isEmpty || path == "*" { return .success(String(decoding: body, as: UTF8.self)) }
        // As the REST Client: an XML body is read with XPath (`body.//token`); `$…` is always JSONPath.
        if !path.hasPrefix("$") && XPathQuery.isXML(body, contentType: headers["Content-Type"]) {
            return XPathQuery(String(path)).evaluate(body).mapError { failure in
                ResponseLookupFailure("XPath '\(path)' on \(whose): \(failure.message)")
            }
        }
        let expression: JSONPath
        do { expression = try JSONPath(String(path)) } catch { return .failure(.init(error.description)) }
        // One streaming pass that builds only the selected values: a token out of a 50 MB response costs
        // no tree of the whole body.
        let matches: [JSONPathMatch]
        do { matches = try expression.evaluate(body, includePaths: false) } catch {
            return .failure(.init("\(whose) is not JSON"))
        }
        switch matches.count {
        case 0: return .failure(.init("\(whose) has nothing at path '\(path)'"))
        case 1: return .success(matches[0].value.text)
        // A wildcard, slice or filter that selects several values gives them all, as a JSON array.
        default: return .success(JSONValue.array(matches.map(\.value)).text)
        }
    }
}

extension ResponseStore {
    /// Why `name` has no response: it failed, it has not run yet, or no request has that name.
    /// kulala.nvim's `headers.Name[N]`: the header and which of its values, counted from 1 as kulala (Lua)
    /// counts; no position for a reference without a trailing number in brackets.
    static func valuePosition(_ header: String) -> (String, Int?) {
        guard header.hasSuffix("]"), let open = header.lastIndex(of: "["),
              let position = Int(header[header.index(after: open)..<header.index(before: header.endIndex)]),
              open != header.startIndex else { return (header, nil) }
        return (String(header[..<open]), position)
    }

    func missing(_ name: String) -> ResponseLookupFailure {
        if let reason = failures[name] {
            let when = isInteractive ? "when it was last sent" : "earlier in this run"
            return .init("request '\(name)' failed \(when) (\(reason)), so it has no response to use")
        }
        if !declared.isEmpty && !declared.contains(name) {
            let close = NameSuggestions.closest(to: name, in: declared.sorted())
            return .init("no request is named '\(name)'"
                         + (close.isEmpty ? "" : "; did you mean \(close.map { "'\($0)'" }.joined(separator: ", "))?"))
        }
        if isInteractive {
            return .init("request '\(name)' has not been sent yet: send it first, then this one reads its response")
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
