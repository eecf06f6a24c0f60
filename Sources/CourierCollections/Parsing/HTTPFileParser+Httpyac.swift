import CourierScript

/// Reading rules from httpyac (and kulala.nvim, which shares several): `{{ … }}` script blocks, a request line
/// that starts a new request without `###`, a body right under the headers, and the request-line words of
/// protocols Courier does not speak, refused at their line rather than sent as an HTTP method.
extension HTTPFileParser {
    // MARK: Script blocks

    /// The line opening an httpyac script: `{{` alone, optionally with an event (`{{@response`, `{{@request`,
    /// `{{@after`) and `+` for every request of the file (`{{+`, `{{+response`).
    struct HttpyacScriptStart: Equatable {
        var event: String?
        var everyRequest: Bool
    }

    /// The events httpyac scripts hook into, lower-cased.
    static let httpyacEvents: Set<String> = ["request", "streaming", "response", "after", "responselogging"]

    static func httpyacScriptStart(_ trimmed: String) -> HttpyacScriptStart? {
        guard trimmed.hasPrefix("{{") else { return nil }
        var rest = Substring(trimmed.dropFirst(2))
        if rest.lowercased().hasPrefix("@js"), let blank = rest.dropFirst(3).first, blank == " " || blank == "\t" {
            rest = rest.dropFirst(3).drop { $0 == " " || $0 == "\t" }
        }
        var everyRequest = false
        if let modifier = rest.first, modifier == "+" || modifier == "@" {
            everyRequest = modifier == "+"
            rest = rest.dropFirst()
        }
        let event = rest.trimmingBlanks.lowercased()
        guard event.isEmpty || httpyacEvents.contains(event) else { return nil }
        return HttpyacScriptStart(event: event.isEmpty ? nil : event, everyRequest: everyRequest)
    }

    /// The script whose `{{` line is `start` and the line after its `}}`. Before the request line a script
    /// runs before the request; after it, once the response is in (unless its event says otherwise). nil when
    /// the script is not run (a streaming or logging hook, reported as a warning).
    mutating func httpyacScript(at index: Int, start: HttpyacScriptStart, beforeRequest: Bool, limit: Int)
        -> (RequestScript?, end: Int) {
        var close = index + 1
        while close < limit, lines[close].trimmed != "}}" { close += 1 }
        guard close < limit else {
            report(index, "script '{{' is not closed with a '}}' line")
            return (nil, limit)
        }
        let phase: RequestScript.Phase
        switch start.event {
        case nil: phase = beforeRequest ? .preRequest : .response
        case "request": phase = .preRequest
        case "response", "after": phase = .response
        default:
            let what = start.event == "streaming" ? "streaming connections, which Courier's HTTP requests are not"
                                                  : "how httpyac prints the response"
            diagnostics.append(Diagnostic(file: path, line: fileLine(index), message: "'{{@\(start.event ?? "")' "
                + "scripts are not run: they are about \(what)", severity: .warning))
            return (nil, close + 1)
        }
        let code = lines[(index + 1)..<close].map(\.content).joined(separator: "\n")
        var script = RequestScript(phase: phase, source: .inline(code), line: fileLine(index + 1), dialect: .httpyac)
        if start.everyRequest { script.fileScope = .everyRequest }
        return (script, close + 1)
    }

    // MARK: Where a request ends

    /// Request-line words that start a new request where httpyac reads one (its HTTP methods and the words
    /// of its other protocols), and only in upper case, as its grammar says.
    static let implicitRequestWords: Set<String> = [
        "GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "CONNECT", "TRACE", "PROPFIND", "PROPPATCH",
        "MKCOL", "COPY", "MOVE", "LOCK", "UNLOCK", "CHECKOUT", "CHECKIN", "REPORT", "MERGE", "MKACTIVITY",
        "MKWORKSPACE", "VERSION-CONTROL", "BASELINE-CONTROL", "MKCALENDAR", "ACL", "SEARCH", graphQLMethod,
        webSocketMethod, "WS", "WSS", "GRPC", "SSE", "EVENTSOURCE", "MQTT", "MQTTS", "AMQP",
    ]

