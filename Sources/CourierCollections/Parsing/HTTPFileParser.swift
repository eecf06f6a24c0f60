import CourierHTTP
import CourierMessage

/// Reads the JetBrains / VS Code REST Client `.http` syntax into an `HTTPFile`, recording the line
/// range of every section so that the writer can keep untouched lines byte for byte.
struct HTTPFileParser {
    /// Method tokens recognised on a request line without a guess; any other all-caps token is taken as a
    /// method only when a URL follows it.
    static let knownMethods: Set<String> = [
        "GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE", "CONNECT", webSocketMethod,
        graphQLMethod, "WS", "WSS",
    ]

    let path: String
    let lines: [SourceLine]
    let text: String
    /// Lines of the file before `lines[0]`, when the parser reads one block of a larger file (the outline).
    let lineOffset: Int
    /// Requests of the file before the first one this parser finds, so ordinals stay those of the whole file.
    let ordinalOffset: Int
    /// httpyac's `# @forceRegionDelimiter` stands in the file: only `###` starts another request.
    var forcesRegionDelimiter = false
    var diagnostics: [Diagnostic] = []
    private(set) var fileVariables: [VariableDefinition] = []
    /// `import ./other.http` lines, wherever in the file they stand: they are bound to the whole file.
    private(set) var imports: [FileImport] = []
    /// httpyac's file-wide scripts, in file order.
    var fileScripts: [RequestScript] = []
    /// httpyac's GraphQL fragments, by name.
    var graphQLFragments: [String: String] = [:]
    /// httpyac's named blocks without a request line: their variables, for the requests that `# @ref` them.
    var variableRegions: [String: [VariableDefinition]] = [:]
    var requests: [RequestTemplate] = []
    var layouts: [RequestLayout] = []
    /// Whether plain blocks are read over their bytes (`parsePlainBlock`); off only to compare the two readers.
    var readsPlainBlocks = true

    init(path: String, text: String) {
        self.path = path
        self.text = text
        self.lines = SourceLines.split(text)
        self.lineOffset = 0
        self.ordinalOffset = 0
        self.forcesRegionDelimiter = Self.holds(Self.forceRegionDelimiterTag, in: text)
    }

