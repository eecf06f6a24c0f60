/// Request scripts in `.http` files: `< {% %}` and `< ./pre.js` before the request line, `> {% %}` and
/// `> ./handler.js` after the body, `{% %}` spanning any number of lines.
extension HTTPFileParser {
    /// A `< {% … %}` or `< ./script.js` line before the request line.
    static func isPreRequestStart(_ trimmed: String) -> Bool {
        if trimmed.hasPrefix("< {%") { return true }
        guard trimmed.hasPrefix("< ") else { return false }
        // kulala.nvim's `.lua` scripts are read as scripts too, to be refused when run.
        let target = trimmed.dropFirst(2).trimmingBlanks
        return target.hasSuffix(".js") || target.hasSuffix(".lua")
    }

    /// The script starting at `start` and the line after it; `{%` scripts end at the line holding `%}`.
    mutating func script(at start: Int, phase: RequestScript.Phase, limit: Int) -> (RequestScript, end: Int) {
        let trimmed = lines[start].trimmed
        guard trimmed.dropFirst().trimmingBlanks.hasPrefix("{%") else {
            let path = trimmed.dropFirst().trimmingBlanks
            return (RequestScript(phase: phase, source: .file(path), line: fileLine(start)), start + 1)
        }
        let end = scriptEnd(from: start, limit: limit)
        var code = lines[start..<end].map(\.content).joined(separator: "\n")
        if let open = code.range(of: "{%") { code = String(code[open.upperBound...]) }
        if let close = code.range(of: "%}", options: .backwards) { code = String(code[..<close.lowerBound]) }
        return (RequestScript(phase: phase, source: .inline(code), line: fileLine(start)), end)
    }

    /// The handlers after a body. `>>` redirects are kept for `courier run` to save the body; `?? …` lines
    /// become tests (`HttpyacAssertion`); httpyac's `{{ }}` blocks run on the response; `<>` lines (earlier
    /// responses an editor saved) are ignored; any other text is an error rather than silently dropped (after
    /// httpyac's `??` tests alone, a warning: httpyac sends the request).
    mutating func tailScripts(in range: Range<Int>)
        -> (scripts: [RequestScript], kept: [UnsupportedDirective], failed: Bool, variables: [VariableDefinition]) {
        var scripts: [RequestScript] = []
        var kept: [UnsupportedDirective] = []
        var variables: [VariableDefinition] = []
        var failed = false
        // httpyac's `??` tests, and nothing else yet: text after them does not hide a JetBrains body.
        var sawTest = false
        var sawHandler = false
        var unclosed: Int?
        var index = range.lowerBound
        while index < range.upperBound {
            let line = lines[index]
            let trimmed = line.trimmed
            if line.isBlank || Self.commentBody(trimmed) != nil || trimmed.hasPrefix("<> ") {
                index += 1
                continue
            }
            if trimmed.hasPrefix(">>") {
                kept.append(UnsupportedDirective(text: line.content, line: fileLine(index)))
                index += 1
                continue
            }
            if Self.isAssertion(trimmed) {
                switch HttpyacAssertion.parse(trimmed) {
                case .success(let assertion):
                    var script = RequestScript(phase: .response, source: .inline(assertion.script),
                                               line: fileLine(index))
                    script.xpath = assertion.xpath.map { ($0, assertion.text) }
                    if assertion.expected.contains("{{") { script.assertionExpected = assertion.expected }
                    scripts.append(script)
                case .failure(let problem):
                    // httpyac sends the request all the same, so Courier does too.
                    warn(index, problem.message + (problem.failsTest ? "; the test fails" : "; it is not a test"))
                    if problem.failsTest {
                        let source = HttpyacAssertion.failingScript(line: trimmed, problem: problem)
                        scripts.append(RequestScript(phase: .response, source: .inline(source),
                                                     line: fileLine(index)))
                    }
                }
                sawTest = true
                index += 1
                continue
            }
            if let start = Self.httpyacScriptStart(trimmed) {
                sawHandler = true
                let (script, end) = httpyacScript(at: index, start: start, beforeRequest: false,
                                                  limit: range.upperBound)
                if let script {
                    if script.fileScope == nil { scripts.append(script) } else { fileScripts.append(script) }
                } else if lines[end - 1].trimmed != "}}" {
                    // Not closed: reported at its line, and the request is not sent without its handler.
                    failed = true
                }
                index = end
                continue
            }
            if let definition = Self.responseVariable(trimmed, line: fileLine(index)) {
                variables.append(definition)
                index += 1
                continue
            }
            if Self.isHandlerStart(trimmed) {
                sawHandler = true
                let (script, end) = script(at: index, phase: .response, limit: range.upperBound)
                scripts.append(script)
                index = end
                continue
            }
            if let end = blockCommentEnd(at: index, limit: range.upperBound, unclosedFrom: &unclosed) {
                index = end
                continue
            }
            if sawTest && !sawHandler {
                // httpyac reads on past its tests; a `---` rule or a note there is no request's part.
                warn(index, "text after the '??' tests is ignored")
                index += 1
                continue
            }
            report(index, "text after the response handler is not part of the request; "
                   + "move it above the '> …' line or into the handler")
            failed = true
            index += 1
        }
        return (scripts, kept, failed, variables)
    }

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
}
