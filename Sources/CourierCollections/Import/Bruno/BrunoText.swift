/// Bruno's `{{name}}` is a variable, as in `.http`; `{{process.env.NAME}}` reads the process environment,
/// which `.http` spells `{{$processEnv NAME}}`.
enum BrunoText {
    static let processPrefix = "process.env."

    static func text(_ source: String) -> ImportedText {
        var result = ImportedText()
        var rest = Substring(source)
        while let open = rest.range(of: "{{"), let close = rest[open.upperBound...].range(of: "}}") {
            let expression = rest[open.upperBound..<close.lowerBound].trimmingBlanks
            let name = expression.dropFirst(processPrefix.count)
            let isName = !name.isEmpty && name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
            if expression.hasPrefix(processPrefix), isName {
                result += ImportedText(template: String(rest[..<open.lowerBound])) + .variable("$processEnv \(name)")
            } else {
                result += ImportedText(template: String(rest[..<close.upperBound]))
            }
            rest = rest[close.upperBound...]
        }
        return result + ImportedText(template: String(rest))
    }
}
