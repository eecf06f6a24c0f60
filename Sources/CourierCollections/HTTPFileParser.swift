import CourierHTTP

/// Reads the JetBrains / VS Code REST Client `.http` syntax into an `HTTPFile`, recording the line
/// range of every section so that the writer can keep untouched lines byte for byte.
struct HTTPFileParser {
    /// Method tokens recognised on a request line without a guess; any other all-caps token is taken as a
    /// method only when a URL follows it.
    static let knownMethods: Set<String> = [
        "GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE", "CONNECT", webSocketMethod,
        graphQLMethod,
    ]

    let path: String
    let lines: [SourceLine]
    let text: String
    /// Lines of the file before `lines[0]`, when the parser reads one block of a larger file (the outline).
    let lineOffset: Int
    /// Requests of the file before the first one this parser finds, so ordinals stay those of the whole file.
    let ordinalOffset: Int
    var diagnostics: [Diagnostic] = []
    private(set) var fileVariables: [VariableDefinition] = []
    /// `import ./other.http` lines, wherever in the file they stand: they are bound to the whole file.
    private(set) var imports: [FileImport] = []
    var requests: [RequestTemplate] = []
    var layouts: [RequestLayout] = []

    init(path: String, text: String) {
        self.path = path
        self.text = text
        self.lines = SourceLines.split(text)
        self.lineOffset = 0
        self.ordinalOffset = 0
    }

    /// A parser over a window of a file's lines, for reading one block at a time (`HTTPFileOutline`).
    init(path: String, lines: [SourceLine], lineOffset: Int, ordinalOffset: Int) {
        self.path = path
        self.text = ""
        self.lines = lines
        self.lineOffset = lineOffset
        self.ordinalOffset = ordinalOffset
    }

    /// The 1-based line in the whole file of `lines[index]`.
    func fileLine(_ index: Int) -> Int { lineOffset + index + 1 }

    func parse() -> HTTPFile {
        var parser = self
        for (index, block) in parser.blocks().enumerated() {
            parser.parseBlock(block, isFirst: index == 0)
        }
        return HTTPFile(path: path, text: text, requests: parser.requests, fileVariables: parser.fileVariables,
                        diagnostics: parser.diagnostics, layouts: parser.layouts, lines: lines,
                        imports: parser.imports)
    }

    /// Ranges between `###` separator lines; each range after the first starts at its separator.
    private func blocks() -> [Range<Int>] {
        var starts = [0]
        for (index, line) in lines.enumerated() where index > 0 && Self.isSeparator(line) {
            starts.append(index)
        }
        if let first = lines.first, Self.isSeparator(first) { starts[0] = 0 }
        return starts.indices.map { starts[$0]..<(($0 + 1 < starts.count) ? starts[$0 + 1] : lines.count) }
            .filter { !$0.isEmpty }
    }

    static func isSeparator(_ line: SourceLine) -> Bool { line.trimmed.hasPrefix("###") }

    // MARK: - One block

