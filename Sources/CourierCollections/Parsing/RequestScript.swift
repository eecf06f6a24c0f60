import CourierScript
import CourierSecurity

/// A script attached to a request: `< {% … %}` before its request line, `> {% … %}` or `> ./handler.js`
/// after its body, or httpyac's `{{ … }}` before or after the request line.
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

    /// When a file-wide script (`HTTPFile.fileScripts`) runs.
    public enum FileScope: String, Sendable, Hashable {
        /// httpyac's `{{ }}` in a block without a request: once, before the first request of a run (before
        /// each send in the explorer, as httpyac's editor runs it).
        case once
        /// httpyac's `{{+ }}` and `{{@response }}` in such a block: around every request of the file.
        case everyRequest
    }

    public var phase: Phase
    public var source: Source
    /// Whose API the script is written against: JetBrains' (with Postman's `pm`) or httpyac's.
    public var dialect: ScriptDialect = .jetBrains
    /// Set on file-wide scripts only.
    public var fileScope: FileScope?
    /// 1-based line of the `{%` or of the `> ./file` line.
    public var line: Int
    /// An XPath the handler reads evaluated on the response (an httpyac `?? xpath` line), with the line's
    /// text for the failed test when it cannot be evaluated.
    public var xpath: (expression: String, test: String)? {
        get { xpathExpression.map { ($0, xpathTest ?? $0) } }
        set { (xpathExpression, xpathTest) = (newValue?.expression, newValue?.test) }
    }
    private var xpathExpression: String?
    /// The expected value of an httpyac `??` line that holds variables (`?? status == {{expected}}`),
    /// substituted when the handler runs.
    public var assertionExpected: String?
    private var xpathTest: String?

    public init(phase: Phase, source: Source, line: Int, dialect: ScriptDialect = .jetBrains) {
        self.phase = phase
        self.source = source
        self.line = line
        self.dialect = dialect
    }

    /// Whether the script's text sets `name` with `client.global.set`, `pm.*.set` or `request.variables.set`;
    /// used to point an unknown variable at the script that should have set it. Comments set nothing.
    public func mentionsSetting(_ name: String) -> Bool {
        // The text without comments is made only when the whole text mentions it: most scripts never do.
        guard case .inline(let code) = source, Self.sets(name, in: code) else { return false }
        return Self.sets(name, in: ScriptCode.withoutComments(code))
    }

    /// Whether `code` reads as setting `name`. Looked for in the code's bytes (`ByteNeedle`): checking a file runs
    /// this for every name a request uses against every script of the file, and Foundation's `contains` made a
    /// file of 200 scripted requests take 1.8 s to check.
    static func sets(_ name: String, in code: String) -> Bool {
        var bytesOfCode = code
        return bytesOfCode.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return false }
            func holds(_ piece: String) -> Bool { ByteNeedle(exactly: piece).occurs(in: base, count: bytes.count) }
            // Most scripts name no variable at all: nothing more to look for.
            guard holds(name) else { return false }
            let quotedSetter = ["\"\(name)\"", "'\(name)'", "`\(name)`"].contains { quoted in
                holds("set(\(quoted)") || holds("set( \(quoted)") || holds("setEnvironmentVariable(\(quoted)")
                    || holds("setGlobalVariable(\(quoted)") || holds("exports[\(quoted)]")
            }
            guard !quotedSetter else { return true }
            // httpyac: `exports.token = …` and `$global.token = …`.
            return ["exports.", "$global."].contains { owner in holds(owner + name) && setsMember(owner + name, in: code) }
        }
    }

    /// Whether `code` holds `member` (`exports.token`) not followed by more of an identifier (`exports.tokens`).
    private static func setsMember(_ member: String, in code: String) -> Bool {
        var rest = Substring(code)
        while let found = rest.range(of: member) {
            let after = rest[found.upperBound...].first
            if after.map({ !($0.isLetter || $0.isNumber || $0 == "_" || $0 == "$") }) ?? true { return true }
            rest = rest[found.upperBound...]
        }
        return false
    }
}
