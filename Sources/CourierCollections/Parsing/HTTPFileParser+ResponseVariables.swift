/// httpyac's `@name = value` lines after a request line: where a header or the body would be, they are set
/// once the response is in (`@token = {{response.parsedBody.token}}`), not sent.
extension HTTPFileParser {
    /// A `@name = value` (or `@name := value`) line written after a request line; nil for any other line.
    /// The `=` is required there: `@name value` could be body text.
    static func responseVariable(_ trimmed: String, line: Int) -> VariableDefinition? {
        guard trimmed.hasPrefix("@"), trimmed.contains("=") else { return nil }
        return variable(trimmed, line: line)
    }

    /// The variable lines that end a body (after a blank line, or making up the whole body): the line where
    /// the body then ends and the definitions, in order.
    func trailingResponseVariables(bodyStart: Int, bodyEnd: Int) -> (end: Int, variables: [VariableDefinition]) {
        var start = bodyEnd
        var found: [VariableDefinition] = []
        while start > bodyStart {
            let line = lines[start - 1]
            if line.isBlank { start -= 1; continue }
            guard let definition = Self.responseVariable(line.trimmed, line: fileLine(start - 1)) else { break }
            found.insert(definition, at: 0)
            start -= 1
        }
        // Text right above them is a body line that happens to start with `@`: keep it all as the body.
        guard !found.isEmpty, start == bodyStart || lines[start].isBlank else { return (bodyEnd, []) }
        var end = start
        while end > bodyStart, lines[end - 1].isBlank { end -= 1 }
        return (end, found)
    }
}
