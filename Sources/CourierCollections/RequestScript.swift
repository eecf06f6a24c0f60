/// A script attached to a request: `< {% … %}` before its request line, `> {% … %}` or `> ./handler.js`
/// after its body.
public struct RequestScript: Sendable, Hashable {
    /// When the script runs.
    public enum Phase: String, Sendable, Hashable {
        /// Before the request is built: it can set request variables and change headers.
        case preRequest = "pre-request script"
        /// Once the response is in: it can set globals and declare tests.
        case response = "response handler"
    }

    /// Where the code is.
    public enum Source: Sendable, Hashable {
        /// The code between `{%` and `%}`.
        case inline(String)
        /// A `.js` file, relative to the `.http` file.
        case file(String)
    }

    public var phase: Phase
    public var source: Source
    /// 1-based line of the `{%` or of the `> ./file` line.
    public var line: Int
    /// An XPath the handler reads evaluated on the response (an httpyac `?? xpath` line), with the line's
    /// text for the failed test when it cannot be evaluated.
    public var xpath: (expression: String, test: String)? {
        get { xpathExpression.map { ($0, xpathTest ?? $0) } }
        set { (xpathExpression, xpathTest) = (newValue?.expression, newValue?.test) }
    }
    private var xpathExpression: String?
    private var xpathTest: String?

    public init(phase: Phase, source: Source, line: Int) {
        self.phase = phase
        self.source = source
        self.line = line
    }

    /// Whether the script's text sets `name` with `client.global.set`, `pm.*.set` or `request.variables.set`;
    /// used to point an unknown variable at the script that should have set it.
    public func mentionsSetting(_ name: String) -> Bool {
        guard case .inline(let code) = source else { return false }
        return ["\"\(name)\"", "'\(name)'", "`\(name)`"].contains { quoted in
            code.contains("set(\(quoted)") || code.contains("set( \(quoted)")
                || code.contains("setEnvironmentVariable(\(quoted)")
                || code.contains("setGlobalVariable(\(quoted)")
        }
    }
}
