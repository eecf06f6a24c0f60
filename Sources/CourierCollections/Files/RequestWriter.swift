import CourierHTTP
import CourierMessage

/// Renders requests as `.http` text. An edited request reuses every original line whose section did not
/// change, so comments and formatting inside it survive too.
enum RequestWriter {
    /// The lines of one block after an edit, reusing untouched sections of the original.
    static func render(_ edited: RequestTemplate, original: RequestTemplate, layout: RequestLayout,
                       lines: [SourceLine], eol: String) -> [SourceLine] {
        var out: [SourceLine] = []
        func new(_ content: String) -> SourceLine { SourceLine(content: content, terminator: eol) }
        let nameChanged = edited.name != original.name

        if let separator = layout.separator {
            if nameChanged && layout.nameFromSeparator && edited.name != nil {
                out.append(new("### " + (edited.name ?? "")))
            } else {
                out.append(lines[separator])
            }
        }
        let requestLineChanged = edited.method != original.method || edited.url != original.url
            || edited.httpVersion != original.httpVersion || edited.kind != original.kind
        let headersChanged = edited.headers != original.headers
        let bodyChanged = edited.body != original.body || edited.messages != original.messages
        // A pasted curl command that is edited is written out in the file's own syntax, whole: its options
        // (`-m 5` as `# @timeout 5`) included, since a header line cannot follow a curl command.
        let rewritesCurl = (requestLineChanged || headersChanged || bodyChanged)
            && HTTPFileParser.isCurlCommand(lines[layout.requestLine.lowerBound].trimmed)
        // Prelude: comments stay; the name, tag and variable lines are regenerated only when they changed.
        let variablesChanged = edited.variables != original.variables
        let tagsChanged = edited.tags != original.tags || rewritesCurl
        var nameHandled = !nameChanged || (layout.nameFromSeparator && edited.name != nil)
        var prelude: [SourceLine] = []
        for index in layout.prelude {
            if index == layout.nameLine && nameChanged {
                if let name = edited.name { prelude.append(new("# @name \(name)")) }
                nameHandled = true
                continue
            }
            if variablesChanged && layout.variableLines.contains(index) { continue }
            if tagsChanged && layout.tagLines.contains(index) { continue }
            prelude.append(lines[index])
        }
        if !nameHandled, let name = edited.name { prelude.insert(new("# @name \(name)"), at: 0) }
        if tagsChanged {
            let position = prelude.firstIndex { $0.trimmed.hasPrefix("# @name") }.map { $0 + 1 } ?? 0
            prelude.insert(contentsOf: tagLines(edited.tags).map(new), at: position)
        }
        if variablesChanged {
            var position = prelude.count
            while position > 0, prelude[position - 1].isBlank { position -= 1 }
            prelude.insert(contentsOf: edited.variables.map { new("@\($0.name) = \($0.value)") }, at: position)
        }
        out += prelude

        out += requestLineChanged || rewritesCurl ? [new(requestLine(edited))] : Array(lines[layout.requestLine])
        out += headersChanged || rewritesCurl ? headerLines(edited.headers).map(new) : Array(lines[layout.headers])
        // httpyac's `@name = value` lines among the headers are set after the response, and its `...headers`
        // spreads are not headers: both kept as written.
        if headersChanged || rewritesCurl {
            out += lines[layout.headers].filter {
                HTTPFileParser.responseVariable($0.trimmed, line: 0) != nil
                    || HTTPFileParser.headerSpread($0.trimmed) != nil
            }
        }

        if bodyChanged || rewritesCurl {
            let body = bodyLines(edited)
            if !body.isEmpty { out += [new("")] + body.map(new) }
        } else {
            out += lines[layout.headers.upperBound..<layout.body.upperBound]
        }
        out += lines[layout.tail]
        return fixTerminators(out, lastTerminator: lines[layout.block.upperBound - 1].terminator, eol: eol)
    }

    /// A whole block for a request that has no lines in the file yet.
    static func renderNew(_ request: RequestTemplate, eol: String) -> [SourceLine] {
        var contents = ["###"]
        if let name = request.name { contents.append("# @name \(name)") }
        contents += tagLines(request.tags)
        contents += request.variables.map { "@\($0.name) = \($0.value)" }
        contents.append(requestLine(request))
        contents += headerLines(request.headers)
        let body = bodyLines(request)
        if !body.isEmpty { contents += [""] + body }
        return contents.map { SourceLine(content: $0, terminator: eol) }
    }

    static func requestLine(_ request: RequestTemplate) -> String {
        let method = HTTPFileParser.requestLineMethod(request)
        return [method, request.url, request.httpVersion].compactMap { $0 }.joined(separator: " ")
    }

    static func headerLines(_ headers: HTTPHeaders) -> [String] { headers.map { "\($0.name): \($0.value)" } }

    static func tagLines(_ tags: [String: String]) -> [String] {
        tags.keys.sorted().map { key in tags[key].map { $0.isEmpty ? "# @\(key)" : "# @\(key) \($0)" } ?? "" }
    }

    static func bodyLines(_ request: RequestTemplate) -> [String] {
        if request.kind == .websocket || request.kind == .grpc {
            var result: [String] = []
            for (index, message) in request.messages.enumerated() {
                if message.waitForServer {
                    result.append("=== wait-for-server")
                } else if index > 0 {
                    result.append("===")
                }
                if message.subscribe { result.append("# @subscribe") }
                result += message.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            }
            return result
        }
        switch request.body {
        case .none: return []
        case .text(let text): return text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        case .file, .encodedFile: return request.body.fileReferenceLine.map { [$0] } ?? []
        }
    }

    /// Every line but the last needs a line ending; the last keeps the block's original ending, so a file
    /// without a final newline still has none.
    static func fixTerminators(_ lines: [SourceLine], lastTerminator: String, eol: String) -> [SourceLine] {
        var result = lines
        for index in result.indices {
            if index == result.count - 1 {
                result[index].terminator = lastTerminator
            } else if result[index].terminator.isEmpty {
                result[index].terminator = eol
            }
        }
        return result
    }
}
