import Foundation

/// Recognisers for single lines, kept pure so that the fuzzer and the tests can reach them directly.
extension HTTPFileParser {
    struct RequestLine: Equatable {
        var method: String
        var url: String
        var version: String?
    }

    /// The text of a `#` or `//` comment line, or nil when the line is not a comment.
    static func commentBody(_ trimmed: String) -> String? {
        if trimmed.hasPrefix("//") { return String(trimmed.dropFirst(2)) }
        if trimmed.hasPrefix("#") && !trimmed.hasPrefix("###") { return String(trimmed.drop { $0 == "#" }) }
        return nil
    }

    /// The title written on a `###` separator line, or nil: `### Find one` and the boxed `### Find one ###`
    /// are both titled `Find one` (a `#` that ends a word, as in `C#`, stays).
    static func separatorTitle(_ trimmed: String) -> String? {
        var title = trimmed.drop { $0 == "#" }.trimmingBlanks
        let unboxed = title.reversed().drop { $0 == "#" }
        if unboxed.count < title.count, let last = unboxed.first, last == " " || last == "\t" {
            title = String(unboxed.reversed()).trimmingBlanks
        }
        return title.isEmpty ? nil : title
    }

    /// `@key value` or `@key = value` inside a comment.
    static func tag(_ comment: String) -> (String, String)? {
        let body = comment.trimmingBlanks
        guard body.hasPrefix("@") else { return nil }
        let rest = body.dropFirst()
        let key = rest.prefix { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
        guard !key.isEmpty else { return nil }
        var value = rest.dropFirst(key.count).trimmingBlanks
        if value.hasPrefix("=") { value = value.dropFirst().trimmingBlanks }
        return (String(key), value)
    }

    /// `@name = value`; nil when the line starts with `@` but is not a definition.
    static func variable(_ trimmed: String, line: Int) -> VariableDefinition? {
        guard trimmed.hasPrefix("@") else { return nil }
        if let equals = trimmed.firstIndex(of: "=") {
            var name = trimmed[trimmed.index(after: trimmed.startIndex)..<equals].trimmingBlanks
            // httpyac's `@name := value` is evaluated when used, as every Courier variable is.
            let isLazy = name.hasSuffix(":")
            if isLazy { name = String(name.dropLast()).trimmingBlanks }
            if !name.isEmpty, name.allSatisfy(isVariableNameCharacter) {
                let value = trimmed[trimmed.index(after: equals)...].trimmingBlanks
                var definition = VariableDefinition(name: name, value: value, line: line)
                definition.isLazy = isLazy
                return definition
            }
        }
        // httpyac also reads `@name value`, without `=`.
        let body = trimmed.dropFirst()
        guard let blank = body.firstIndex(where: { $0 == " " || $0 == "\t" }) else { return nil }
        let name = String(body[..<blank])
        let value = body[blank...].trimmingBlanks
        guard !name.isEmpty, name.allSatisfy(isVariableNameCharacter), !value.isEmpty else { return nil }
        return VariableDefinition(name: name, value: value, line: line)
    }

    static func isVariableNameCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_" || character == "-" || character == "."
    }

    /// `[METHOD] URL [HTTP/x.y]`; the method defaults to GET.
    static func requestLine(_ trimmed: String) -> RequestLine? {
        var line = trimmed
        // JetBrains' `HTTP/2 (Prior Knowledge)`: read as the version it qualifies.
        if line.hasSuffix(" (Prior Knowledge)") { line = String(line.dropLast(" (Prior Knowledge)".count)) }
        var tokens = words(line)
        guard !tokens.isEmpty else { return nil }
        var method = "GET"
        let first = tokens[0]
        // An HTTP method is a token; one in capitals (`PURGE`, `VERSION-CONTROL`) is taken when a URL follows
        // (looked at only when the token is not a known method: its character checks were most of the line's cost).
        if knownMethods.contains(first)
            || (tokens.count >= 2 && first.first.map { $0.isASCII && $0.isUppercase } == true
                && first.allSatisfy { ($0.isASCII && ($0.isUppercase || $0.isNumber)) || $0 == "-" || $0 == "_" }) {
            method = first
            tokens.removeFirst()
        } else if tokens.count >= 2, knownMethods.contains(first.uppercased()) {
            // `post http://…`: the tools accept a known method in lower case.
            method = first.uppercased()
            tokens.removeFirst()
        }
        var version: String?
        if tokens.count >= 2, let last = tokens.last, last.hasPrefix("HTTP/") {
            version = last
            tokens.removeLast()
        }
        let url = tokens.joined(separator: " ")
        guard !url.isEmpty else { return nil }
        return RequestLine(method: method, url: url, version: version)
    }