    mutating func parseBlock(_ block: Range<Int>, isFirst: Bool) {
        var index = block.lowerBound
        var separator: Int?
        var separatorName: String?
        if Self.isSeparator(lines[index]) {
            separator = index
            let rest = lines[index].trimmed.drop { $0 == "#" }.trimmingBlanks
            if !rest.isEmpty { separatorName = rest }
            index += 1
        }
        let preludeStart = index
        var name: String?
        var nameLine: Int?
        var tags: [String: String] = [:]
        var tagLines: [Int] = []
        var prompts: [PromptVariable] = []
        var variables: [VariableDefinition] = []
        var variableLines: [Int] = []
        var scripts: [RequestScript] = []
        var requestLineIndex: Int?

        while index < block.upperBound {
            let line = lines[index]
            let trimmed = line.trimmed
            if line.isBlank { index += 1; continue }
            if let comment = Self.commentBody(trimmed) {
                if let (key, value) = Self.tag(comment) {
                    if key == "name" {
                        name = value.isEmpty ? nil : value
                        nameLine = index
                    } else if key == "prompt" {
                        if let prompt = Self.prompt(value) { prompts.append(prompt) } else {
                            report(index, "expected '# @prompt NAME [description]'")
                        }
                    } else {
                        tags[key] = value
                        tagLines.append(index)
                    }
                }
                index += 1
                continue
            }
            if trimmed.hasPrefix("@") {
                if let definition = Self.variable(trimmed, line: fileLine(index)) {
                    variables.append(definition)
                    variableLines.append(index)
                } else {
                    report(index, "expected a variable definition '@name = value'")
                }
                index += 1
                continue
            }
            if Self.isPreRequestStart(trimmed) {
                let (script, end) = script(at: index, phase: .preRequest, limit: block.upperBound)
                scripts.append(script)
                index = end
                continue
            }
            if Self.isHandlerStart(trimmed) && !trimmed.hasPrefix(">>") && !Self.isAssertion(trimmed) {
                // Written above the request line (often right after `###`): still this request's handler,
                // never its request line.
                let (script, end) = script(at: index, phase: .response, limit: block.upperBound)
                scripts.append(script)
                let message = "response handler before the request line; it runs after this request's response"
                diagnostics.append(Diagnostic(file: path, line: fileLine(index), message: message, severity: .warning))
                index = end
                continue
            }
            if let word = Self.compositionDirective(trimmed), word == "import" {
                let path = trimmed.dropFirst(word.count).trimmingBlanks
                if path.isEmpty { report(index, "expected 'import ./other.http'") } else {
                    imports.append(FileImport(path: path, line: fileLine(index)))
                }
                index += 1
                continue
            }
            requestLineIndex = index
            break
        }

        guard let requestStart = requestLineIndex else {
            // A block without a request line only defines variables (VS Code style file variables).
            fileVariables.append(contentsOf: variables)
            return
        }
        if name == nil, let separator, let above = nameAbove(separator: separator) { name = above }
        if isFirst {
            fileVariables.append(contentsOf: variables)
            variables = []
            variableLines = []
        }
        parseRequest(block: block, separator: separator, separatorName: separatorName, preludeStart: preludeStart,
                     requestStart: requestStart, name: name, nameLine: nameLine, tags: tags, tagLines: tagLines,
                     variables: variables, variableLines: variableLines, scripts: scripts, prompts: prompts)
    }

