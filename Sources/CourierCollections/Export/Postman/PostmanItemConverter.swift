import CourierBody
import CourierHTTP
import CourierMessage
import Foundation

/// One `.http` request as a Postman item: URL, headers (an `Authorization: Basic user password`,
/// `Bearer token` or `OAuth1 …` as Postman auth), body, request variables and scripts. What Postman cannot hold is noted.
struct PostmanItemConverter {
    let file: String
    private(set) var notes: [String] = []

    init(file: String) { self.file = file }

    mutating func item(_ template: RequestTemplate) -> JSONValue? {
        let place = "\(file):\(template.lines.lowerBound + 1)"
        guard template.kind != .websocket, template.runs.isEmpty else {
            let what = template.kind == .websocket ? "WEBSOCKET request" : "run directive"
            notes.append("\(place): \(what) not exported")
            return nil
        }
        for tag in template.tags.keys.sorted() where tag != "name" {
            notes.append("\(place): tag @\(tag) not carried over")
        }
        var request: [(key: String, value: JSONValue)] = [("method", .string(template.method.rawValue))]
        var headers: [JSONValue] = []
        var auth: JSONValue?
        for field in template.headers.fields {
            if field.name.caseInsensitiveEquals("Authorization"), auth == nil, let converted = Self.auth(field.value) {
                auth = converted
                continue
            }
            headers.append(.object([("key", .string(field.name)), ("value", .string(field.value))]))
        }
        request.append(("header", .array(headers)))
        if let auth { request.append(("auth", auth)) }
        if let body = body(template, place: place) { request.append(("body", body)) }
        request.append(("url", .object([("raw", .string(template.url))])))
        var events: [JSONValue] = []
        var preRequest = template.variables.map {
            "pm.variables.set(\(JSONValue.quoted($0.name)), \(JSONValue.quoted($0.value)));"
        }
        var tests: [String] = []
        for script in template.scripts {
            guard case .inline(let source) = script.source else {
                notes.append("\(place): a script file is not carried over (Postman holds scripts inline)")
                continue
            }
            if script.phase == .preRequest { preRequest.append(source) } else { tests.append(source) }
        }
        if template.kind == .graphql { notes.append("\(place): GraphQL request exported as its JSON body") }
        for (listen, code) in [("prerequest", preRequest), ("test", tests)] where !code.isEmpty {
            let lines = code.joined(separator: "\n").split(separator: "\n", omittingEmptySubsequences: false).map {
                JSONValue.string(String($0))
            }
            let script = JSONValue.object([("type", .string("text/javascript")), ("exec", .array(lines))])
            events.append(.object([("listen", .string(listen)), ("script", script)]))
        }
        var item: [(key: String, value: JSONValue)] = [("name", .string(template.displayName))]
        if !events.isEmpty { item.append(("event", .array(events))) }
        item.append(("request", .object(request)))
        return .object(item)
    }

    /// `Basic user password` (the shorthand Courier encodes when sending), `Bearer token` and `OAuth1 …` as
    /// Postman auth.
    static func auth(_ value: String) -> JSONValue? {
        let words = value.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        func pair(_ key: String, _ value: String) -> JSONValue {
            .object([("key", .string(key)), ("value", .string(value)), ("type", .string("string"))])
        }
        if words.count == 3, words[0] == "Basic" {
            let credentials = JSONValue.array([pair("username", words[1]), pair("password", words[2])])
            return .object([("type", .string("basic")), ("basic", credentials)])
        }
        if words.count == 2, words[0] == "Bearer" {
            return .object([("type", .string("bearer")), ("bearer", .array([pair("token", words[1])]))])
        }
        // Courier's `OAuth1 KEY SECRET token:… tokenSecret:…`, which Postman signs the same way.
        if let oauth1 = try? OAuth1Authorization.configuration(value, request: "") {
            var fields = [pair("consumerKey", oauth1.consumerKey), pair("consumerSecret", oauth1.consumerSecret),
                          pair("signatureMethod", oauth1.method.rawValue), pair("version", "1.0")]
            for (key, text) in [("token", oauth1.token), ("tokenSecret", oauth1.tokenSecret), ("realm", oauth1.realm),
                                ("callback", oauth1.callback), ("verifier", oauth1.verifier)] {
                if let text { fields.append(pair(key, text)) }
            }
            fields.append(.object([("key", .string("addParamsToHeader")), ("value", .bool(true)),
                                   ("type", .string("boolean"))]))
            return .object([("type", .string("oauth1")), ("oauth1", .array(fields))])
        }
        return nil
    }

    private mutating func body(_ template: RequestTemplate, place: String) -> JSONValue? {
        switch template.body {
        case .none:
            return nil
        case .text(let text):
            let type = template.headers["Content-Type"]?.lowercased() ?? ""
            let language = ["json", "xml", "html"].first { type.contains($0) } ?? "text"
            if type.hasPrefix("multipart/"), text.contains("\n<") {
                notes.append("\(place): a multipart body's '< file' parts are sent as text by Postman")
            }
            return .object([("mode", .string("raw")), ("raw", .string(text)),
                            ("options", .object([("raw", .object([("language", .string(language))]))]))])
        case .file(let path, let substitute):
            if substitute { notes.append("\(place): '<@' variables in the file are not substituted by Postman") }
            return .object([("mode", .string("file")), ("file", .object([("src", .string(path))]))])
        case .encodedFile(let path, _):
            notes.append("\(place): the file's character encoding is not carried over")
            return .object([("mode", .string("file")), ("file", .object([("src", .string(path))]))])
        }
    }
}