    /// A URL ending in ` HTTP/x.y` split into the URL and the version; nil when it does not end so.
    static func trailingVersion(_ url: String) -> (url: String, version: String)? {
        guard let space = url.lastIndex(where: { $0 == " " || $0 == "\t" }) else { return nil }
        let last = url[url.index(after: space)...]
        guard last.hasPrefix("HTTP/") else { return nil }
        return (url[..<space].trimmingBlanks, String(last))
    }

    /// An indented line or one starting with `?` or `&` continues the URL; so does a `/path` line (httpyac
    /// joins one to the URL; a `/*` line opens a block comment).
    static func isContinuation(_ line: SourceLine) -> Bool {
        guard !line.isBlank else { return false }
        let trimmed = line.trimmed
        if commentBody(trimmed) != nil { return false }
        guard !isAssertion(trimmed) else { return false }
        return line.content.first == " " || line.content.first == "\t" || trimmed.hasPrefix("?")
            || trimmed.hasPrefix("&") || (trimmed.hasPrefix("/") && !trimmed.contains("*"))
    }

    /// An indented line under a header continues its value (the JetBrains grammar's `new-line-with-indent`),
    /// joined with one space as HTTP joins a folded header line.
    static func continuesHeader(_ line: SourceLine) -> Bool {
        line.content.first == " " || line.content.first == "\t"
    }

    /// httpyac's `?? status == 200`: a test line after the request, never a URL continuation.
    static func isAssertion(_ trimmed: String) -> Bool { trimmed.hasPrefix("?? ") }

    /// `> {% … %}`, `> ./handler.js`, `>> file`, `>>! file` and `?? …` tests: what follows a body and is not
    /// part of it.
    static func isHandlerStart(_ trimmed: String) -> Bool {
        if trimmed.hasPrefix("> {%") || trimmed.hasPrefix(">> ") || trimmed.hasPrefix(">>! ") { return true }
        if isAssertion(trimmed) { return true }
        guard trimmed.hasPrefix("> ") else { return false }
        let target = trimmed.dropFirst(2).trimmingBlanks
        return target.hasPrefix("./") || target.hasPrefix("../") || target.hasSuffix(".js") || target.hasSuffix(".lua")
    }

    /// The body lines as a template: one `< ./file` line (or `<@ ./file`, `<@latin1 ./file`) is a file body;
    /// anything else is text.
    static func body(_ lines: [String]) -> BodyTemplate {
        guard !lines.isEmpty else { return .none }
        if lines.count == 1, let file = BodyTemplate.fileReference(lines[0].trimmingBlanks) { return file }
        return .text(lines.joined(separator: "\n"))
    }

    /// WebSocket messages: blocks separated by `===` lines; `# @subscribe` first marks a subscription,
    /// and `=== wait-for-server` makes the next message wait for the server.
    static func messages(_ lines: [String]) -> [WebSocketMessage] {
        var messages: [WebSocketMessage] = []
        var current: [String] = []
        var waitForServer = false
        func flush() {
            var chunk = current
            current = []
            while let first = chunk.first, first.trimmingBlanks.isEmpty { chunk.removeFirst() }
            while let last = chunk.last, last.trimmingBlanks.isEmpty { chunk.removeLast() }
            var subscribe = false
            if let first = chunk.first, let comment = commentBody(first.trimmingBlanks),
               comment.trimmingBlanks == "@subscribe" {
                subscribe = true
                chunk.removeFirst()
            }
            guard !chunk.isEmpty else { return }
            messages.append(WebSocketMessage(text: chunk.joined(separator: "\n"), subscribe: subscribe,
                                             waitForServer: waitForServer))
            waitForServer = false
        }
        for line in lines {
            let trimmed = line.trimmingBlanks
            if trimmed.hasPrefix("===") {
                flush()
                if trimmed.dropFirst(3).trimmingBlanks == "wait-for-server" {
                    waitForServer = true
                }
                continue
            }
            current.append(line)
        }
        flush()
        return messages
    }
}
