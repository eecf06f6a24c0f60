import CourierHTTP

/// JetBrains' composition lines: `run #name` and `run ./other.http` written where a request line would be.
extension HTTPFileParser {
    /// The method word a run block shows in lists; it is never sent.
    static let runMethod = "RUN"

    /// A block whose first line after its prelude is `run …`: every following line is another `run` line, a
    /// comment or blank. Anything else is an error at its line and the block is skipped, never sent.
    mutating func parseRunBlock(block: Range<Int>, requestStart: Int, prelude: Prelude) {
        var runs: [RunDirective] = []
        var failed = false
        var end = requestStart
        for index in requestStart..<block.upperBound {
            let trimmed = lines[index].trimmed
            if lines[index].isBlank || Self.commentBody(trimmed) != nil { continue }
            end = index + 1
            guard Self.compositionDirective(trimmed) == "run" else {
                report(index, "a block that runs other requests holds only 'run' lines; "
                       + "put this request in a block of its own (after '###')")
                failed = true
                continue
            }
            guard let directive = RunDirective.parse(trimmed, line: fileLine(index)) else {
                report(index, "expected 'run #name', 'run ./file.http', optionally followed by "
                       + "'(@name=value, …)'")
                failed = true
                continue
            }
            runs.append(directive)
        }
        guard !failed, !runs.isEmpty else { return }
        // What lists and the explorer's URL line show: every `run` line, as written after the word.
        let url = runs.map { String($0.text.dropFirst("run ".count)) }.joined(separator: "; ")
        let ordinal = ordinalOffset + requests.count + 1
        var template = RequestTemplate(
            id: RequestTemplateID(file: path, ordinal: ordinal), name: prelude.name ?? prelude.separatorName,
            method: HTTPMethod(Self.runMethod), url: url, variables: prelude.variables, tags: prelude.tags,
            prompts: prelude.prompts, scripts: prelude.scripts,
            lines: fileLine(block.lowerBound)..<fileLine(block.upperBound), sourceText: SourceLines.join(lines[block]))
        template.runs = runs
        requests.append(template)
        layouts.append(RequestLayout(
            block: block, separator: prelude.separator,
            nameFromSeparator: prelude.name == nil && prelude.separatorName != nil,
            prelude: prelude.preludeStart..<requestStart, nameLine: prelude.nameLine,
            variableLines: prelude.variableLines, tagLines: prelude.tagLines, requestLine: requestStart..<end,
            headers: end..<end, body: end..<end, tail: end..<block.upperBound))
    }
}