    /// `METHOD TARGET [HTTP/x.y]` with a method httpyac knows and a target that is a URL (`http://…`, `/…`,
    /// `{{…}}`): a line that, after a request, starts the next one. Other protocols' words take any target.
    static func isImplicitRequestLine(_ trimmed: String) -> Bool {
        // Most lines (body text, headers) fail here, before any word is split off.
        guard let first = trimmed.utf8.first, first >= UInt8(ascii: "A"), first <= UInt8(ascii: "Z") else {
            return false
        }
        let words = trimmed.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard words.count >= 2, implicitRequestWords.contains(String(words[0])) else { return false }
        if refusedWords[String(words[0])] != nil || words[0] == gRPCMethod { return true }
        guard words.count == 2 || (words.count == 3 && words[2].hasPrefix("HTTP/")) else { return false }
        let target = words[1]
        return ["http://", "https://", "ws://", "wss://", "/", "{{"].contains { target.hasPrefix($0) }
    }

    /// A line that is clearly a request line, not text that merely parses as one: a method and URL httpyac
    /// reads, or a URL with a scheme or variable.
    static func looksLikeRequestLine(_ trimmed: String) -> Bool {
        if isImplicitRequestLine(trimmed) { return true }
        guard compositionDirective(trimmed) == nil, let line = requestLine(trimmed) else { return false }
        return ["http://", "https://", "ws://", "wss://", "{{"].contains { line.url.hasPrefix($0) }
    }

    /// The line where a request that starts at `requestStart` hands over to the next one, as httpyac reads a
    /// block: a request line where a header would be, as the first line of the body, after a blank line in
    /// the body (never inside WebSocket messages) or after the response handlers. The comments, tags and
    /// variables right above it are the next request's; nil when the request runs to `limit`. Never inside a
    /// `multipart/mixed` body before its closing boundary (a batch holds request lines), and never in a file
    /// marked `# @forceRegionDelimiter`, where only `###` separates requests.
    func implicitRequestStart(after requestStart: Int, limit: Int) -> Int? {
        guard !forcesRegionDelimiter else { return nil }
        var openBoundary: String?
        let isWebSocket = Self.requestLine(lines[requestStart].trimmed).map {
            Self.kind(method: $0.method, headers: [:]) == .websocket
        } ?? false
        enum Part { case headers, body, tail }
        var part = Part.headers
        var index = requestStart + 1
        while index < limit, Self.isContinuation(lines[index]) { index += 1 }
        var afterBlank = false
        var bodyText = false
        var sawHeader = false
        while index < limit {
            let line = lines[index]
            let trimmed = line.trimmed
            if line.isBlank {
                if part == .headers { part = .body }
                afterBlank = true
                index += 1
                continue
            }
            defer { afterBlank = false }
            if Self.httpyacScriptStart(trimmed) != nil {
                index = closingLine(from: index, limit: limit) { $0.trimmed == "}}" } + 1
                part = .tail
                continue
            }
            if Self.isHandlerStart(trimmed) || trimmed.hasPrefix("<> ") {
                if trimmed.hasPrefix("> {%") {
                    index = closingLine(from: index, limit: limit) { line in
                        line.content.contains("%}")
                    } + 1
                } else {
                    index += 1
                }
                part = .tail
                continue
            }
            if part == .headers, let boundary = Self.multipartMixedBoundary(trimmed) { openBoundary = boundary }
            if part == .body, let boundary = openBoundary {
                if trimmed.contains("--" + boundary + "--") { openBoundary = nil }
                bodyText = true
                index += 1
                continue
            }
            if Self.isImplicitRequestLine(trimmed) {
                let starts = switch part {
                case .headers, .tail: true
                case .body: !isWebSocket && (afterBlank || !bodyText)
                }
                if starts { return preludeStart(above: index, after: requestStart) }
            }
            if part == .headers, Self.startsBodyWithoutBlankLine(trimmed)
                || Self.startsTokenBody(line, afterHeader: sawHeader) {
                part = .body
            }
            if part == .headers, trimmed.contains(":") { sawHeader = true }
            if part == .body { bodyText = true }
            index += 1
        }
        return nil
    }

