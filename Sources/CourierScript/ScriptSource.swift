/// The JavaScript of one request script and where it was written, so errors can name `file:line`.
public struct ScriptSource: Sendable, Hashable, Codable {
    /// The code between `{%` and `%}`, or the whole of a handler file.
    public var code: String
    /// The file the code is in: the `.http` file for inline scripts, the `.js` file for handler files.
    public var file: String
    /// The 1-based line of `file` on which `code` starts.
    public var line: Int

    /// The line of `file` the code's first statement is on (`line` plus the blank lines that open the code): the
    /// line named when a script is stopped somewhere no line is known for (in a promise job, or killed).
    public var firstCodeLine: Int {
        let opening = code.prefix { $0.isWhitespace }
        return line + opening.filter(\.isNewline).count
    }

    /// A script whose first line is line `line` of `file`.
    public init(code: String, file: String, line: Int) {
        self.code = code
        self.file = file
        self.line = line
    }
}

/// When a script runs: before the request is built (`< {% %}`) or once its response is in (`> {% %}`).
public enum ScriptPhase: String, Sendable, Hashable {
    case preRequest = "pre-request script"
    case response = "response handler"
}

/// Whose script API a script is written for: the JetBrains HTTP Client's `{% %}` blocks (with Postman's `pm`
/// alongside), or httpyac's `{{ }}` blocks (`exports`, `request`/`response` as httpyac shapes them, `test`).
public enum ScriptDialect: String, Sendable, Hashable {
    case jetBrains
    case httpyac
}
