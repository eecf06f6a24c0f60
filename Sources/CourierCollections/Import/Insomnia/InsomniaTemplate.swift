/// Insomnia's Nunjucks templates in a field: `{{ _.name }}` (and the older `{{ name }}`) are variables,
/// written `{{name}}`; the template tags that have a dynamic variable of the same meaning (`{% uuid %}`,
/// `{% now %}`) become it; any other tag (`{% response … %}`, `{% prompt %}`) stays as text, noted.
enum InsomniaTemplate {
    /// The dynamic variable of the same meaning as a tag (its first word and its arguments), if there is one.
    static func dynamicVariable(_ word: String, arguments: String) -> String? {
        switch word {
        case "uuid": "$uuid"
        case "now": arguments.contains("millis") || arguments.contains("unix") ? "$timestamp" : "$isoTimestamp"
        default: nil
        }
    }

    /// The field's text; `unconverted` gets each tag left as text.
    static func text(_ source: String, unconverted: inout [String]) -> ImportedText {
        var result = ImportedText()
        var rest = Substring(source)
        while let open = rest.range(of: "{") {
            let after = rest[open.upperBound...]
            let closer: String
            if after.hasPrefix("{") { closer = "}}" } else if after.hasPrefix("%") { closer = "%}" } else {
                result += .data(String(rest[...open.lowerBound]))
                rest = after
                continue
            }
            let inner = after.dropFirst()
            guard let close = inner.range(of: closer) else { break }
            result += .data(String(rest[..<open.lowerBound]))
            let expression = inner[..<close.lowerBound].trimmingBlanks
            let written = String(rest[open.lowerBound..<close.upperBound])
            if closer == "}}" {
                let name = expression.hasPrefix("_.") ? String(expression.dropFirst(2)) : expression
                let isVariable = ImportedText.isSourceVariable(name) && !name.hasPrefix("$")
                result += isVariable ? .variable(name) : .data(written)
                if !isVariable { unconverted.append(written) }
            } else {
                let word = String(expression.prefix { !$0.isWhitespace })
                if let mapped = dynamicVariable(word, arguments: String(expression.dropFirst(word.count))) {
                    result += .variable(mapped)
                } else {
                    result += .data(written)
                    unconverted.append(written)
                }
            }
            rest = inner[close.upperBound...]
        }
        return result + .data(String(rest))
    }
}
