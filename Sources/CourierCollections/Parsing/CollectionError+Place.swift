import Foundation

/// Errors found while resolving a request, placed at the line of the file that caused them and
/// followed by what to do, the way `courier run` and `courier check` print them.
extension CollectionError {
    /// The text the error is about (a variable name, an expression, a path), used to find its line.
    var subject: String? {
        switch self {
        case .unknownVariable(let name, _), .variableCycle(let name, _), .variableTooDeep(let name, _, _),
             .promptNotAnswered(let name, _, _), .secretStore(let name, _, _):
            return name
        case .badDynamicVariable(let expression, _, _), .responseValueUnavailable(let expression, _, _):
            return expression
        case .bodyFileUnreadable(let path, _):
            return path
        case .fileAccess(let refusal):
            return refusal.path
        default:
            return nil
        }
    }

    /// The 1-based line in `template`'s file where this error shows: the first line of the request (or
    /// of a file variable it uses) that mentions the subject, else the request line.
    public func line(in template: RequestTemplate, fileVariables: [VariableDefinition] = []) -> Int {
        if case .fileAccess(let refusal) = self, let line = refusal.line { return line }
        let lines = template.sourceText.split(separator: "\n", omittingEmptySubsequences: false)
        if let subject, !subject.isEmpty {
            // A reference written as {{subject}} first; a path or other mention of the text second.
            let references = { (text: Substring) in VariableReference.scan(String(text)).contains { $0.expression == subject } }
            if let offset = lines.firstIndex(where: references) ?? lines.firstIndex(where: { $0.contains(subject) }) {
                return template.lines.lowerBound + offset
            }
            if let definition = fileVariables.first(where: { references(Substring($0.value)) || $0.name == subject }),
               definition.line > 0 {
                return definition.line
            }
        }
        let requestLine = lines.firstIndex { $0.contains(template.url) && !template.url.isEmpty } ?? 0
        return template.lines.lowerBound + requestLine
    }

    /// `file:line: message`, then on the same line what to do. `environments` describes where variables
    /// could have come from (the environments found and the one selected), for unknown variables.
    public func located(in template: RequestTemplate, file: String, fileVariables: [VariableDefinition] = [],
                        environments: String? = nil) -> String {
        // A syntax error already names its own file and line (a `run` line of the file, or of another).
        if case .syntax = self { return description }
        // A script's error names the script's own file and line already.
        if case .script = self { return description }
        return "\(file):\(line(in: template, fileVariables: fileVariables)): \(self)"
            + hint(environments: environments)
    }

    /// kulala.nvim and httpyac fall back to the shell's variables for a plain `{{NAME}}`; Courier reads the
    /// shell only where a file says so, so a file from elsewhere cannot send the shell's secrets unasked. When
    /// the shell has the name, the error says how to read it.
    static func shellHint(_ name: String, environment: [String: String]? = nil) -> String {
        // `getenv`, not `ProcessInfo.environment`: Foundation builds that whole dictionary anew on each read, which
        // was a sixth of checking a file whose every request names an unknown variable.
        guard environment.map({ $0[name] != nil }) ?? (getenv(name) != nil) else { return "" }
        return "; the shell has \(name), and a request reads it only as {{$processEnv \(name)}} or {{$env.\(name)}}"
    }

    /// What to do about the error, starting with "; ", or "".
    func hint(environments: String?) -> String {
        switch self {
        case .unknownVariable(let name, _) where name.hasPrefix("$"):
            return "; set it in the process environment (or in .env beside the file for $dotenv)"
        case .unknownVariable(let name, _):
            return "; define it with '@\(name) = value', pass --var \(name)=VALUE, or set it in an environment"
                + (environments.map { " (\($0))" } ?? "") + Self.shellHint(name)
        case .fileAccess(let refusal):
            return refusal.commandLineHint
        case .badURL:
            return "; a URL needs a scheme and host, e.g. http://localhost:8080/path, "
                + "or an origin-form path with a Host header"
        default:
            return ""
        }
    }
}

extension RequestTemplate {
    /// The 1-based line of the request's file holding `text` as written (`< {{dir}}/body.json`); nil when
    /// no line of the request does.
    func line(mentioning text: String) -> Int? {
        guard !text.isEmpty else { return nil }
        let lines = sourceText.split(separator: "\n", omittingEmptySubsequences: false)
        return lines.firstIndex { $0.contains(text) }.map { $0 + self.lines.lowerBound }
    }
}