    private mutating func parseRequest(block: Range<Int>, separator: Int?, separatorName: String?, preludeStart: Int,
                                       requestStart: Int, name: String?, nameLine: Int?, tags: [String: String],
                                       tagLines: [Int], variables: [VariableDefinition], variableLines: [Int],
                                       scripts: [RequestScript], prompts: [PromptVariable]) {
        let first = lines[requestStart].trimmed
        let isRunBlock = Self.compositionDirective(first) == "run"
        if isRunBlock || Self.isCurlCommand(first) {
            let prelude = Prelude(separator: separator, separatorName: separatorName, preludeStart: preludeStart,
                                  name: name, nameLine: nameLine, tags: tags, tagLines: tagLines,
                                  variables: variables, variableLines: variableLines, scripts: scripts,
                                  prompts: prompts)
            if isRunBlock {
                parseRunBlock(block: block, requestStart: requestStart, prelude: prelude)
            } else {
                parsePastedCurl(block: block, requestStart: requestStart, prelude: prelude)
            }
            return
        }
        guard let requestLine = Self.requestLine(lines[requestStart].trimmed) else {
            report(requestStart, "expected a request line '[METHOD] URL [HTTP/x.y]'")
            return
        }
        var url = requestLine.url
        var index = requestStart + 1
        while index < block.upperBound, Self.isContinuation(lines[index]) {
            url += lines[index].trimmed
            index += 1
        }
        var version = requestLine.version
        if version == nil, index > requestStart + 1, let split = Self.trailingVersion(url) {
            // `&page=2 HTTP/1.1` on the last continuation line: the version ends the request line there.
            (url, version) = split
        }
        let requestRange = requestStart..<index

        var headers = HTTPHeaders()
        let headerStart = index
        var failed = false
        while index < block.upperBound, !lines[index].isBlank {
            let trimmed = lines[index].trimmed
            if Self.commentBody(trimmed) != nil { index += 1; continue }
            if Self.isHandlerStart(trimmed) { break }
            if let colon = trimmed.firstIndex(of: ":"), colon != trimmed.startIndex {
                let fieldName = trimmed[..<colon].trimmingBlanks
                if fieldName.contains(" ") {
                    report(index, "header name '\(fieldName)' contains a space")
                    failed = true
                }
                headers.add(fieldName, trimmed[trimmed.index(after: colon)...].trimmingBlanks)
            } else {
                report(index, "expected a header 'Name: value' or a blank line before the body")
                failed = true
            }
            index += 1
        }
        let headerRange = headerStart..<index
        let bodyStart = index < block.upperBound && lines[index].isBlank ? index + 1 : index

        // The tail: response handlers (which end the body) and the blank lines before the next `###`.
        var tailStart = block.upperBound
        for candidate in bodyStart..<block.upperBound
        where Self.isHandlerStart(lines[candidate].trimmed) || lines[candidate].trimmed.hasPrefix("<> ") {
            tailStart = candidate
            break
        }
        var bodyEnd = tailStart
        while bodyEnd > bodyStart, lines[bodyEnd - 1].isBlank { bodyEnd -= 1 }
        if bodyStart > bodyEnd { bodyEnd = bodyStart }
        bodyEnd = footerStart(bodyStart: bodyStart, bodyEnd: bodyEnd)
        let tail = tailScripts(in: tailStart..<block.upperBound)
        guard !failed && !tail.failed else { return }

        let kind = Self.kind(method: requestLine.method, headers: headers)
        let bodyLines = lines[bodyStart..<bodyEnd].map(\.content)
        var body = BodyTemplate.none
        var messages: [WebSocketMessage] = []
        if kind == .websocket {
            messages = Self.messages(bodyLines)
        } else {
            body = Self.body(bodyLines)
        }
        if case .encodedFile(_, let encoding) = body, BodyEncoding.encoding(named: encoding) == nil {
            report(bodyStart, "unknown encoding '\(encoding)' in '<@\(encoding)'; known: "
                   + BodyEncoding.knownNames.joined(separator: ", "))
            return
        }
        let ordinal = ordinalOffset + requests.count + 1
        let blockText = SourceLines.join(lines[block])
        requests.append(RequestTemplate(
            id: RequestTemplateID(file: path, ordinal: ordinal), name: name ?? separatorName, kind: kind,
            method: Self.method(of: kind, written: requestLine.method), url: url,
            httpVersion: version, headers: headers, body: body, variables: variables, tags: tags,
            messages: messages, unsupported: tail.kept, prompts: prompts, scripts: scripts + tail.scripts,
            lines: fileLine(block.lowerBound)..<fileLine(block.upperBound), sourceText: blockText))
        layouts.append(RequestLayout(
            block: block, separator: separator, nameFromSeparator: name == nil && separatorName != nil,
            prelude: preludeStart..<requestStart, nameLine: nameLine, variableLines: variableLines,
            tagLines: tagLines, requestLine: requestRange, headers: headerRange, body: bodyStart..<bodyEnd,
            tail: bodyEnd..<block.upperBound))
    }

    // MARK: - Scripts and handlers

    /// The line after the one that closes a `{% … %}` script starting at `start`.
    mutating func scriptEnd(from start: Int, limit: Int) -> Int {
        var index = start
        while index < limit {
            let content = lines[index].content
            let searchFrom = index == start ? (content.range(of: "{%")?.upperBound ?? content.startIndex)
                                            : content.startIndex
            if content[searchFrom...].contains("%}") { return index + 1 }
            index += 1
        }
        report(start, "script '{%' is not closed with '%}'")
        return limit
    }

    mutating func report(_ index: Int, _ message: String) {
        diagnostics.append(Diagnostic(file: path, line: fileLine(index), message: message))
    }
}