    /// The httpyac tag that makes `###` the only separator of requests in its file.
    static let forceRegionDelimiterTag = "@forceRegionDelimiter"

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
        let blocks = parser.blocks()
        // Most blocks hold one request: grown one by one, the two lists were copied over and over.
        parser.requests.reserveCapacity(blocks.count)
        parser.layouts.reserveCapacity(blocks.count)
        for (index, block) in blocks.enumerated()
        where !(parser.readsPlainBlocks && parser.parsePlainBlock(block)) {
            parser.parseBlock(block, isFirst: index == 0)
        }
        parser.applyKulalaSharedBlock()
        parser.applyVariableRegions()
        let fileVariables = parser.fileVariables
        let filePrompts = fileVariables.compactMap(HttpyacInput.prompt(definedBy:))
        for index in parser.requests.indices {
            HttpyacInput.addPrompts(to: &parser.requests[index], fileVariables: fileVariables, filePrompts: filePrompts)
        }
        return HTTPFile(path: path, text: text, requests: parser.requests, fileVariables: parser.fileVariables,
                        diagnostics: parser.diagnostics, layouts: parser.layouts, lines: lines,
                        imports: parser.imports, fileScripts: parser.fileScripts,
                        graphQLFragments: parser.graphQLFragments)
    }

    static func isSeparator(_ line: SourceLine) -> Bool {
        line.firstNonBlankByte == UInt8(ascii: "#") && line.trimmed.hasPrefix("###")
    }

    // MARK: - One block

    /// Parses the block between two `###` lines. httpyac also starts a new request at a request line after
    /// a request's headers, body or handlers, so a block may hold several requests: each is parsed as a
    /// section of its own, its prelude starting after what the previous one holds.
    mutating func parseBlock(_ block: Range<Int>, isFirst: Bool) {
        var start = block.lowerBound
        var separator: Int?
        var separatorName: String?
        if Self.isSeparator(lines[start]) {
            separator = start
            separatorName = Self.separatorTitle(lines[start].trimmed)
        }
        var first = isFirst
        while start < block.upperBound {
            let next = parseSection(start..<block.upperBound, separator: separator, separatorName: separatorName,
                                    isFirst: first)
            guard let next, next > start else { return }
            (start, separator, separatorName, first) = (next, nil, nil, false)
        }
    }

    /// One request (or a block of variables and file-wide scripts) starting at `section.lowerBound`; the
    /// line where the next request of the block begins, when httpyac's rule starts one without `###`.
    private mutating func parseSection(_ section: Range<Int>, separator: Int?, separatorName: String?,
                                       isFirst: Bool) -> Int? {
        var index = section.lowerBound + (separator == nil ? 0 : 1)
        let preludeStart = index
        var prelude = Prelude(separator: separator, separatorName: separatorName, preludeStart: preludeStart,
                              name: nil, nameLine: nil, tags: [:], tagLines: [], variables: [], variableLines: [],
                              scripts: [], prompts: [])
        var requestLineIndex: Int?
        var failed = false
        var firstRun: Int?
        var runsBefore: [RunDirective] = []

        while index < section.upperBound {
            let line = lines[index]
            let trimmed = line.trimmed
            if line.isBlank { index += 1; continue }
            if let comment = Self.commentBody(trimmed) {
                if let (key, value) = Self.tag(comment) {
                    failed = !readTag(key, value, at: index, into: &prelude) || failed
                }
                index += 1
                continue
            }
            if trimmed.hasPrefix("@") {
                if let definition = Self.variable(trimmed, line: fileLine(index)) {
                    prelude.variables.append(definition)
                    prelude.variableLines.append(index)
                } else {
                    report(index, "expected a variable definition '@name = value'")
                }
                index += 1
                continue
            }
            if trimmed.hasPrefix("/*") {
                // httpyac's block comment, over as many lines as it takes.
                var end = index
                while end < section.upperBound {
                    let content = end == index ? String(trimmed.dropFirst(2)) : lines[end].content
                    end += 1
                    if content.contains("*/") { break }
                }
                index = end
                continue
            }
            if trimmed.hasPrefix("proto <") || trimmed.hasPrefix("proto<") {
                diagnostics.append(Diagnostic(file: path, line: fileLine(index), message: "httpyac's 'proto < …' "
                    + "loads a gRPC schema; gRPC is not supported, so it is ignored", severity: .warning))
                index += 1
                continue
            }
            if let name = Self.graphQLFragmentName(trimmed) {
                // httpyac: a fragment runs to the next blank line and is sent with the queries that use it.
                var end = index + 1
                while end < section.upperBound, !lines[end].isBlank { end += 1 }
                graphQLFragments[name] = lines[index..<end].map(\.content).joined(separator: "\n")
                index = end
                continue
            }
            if let start = Self.httpyacScriptStart(trimmed) {
                let (script, end) = httpyacScript(at: index, start: start, beforeRequest: true,
                                                  limit: section.upperBound)
                if let script { prelude.scripts.append(script) }
                index = end
                continue
            }
            if Self.isPreRequestStart(trimmed) {
                let (script, end) = script(at: index, phase: .preRequest, limit: section.upperBound)
                prelude.scripts.append(script)
                index = end
                continue
            }
            if Self.isHandlerStart(trimmed) && !trimmed.hasPrefix(">>") && !Self.isAssertion(trimmed) {
                // Written above the request line (often right after `###`): still this request's handler,
                // never its request line.
                let (script, end) = script(at: index, phase: .response, limit: section.upperBound)
                prelude.scripts.append(script)
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
            if Self.compositionDirective(trimmed) == "run",
               let directive = RunDirective.parse(trimmed, line: fileLine(index)) {
                // kulala.nvim: `run #name` lines above a request line run before it; alone, they are a run block.
                if firstRun == nil { firstRun = index }
                runsBefore.append(directive)
                index += 1
                continue
            }
            requestLineIndex = index
            break
        }
        if let firstRun {
            if let start = requestLineIndex, Self.looksLikeRequestLine(lines[start].trimmed) {
                prelude.runsBefore = runsBefore
            } else {
                requestLineIndex = firstRun
            }
        }

        guard let requestStart = requestLineIndex else {
            // A block without a request line only defines variables (VS Code style file variables) and, in
            // httpyac, scripts for the whole file.
            fileVariables.append(contentsOf: prelude.variables)
            if let name = prelude.name ?? separatorName { variableRegions[name] = prelude.variables }
            fileScripts.append(contentsOf: prelude.scripts.map { script in
                var fileWide = script
                if fileWide.fileScope == nil {
                    fileWide.fileScope = script.phase == .preRequest ? .once : .everyRequest
                }
                return fileWide
            })
            return nil
        }
        // `{{+ }}` scripts above a request are the file's, in file order with the others.
        fileScripts.append(contentsOf: prelude.scripts.filter { $0.fileScope != nil })
        prelude.scripts.removeAll { $0.fileScope != nil }
        // A block of `run` lines is read whole (a request line in it is an error at its line).
        let isRunBlock = Self.compositionDirective(lines[requestStart].trimmed) == "run"
        let next = isRunBlock ? nil : implicitRequestStart(after: requestStart, limit: section.upperBound)
        let end = next ?? section.upperBound
        if prelude.name == nil, let separator, let above = nameAbove(separator: separator) { prelude.name = above }
        if isFirst {
            fileVariables.append(contentsOf: prelude.variables)
            prelude.variables = []
            prelude.variableLines = []
        }
        guard !failed else { return next }
        let before = requests.count
        let block = section.lowerBound..<end
        let first = lines[requestStart].trimmed
        if Self.compositionDirective(first) == "run" {
            parseRunBlock(block: block, requestStart: requestStart, prelude: prelude)
        } else if Self.isCurlCommand(first) {
            parsePastedCurl(block: block, requestStart: requestStart, prelude: prelude)
        } else {
            parseRequest(block: block, requestStart: requestStart, prelude: prelude)
        }
        if requests.count > before {
            requests[requests.count - 1].references = prelude.references
            requests[requests.count - 1].loop = prelude.loop
            requests[requests.count - 1].runsBefore = prelude.runsBefore
        }
        return next
    }

    /// Reads one `# @key value` tag of a prelude; false when the tag is malformed (reported at its line).
    private mutating func readTag(_ written: String, _ value: String, at index: Int,
                                  into prelude: inout Prelude) -> Bool {
        let key = Self.tagAliases[written] ?? written
        if key == "name" {
            prelude.name = value.isEmpty ? nil : value
            prelude.nameLine = index
        } else if key == "prompt" || key == HTTPFileParser.secretPromptTag {
            guard var prompt = Self.prompt(value) else {
                // Reported; the request itself still loads (it fails only if it uses the name).
                report(index, "expected '# @\(key) NAME [description]'")
                return true
            }
            prompt.isSecret = key == HTTPFileParser.secretPromptTag
            prelude.prompts.append(prompt)
        } else if key == "import" {
            // httpyac's `# @import ./other.http`: as JetBrains' `import` line, bound to the whole file.
            if value.isEmpty { report(index, "expected '# @import ./other.http'"); return false }
            imports.append(FileImport(path: value, line: fileLine(index)))
        } else if let reference = RequestReference.parse(key: key, value: value, line: fileLine(index)) {
            guard !value.isEmpty, !value.contains(" ") else {
                report(index, "expected '# @\(key) NAME' naming one request")
                return false
            }
            prelude.references.append(reference)
        } else if key == "loop" {
            switch RequestLoop.parse(value, line: fileLine(index)) {
            case .success(let loop): prelude.loop = loop
            case .failure(let problem):
                report(index, problem.message)
                return false
            }
        } else if key.hasPrefix("curl-") {
            switch Self.curlFlagTag(key, value) {
            // The line stays as written (not a tag line the writer regenerates): kulala reads it back.
            case .success(let tag?): prelude.tags[tag.key] = tag.value
            case .success(nil): break
            case .failure(let problem):
                report(index, problem.message)
                return false
            }
        } else if let problem = Self.unsupportedTag(key, value) {
            report(index, problem)
            return false
        } else {
            if let note = Self.unhonouredTag(key) { warn(index, note) }
            prelude.tags[key] = value
            prelude.tagLines.append(index)
        }
        return true
    }


    private mutating func parseRequest(block: Range<Int>, requestStart: Int, prelude: Prelude) {
        let line = lines[requestStart].trimmed
        guard let requestLine = Self.requestLine(line) else {
            report(requestStart, "expected a request line '[METHOD] URL [HTTP/x.y]'")
            return
        }
        if let refusal = Self.refusal(of: requestLine) {
            report(requestStart, refusal)
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
        var responseVariables: [VariableDefinition] = []
        var headerSpreads: [String] = []
        let headerStart = index
        var failed = false
        while index < block.upperBound, !lines[index].isBlank {
            let trimmed = lines[index].trimmed
            if Self.commentBody(trimmed) != nil { index += 1; continue }
            if Self.isHandlerStart(trimmed) || Self.httpyacScriptStart(trimmed) != nil { break }
            if let definition = Self.responseVariable(trimmed, line: fileLine(index)) {
                responseVariables.append(definition)
                index += 1
                continue
            }
            if let spread = Self.headerSpread(trimmed) { headerSpreads.append(spread); index += 1; continue }
            if Self.continuesURLAmongHeaders(trimmed) { url += trimmed; index += 1; continue }
            // A JSON, XML or GraphQL body written right under the headers, without the blank line.
            if Self.startsBodyWithoutBlankLine(trimmed)
                || Self.startsTokenBody(lines[index], afterHeader: !headers.isEmpty) { break }
            if Self.continuesHeader(lines[index]), !headers.isEmpty {
                headers.continueLastValue(with: trimmed)
            } else if let colon = trimmed.firstIndex(of: ":"), colon != trimmed.startIndex {
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
        for candidate in bodyStart..<block.upperBound where Self.endsBody(lines[candidate].trimmed) {
            tailStart = candidate
            break
        }
        let documented = documentedResponseStart(bodyStart: bodyStart, end: tailStart)
        var bodyEnd = documented ?? tailStart
        while bodyEnd > bodyStart, lines[bodyEnd - 1].isBlank { bodyEnd -= 1 }
        if bodyStart > bodyEnd { bodyEnd = bodyStart }
        bodyEnd = footerStart(bodyStart: bodyStart, bodyEnd: bodyEnd)
        let kind = Self.kind(method: requestLine.method, headers: headers)
        if kind != .websocket && kind != .grpc {
            let trailing = trailingResponseVariables(bodyStart: bodyStart, bodyEnd: bodyEnd)
            (bodyEnd, responseVariables) = (trailing.end, responseVariables + trailing.variables)
        }
        let tail = tailScripts(in: (documented == nil ? tailStart : block.upperBound)..<block.upperBound)
        guard !failed && !tail.failed else { return }
        let bodyLines = lines[bodyStart..<bodyEnd].map(\.content)
        var body = BodyTemplate.none
        var messages: [WebSocketMessage] = []
        if kind == .websocket || kind == .grpc {
            messages = Self.messages(bodyLines)
        } else {
            body = Self.body(bodyLines)
        }
        if prelude.tags[Self.injectVariablesTag] != nil, case .file(let path, false) = body {
            body = .file(path: path, substituteVariables: true)
        }
        if case .encodedFile(_, let encoding) = body, BodyEncoding.encoding(named: encoding) == nil {
            report(bodyStart, "unknown encoding '\(encoding)' in '<@\(encoding)'; known: "
                   + BodyEncoding.knownNames.joined(separator: ", "))
            return
        }
        let ordinal = ordinalOffset + requests.count + 1
        let blockText = SourceLines.join(lines[block])
        requests.append(RequestTemplate(
            id: RequestTemplateID(file: path, ordinal: ordinal), name: prelude.name ?? prelude.separatorName,
            kind: kind, method: Self.method(of: kind, written: requestLine.method), url: url,
            httpVersion: version, headers: headers, body: body, variables: prelude.variables, tags: prelude.tags,
            messages: messages, unsupported: tail.kept, prompts: prelude.prompts,
            scripts: prelude.scripts + tail.scripts,
            lines: fileLine(block.lowerBound)..<fileLine(block.upperBound), sourceText: blockText))
        layouts.append(RequestLayout(
            block: block, separator: prelude.separator,
            nameFromSeparator: prelude.name == nil && prelude.separatorName != nil,
            prelude: prelude.preludeStart..<requestStart, nameLine: prelude.nameLine,
            variableLines: prelude.variableLines, tagLines: prelude.tagLines, requestLine: requestRange,
            headers: headerRange, body: bodyStart..<bodyEnd, tail: bodyEnd..<block.upperBound))
        requests[requests.count - 1].responseVariables = responseVariables + tail.variables
            + Self.kulalaResponseVariables(prelude.tags, line: fileLine(requestStart))
        requests[requests.count - 1].headerSpreads = headerSpreads
    }

    mutating func report(_ index: Int, _ message: String) {
        diagnostics.append(Diagnostic(file: path, line: fileLine(index), message: message))
    }
}