    /// The boundary of a `Content-Type: multipart/mixed; boundary=…` header line; nil for any other line.
    static func multipartMixedBoundary(_ trimmed: String) -> String? {
        guard let colon = trimmed.firstIndex(of: ":"),
              trimmed[..<colon].trimmingCharacters(in: .whitespaces).lowercased() == "content-type" else { return nil }
        let value = trimmed[trimmed.index(after: colon)...]
        guard value.lowercased().contains("multipart/mixed") else { return nil }
        for parameter in value.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if pair.count == 2, pair[0].lowercased() == "boundary" {
                let quoted = pair[1].count >= 2 && pair[1].hasPrefix("\"") && pair[1].hasSuffix("\"")
                return quoted ? String(pair[1].dropFirst().dropLast()) : pair[1]
            }
        }
        return nil
    }

    /// The line holding the end of a script that opens at `start` (the opening line itself for a one-line
    /// `> {% … %}`), or the last line before `limit` when it is not closed.
    private func closingLine(from start: Int, limit: Int, isEnd: (SourceLine) -> Bool) -> Int {
        if lines[start].content.contains("%}"), lines[start].trimmed.hasPrefix("> {%") {
            let afterOpen = lines[start].content.range(of: "{%").map { lines[start].content[$0.upperBound...] }
            if afterOpen?.contains("%}") == true { return start }
        }
        var index = start + 1
        while index < limit, !isEnd(lines[index]) { index += 1 }
        return min(index, limit - 1)
    }

    /// The first of the comment, tag and variable lines right above `line` (blank lines between them
    /// allowed): they belong to the request that starts there.
    private func preludeStart(above line: Int, after requestStart: Int) -> Int {
        var start = line
        while start > requestStart + 1 {
            let above = lines[start - 1]
            let trimmed = above.trimmed
            guard above.isBlank || Self.commentBody(trimmed) != nil || Self.variable(trimmed, line: 0) != nil else {
                break
            }
            start -= 1
        }
        while start < line, lines[start].isBlank { start += 1 }
        return start
    }

    /// A body written right under the headers, with no blank line: JSON (`{`, `[`), XML or a file (`<`), a
    /// form (`name=value&…`) or a GraphQL document (`query`, `mutation`, `subscription`, `fragment`). httpyac
    /// and kulala.nvim send these as the body; no header line starts so.
    static func startsBodyWithoutBlankLine(_ trimmed: String) -> Bool {
        guard let first = trimmed.first else { return false }
        // `{{name}}: value` is a header whose name is a variable; `{{payload}}` alone is a body.
        if trimmed.hasPrefix("{{"), let close = trimmed.range(of: "}}") {
            let rest = trimmed[close.upperBound...].drop { $0 != ":" && $0 != " " && $0 != "\t" }
            if rest.trimmingBlanks.hasPrefix(":") { return false }
        }
        if first == "{" || first == "[" { return true }
        if first == "<" { return !trimmed.hasPrefix("<> ") }
        // A form body (`grant_type=client_credentials&client_id=…`): a field name, then `=`, before any colon.
        if first != "?", first != "&", let equals = trimmed.firstIndex(of: "="), equals != trimmed.startIndex,
           !trimmed[..<equals].contains(where: { $0 == ":" || $0 == " " || $0 == "\t" }) { return true }
        for keyword in ["query", "mutation", "subscription", "fragment"] where trimmed.hasPrefix(keyword) {
            let next = trimmed.dropFirst(keyword.count).first
            if next == nil || next == " " || next == "{" || next == "(" { return true }
        }
        return false
    }

    /// httpyac reads any line that cannot be a header as the first line of the body: a single token (a JWT,
    /// base64) at the start of its line, or, after at least one header, a line of words without a colon.
    /// Right under the request line a line of words stays a malformed header (a header written without its
    /// colon, as the other dialects read it); an indented one continues the header above; `@`, `...`, `?`,
    /// `&` and `/` lines mean something else there.
    static func startsTokenBody(_ line: SourceLine, afterHeader: Bool = false) -> Bool {
        let trimmed = line.trimmed
        guard let first = trimmed.first, !continuesHeader(line), !"@.?&/".contains(first),
              !trimmed.contains(":") else { return false }
        return afterHeader || !trimmed.contains(where: { $0 == " " || $0 == "\t" })
    }

    /// httpyac joins a query line (`?page=2`, `&sort=name`, `&{{extra}}`) or a `/path` line to the URL also
    /// among the headers, after other headers; a line with a `*` is a block comment's, not a path.
    static func continuesURLAmongHeaders(_ trimmed: String) -> Bool {
        guard let first = trimmed.first else { return false }
        if first == "/" { return !trimmed.contains("*") && !trimmed.hasPrefix("//") }
        guard first == "?" || first == "&" else { return false }
        let rest = trimmed.dropFirst()
        if rest.hasPrefix("{{") && rest.hasSuffix("}}") { return true }
        guard let equals = rest.firstIndex(of: "="), equals != rest.startIndex else { return false }
        return !rest[..<equals].contains(where: { "(?&)".contains($0) }) && !trimmed.hasPrefix("?? ")
    }

    /// What ends a body: a response handler, a `??` test, an httpyac script, or a `<> ./previous` line.
    static func endsBody(_ trimmed: String) -> Bool {
        isHandlerStart(trimmed) || httpyacScriptStart(trimmed) != nil || trimmed.hasPrefix("<> ")
    }

    // MARK: GraphQL

    /// The name of an httpyac GraphQL fragment starting on this line (`fragment Parts on Repository {`).
    static func graphQLFragmentName(_ trimmed: String) -> String? {
        // Asked of every line: most do not start with the word, and are not split into words.
        guard trimmed.utf8.drop(while: { $0 == 0x20 || $0 == 0x09 }).starts(with: "fragment".utf8) else { return nil }
        let words = trimmed.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard words.count >= 4, words[0] == "fragment", words[2] == "on" else { return nil }
        let name = words[1].prefix { $0 != "(" && $0 != "{" }
        return name.isEmpty ? nil : String(name)
    }

    // MARK: Protocols Courier does not speak

    /// Request-line words of other protocols, with why each is refused; never sent as an HTTP method.
    static let refusedWords: [String: String] = [
        "SSE": "httpyac's server-sent event requests ('SSE …') are not supported; write 'GET URL' with "
            + "'Accept: text/event-stream' to read the stream",
        "EVENTSOURCE": "httpyac's EventSource requests ('EVENTSOURCE …') are not supported; write 'GET URL' with "
            + "'Accept: text/event-stream' to read the stream",
        "MQTT": "MQTT requests are not supported: Courier speaks HTTP and WebSocket",
        "MQTTS": "MQTT requests are not supported: Courier speaks HTTP and WebSocket",
        "AMQP": "AMQP requests are not supported: Courier speaks HTTP and WebSocket",
    ]

    /// URL schemes of the same protocols, written as a request line without a method.
    static let refusedSchemes: [String: String] = [
        "mqtt": "MQTT", "mqtts": "MQTTS", "amqp": "AMQP", "amqps": "AMQP",
    ]

    static let grpcSchemeRefusal = "a gRPC call is written 'GRPC host:port/package.Service/Method' (grpcs:// for TLS)"

    /// The lowercased scheme of an all-ASCII URL (what stands before its first `://`; "" without one), read
    /// over its bytes as `refusal` would read it with Foundation (lowercasing a copy of every URL and searching
    /// it was a tenth of the time a file of plain GETs took to parse); nil for any other URL. The `://` is found
    /// colon by colon: the generic `firstRange(of:)` took as long again as the rest of a request line's parse.
    private static func asciiScheme(of url: String) -> String? {
        let bytes = url.utf8
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        var from = bytes.startIndex
        while let colon = bytes[from...].firstIndex(of: UInt8(ascii: ":")) {
            if bytes[colon...].starts(with: "://".utf8) { return String(url[..<colon]).lowercased() }
            from = bytes.index(after: colon)
        }
        return ""
    }

    /// Why a request line is not sent at all: another protocol's word or scheme.
    static func refusal(of line: RequestLine) -> String? {
        if let why = refusedWords[line.method] { return why }
        if line.method == gRPCMethod { return nil }
        if let scheme = asciiScheme(of: line.url) {
            if scheme == "grpc" || scheme == "grpcs" { return grpcSchemeRefusal }
            return refusedSchemes[scheme].flatMap { refusedWords[$0] }
        }
        if line.url.lowercased().hasPrefix("grpc://") || line.url.lowercased().hasPrefix("grpcs://") {
            return grpcSchemeRefusal
        }
        if let colon = line.url.range(of: "://"),
           let word = refusedSchemes[line.url[..<colon.lowerBound].lowercased()] {
            return refusedWords[word]
        }
        return nil
    }
}

extension HTTPFile {
    /// Why a request-line word of another protocol (`GRPC`, httpyac's `SSE`, `MQTT`, `AMQP`) is not sent as an
    /// HTTP method; nil for any other word.
    public static func refusal(ofMethod word: String) -> String? {
        if word == HTTPFileParser.gRPCMethod {
            return "gRPC is not an HTTP method: call with 'courier grpc call HOST package.Service/Method', or "
                + "write a GRPC request in a .http file for 'courier run'"
        }
        return HTTPFileParser.refusedWords[word]
    }
}
