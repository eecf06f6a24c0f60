import Foundation

extension KeySettings {
    /// Reads the `"keys"` value of config.json: `{"<scope>": {"<command>": "<key>" | ["<key>", …] | null}}`.
    /// `"none"`, `null` and `[]` unbind. Only the shape is checked here; `data` locates lines for errors.
    static func rebindings(in value: Any, data: Data, file: String) throws(SettingsError) -> [Rebinding] {
        let keysOffset = UserSettings.offset(ofKey: "keys", in: data) ?? 0
        func line(_ offset: Int?) -> Int? { offset.map { UserSettings.lineNumber(at: $0, in: data) } }
        guard let scopes = value as? [String: Any] else {
            throw SettingsError(file: file, line: line(keysOffset),
                                reason: #"'keys' must be an object like {"global": {"save": "Ctrl-W"}}"#)
        }
        var rebindings: [Rebinding] = []
        for (scope, commands) in scopes {
            let scopeOffset = UserSettings.offset(ofKey: scope, in: data, after: keysOffset)
            guard let commands = commands as? [String: Any] else {
                throw SettingsError(file: file, line: line(scopeOffset),
                                    reason: #"keys of '\#(scope)' must be an object like {"save": "Ctrl-W"}"#)
            }
            for (command, keys) in commands {
                let commandLine = line(UserSettings.offset(ofKey: command, in: data, after: scopeOffset ?? keysOffset))
                guard let keys = spellings(keys) else {
                    throw SettingsError(file: file, line: commandLine,
                                        reason: "'\(scope)' '\(command)' must be a key like \"Ctrl-W\", a list of "
                                            + "keys, or null to unbind it")
                }
                rebindings.append(Rebinding(scope: scope, command: command, keys: keys, line: commandLine))
            }
        }
        // Dictionaries lose the file's order; errors and notices follow it.
        return rebindings.sorted { ($0.line ?? 0, $0.scope, $0.command) < ($1.line ?? 0, $1.scope, $1.command) }
    }

    /// The keys a value spells: one string, a list of strings, or nothing (`null`, `"none"`).
    private static func spellings(_ value: Any) -> [String]? {
        if value is NSNull { return [] }
        if let text = value as? String { return text.lowercased() == "none" ? [] : [text] }
        if let list = value as? [Any] {
            let texts = list.compactMap { $0 as? String }
            return texts.count == list.count ? texts : nil
        }
        return nil
    }
}
