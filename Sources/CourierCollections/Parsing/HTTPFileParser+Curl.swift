/// A curl command pasted as a request (`curl -X POST https://… -H '…' -d '…'`), as the VS Code REST Client
/// reads it: converted by the one curl importer, so a `.http` file and `courier import curl` agree.
extension HTTPFileParser {
    /// What stands before a request line: its name, tags, local variables, scripts and prompts.
    struct Prelude {
        var separator: Int?
        var separatorName: String?
        var preludeStart: Int
        var name: String?
        var nameLine: Int?
        var tags: [String: String]
        var tagLines: [Int]
        var variables: [VariableDefinition]
        var variableLines: [Int]
        var scripts: [RequestScript]
        var prompts: [PromptVariable]
        /// httpyac's `# @ref` / `# @forceRef` and `# @loop`.
        var references: [RequestReference] = []
        var loop: RequestLoop?
        /// kulala.nvim's `run` lines above a request line: they run before it.
        var runsBefore: [RunDirective] = []
    }

    /// A request line that is a curl command: `curl` and at least one argument.
    static func isCurlCommand(_ trimmed: String) -> Bool {
        trimmed.hasPrefix("curl ") || trimmed.hasPrefix("curl\t")
    }

    /// The command runs from its first line to a blank line, a response handler or the block's end; lines
    /// may end with `\` or simply go on. What follows is the request's tail (handlers, `>> file`).
    mutating func parsePastedCurl(block: Range<Int>, requestStart: Int, prelude: Prelude) {
        var end = requestStart + 1
        while end < block.upperBound, !lines[end].isBlank, !Self.isHandlerStart(lines[end].trimmed),
              Self.commentBody(lines[end].trimmed) == nil {
            end += 1
        }
        let command = lines[requestStart..<end].map(\.content).joined(separator: "\n")
        let tail = tailScripts(in: end..<block.upperBound)
        let imported: CurlImport
        do {
            imported = try CurlImporter.convert(command)
        } catch {
            if case .importFailed(_, let reason) = error { report(requestStart, "curl command: \(reason)") } else {
                report(requestStart, "curl command: \(error)")
            }
            return
        }
        guard !tail.failed else { return }
        for note in imported.notes {
            diagnostics.append(Diagnostic(file: path, line: fileLine(requestStart), message: "curl command: \(note)",
                                          severity: .warning))
        }
        let converted = imported.request
        // Tags written above the command win over what its options said (`-m 5` against `# @timeout 9`).
        let tags = converted.tags.merging(prelude.tags) { _, written in written }
        let ordinal = ordinalOffset + requests.count + 1
        requests.append(RequestTemplate(
            id: RequestTemplateID(file: path, ordinal: ordinal), name: prelude.name ?? prelude.separatorName,
            kind: Self.kind(method: converted.method.rawValue, headers: converted.headers), method: converted.method,
            url: converted.url, headers: converted.headers, body: converted.body, variables: prelude.variables,
            tags: tags, unsupported: tail.kept, prompts: prelude.prompts, scripts: prelude.scripts + tail.scripts,
            lines: fileLine(block.lowerBound)..<fileLine(block.upperBound),
            sourceText: SourceLines.join(lines[block])))
        layouts.append(RequestLayout(
            block: block, separator: prelude.separator,
            nameFromSeparator: prelude.name == nil && prelude.separatorName != nil, prelude: prelude.preludeStart..<requestStart,
            nameLine: prelude.nameLine, variableLines: prelude.variableLines, tagLines: prelude.tagLines,
            requestLine: requestStart..<end, headers: end..<end, body: end..<end, tail: end..<block.upperBound))
    }
}
