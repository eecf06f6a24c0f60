/// The JavaScript of one request script and where it was written, so errors can name `file:line`.
public struct ScriptSource: Sendable, Hashable {
    /// The code between `{%` and `%}`, or the whole of a handler file.
    public var code: String
    /// The file the code is in: the `.http` file for inline scripts, the `.js` file for handler files.
    public var file: String
    /// The 1-based line of `file` on which `code` starts.
    public var line: Int

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
