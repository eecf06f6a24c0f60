import CourierBody
import CourierSecurity
import Foundation

/// A Postman environment or globals export (`*.postman_environment.json`, `*.postman_globals.json`): its
/// enabled values, each marked secret when Postman typed it `secret` or its name is one the secret policy names.
public struct PostmanVariableExport: Sendable, Hashable {
    /// Which of Postman's scopes the file holds.
    public enum Scope: Sendable, Hashable {
        /// An environment, written under its own name.
        case environment(String)
        /// Globals, which every environment sees: written as `$shared`.
        case globals
    }

    /// One enabled value.
    public struct Value: Sendable, Hashable {
        public var key: String
        /// Postman's text: its `{{name}}` is a variable.
        public var value: ImportedText
        public var isSecret: Bool
    }

    public var scope: Scope
    public var values: [Value]
    /// What was left out (disabled values, names `.http` cannot hold), one line each.
    public var notes: [String]

    /// An export holding `values`.
    public init(scope: Scope, values: [Value], notes: [String] = []) {
        self.scope = scope
        self.values = values
        self.notes = notes
    }

    /// The environment name the values go under in `http-client.env.json`.
    public var environmentName: String {
        switch scope {
        case .environment(let name): name
        case .globals: EnvironmentSet.sharedName
        }
    }

    /// What kind of Postman export `data` is, judged from its top-level members; nil when it is none of them.
    public enum Kind: Sendable, Hashable { case collection, environment, globals }

    /// The kind of export in `root`: a collection has `info` and `item`, the others `values`, told apart by
    /// `_postman_variable_scope` (an export without it is an environment when it has a name).
    public static func kind(of root: JSONValue) -> Kind? {
        if root["info"] != nil && root["item"] != nil { return .collection }
        guard root["values"]?.arrayValue != nil else { return nil }
        switch root["_postman_variable_scope"]?.stringValue {
        case "globals": return .globals
        case "environment": return .environment
        default: return root["name"]?.stringValue == nil ? .globals : .environment
        }
    }

    /// Reads an environment or globals export; `file` names it in errors.
    public static func read(_ root: JSONValue, file: String) throws(CollectionError) -> PostmanVariableExport {
        guard let kind = kind(of: root), kind != .collection, let items = root["values"]?.arrayValue else {
            throw .importFailed(source: file, reason: "expected a Postman environment or globals export ('values')")
        }
        let scope: Scope
        if kind == .globals {
            scope = .globals
        } else {
            let name = DataSpelling.oneLine(root["name"]?.stringValue ?? "")
            guard !name.isEmpty, name != EnvironmentSet.sharedName else {
                throw .importFailed(source: file, reason: "the environment has no usable 'name'")
            }
            scope = .environment(name)
        }
        var export = PostmanVariableExport(scope: scope, values: [], notes: [])
        for item in items {
            guard let key = item["key"]?.stringValue else { continue }
            if item["enabled"]?.boolValue == false {
                export.notes.append("\(file): '\(key)' is disabled, left out")
                continue
            }
            guard DataSpelling.isVariableName(key) else {
                export.notes.append("\(file): variable '\(key)' has characters .http names cannot hold, left out")
                continue
            }
            let secret = item["type"]?.stringValue == "secret" || SecretPolicy.isSecretParameter(key)
            let raw = item["value"].map { $0 == .null ? "" : $0.text } ?? ""
            export.values.append(Value(key: key, value: ImportedText(template: raw), isSecret: secret))
        }
        return export
    }

    /// A value of the export as an environment file holds it: Postman's `{{name}}` stays a variable, any other
    /// `{{` is data (an environment value is expanded, so `{{$processEnv HOME}}` must not become a lookup).
    /// `brace` is the variable, defined as `{`, that spells such a brace; `escaped` says whether one was used.
    static func spelled(_ text: ImportedText) -> (text: String, escaped: Bool) {
        DataSpelling.spelled(text, brace: ImportWriter.braceName)
    }
}
