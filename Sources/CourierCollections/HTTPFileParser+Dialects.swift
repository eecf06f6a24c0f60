/// Reading rules that follow what the JetBrains HTTP Client and the VS Code REST Client do with files
/// written for them, beyond the core grammar.
extension HTTPFileParser {
    /// `# @name x` written on the line(s) just above a `###` separator names the request below it, as
    /// those tools read it; only blank lines may stand between the tag and the separator.
    func nameAbove(separator: Int) -> String? {
        var index = separator - 1
        while index >= 0, lines[index].isBlank { index -= 1 }
        guard index >= 0, let comment = Self.commentBody(lines[index].trimmed),
              let (key, value) = Self.tag(comment), key == "name", !value.isEmpty else { return nil }
        return value
    }

    /// Where the body really ends: comment lines at the end of a block, after a blank line or with no
    /// body text before them, are a footer (notes, or the next request's `# @name`), not body.
    func footerStart(bodyStart: Int, bodyEnd: Int) -> Int {
        var index = bodyEnd
        var sawComment = false
        while index > bodyStart {
            let line = lines[index - 1]
            if line.isBlank { index -= 1; continue }
            guard Self.commentBody(line.trimmed) != nil else { break }
            sawComment = true
            index -= 1
        }
        guard sawComment else { return bodyEnd }
        // Comments directly under body text may be part of it (a shell script, Markdown): keep them.
        if index > bodyStart && !lines[index].isBlank && !lines[index - 1].isBlank { return bodyEnd }
        while index > bodyStart, lines[index - 1].isBlank { index -= 1 }
        return index
    }

    /// `# @prompt NAME [description]`.
    static func prompt(_ value: String) -> PromptVariable? {
        let words = value.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard let name = words.first.map(String.init), name.allSatisfy(isVariableNameCharacter) else { return nil }
        let description = words.count > 1 ? words[1].trimmingCharacters(in: .whitespaces) : nil
        return PromptVariable(name: name, description: description?.isEmpty == true ? nil : description)
    }
}
