import Foundation

/// The user's defaults from `$XDG_CONFIG_HOME/courier/config.json` (else `~/.config/courier/config.json`):
/// `{"theme": "light", "environment": "dev", "keys": {"global": {"save": "Ctrl-W"}}}`. Command-line options
/// win over these; a missing file is no settings, a malformed one an error naming the file and the line. A bad
/// `"keys"` object is not fatal: it is kept in `keys.problem` and the explorer starts with the default keys.
public struct UserSettings: Sendable, Hashable {
    /// The theme used when `--theme` is not given.
    public var theme: String?
    /// The environment used when `--env` is not given.
    public var environment: String?
    /// The keys the user rebinds.
    public var keys: KeySettings

    /// Creates settings from their parts.
    public init(theme: String? = nil, environment: String? = nil, keys: KeySettings = KeySettings()) {
        self.theme = theme
        self.environment = environment
        self.keys = keys
    }

    /// Keys the file may hold; any other key is reported, so a typo does not pass silently.
    static let knownKeys: Set<String> = ["theme", "environment", "keys"]

    /// `$XDG_CONFIG_HOME/courier/config.json`, else `~/.config/courier/config.json`.
    public static func defaultFile(environment: [String: String]) -> URL {
        let base = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? home(environment).appendingPathComponent(".config")
        return base.appendingPathComponent("courier/config.json")
    }

    /// `$HOME`, else the account's home folder (which reads the password database: not on every start).
    public static func home(_ environment: [String: String]) -> URL {
        environment["HOME"].flatMap { $0.hasPrefix("/") ? URL(fileURLWithPath: $0) : nil }
            ?? FileManager.default.homeDirectoryForCurrentUser
    }

    /// Reads `file`; no file means empty settings.
    public static func load(from file: URL) throws(SettingsError) -> UserSettings {
        guard FileManager.default.fileExists(atPath: file.path) else { return UserSettings() }
        let data: Data
        do { data = try Data(contentsOf: file) } catch {
            throw SettingsError(file: file.path, line: nil, reason: "cannot be read: \(error.localizedDescription)")
        }
        return try parse(data, file: file.path)
    }

    /// Parses the JSON text of a settings file; `file` names it in errors.
    public static func parse(_ data: Data, file: String) throws(SettingsError) -> UserSettings {
        let object: Any
        do { object = try JSONSerialization.jsonObject(with: data) } catch {
            throw SettingsError(file: file, line: line(of: error, in: data), reason: "not valid JSON")
        }
        guard let root = object as? [String: Any] else {
            throw SettingsError(file: file, line: 1, reason: "expected an object like {\"theme\": \"light\"}")
        }
        var settings = UserSettings(keys: KeySettings(file: file))
        for (key, value) in root.sorted(by: { $0.key < $1.key }) {
            guard knownKeys.contains(key) else {
                throw SettingsError(file: file, line: line(ofKey: key, in: data),
                                    reason: "unknown key '\(key)' (known: \(knownKeys.sorted().joined(separator: ", ")))")
            }
            if key == "keys" {
                do { settings.keys.rebindings = try KeySettings.rebindings(in: value, data: data, file: file) } catch {
                    settings.keys.problem = error
                }
                continue
            }
            guard let text = value as? String else {
                throw SettingsError(file: file, line: line(ofKey: key, in: data), reason: "'\(key)' must be a string")
            }
            if key == "theme" { settings.theme = text } else { settings.environment = text }
        }
        return settings
    }

    /// The line of a JSON error: Foundation reports the byte offset ("around character 29").
    private static func line(of error: any Error, in data: Data) -> Int? {
        let text = ((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String) ?? "\(error)"
        guard let range = text.range(of: "character "),
              let offset = Int(text[range.upperBound...].prefix { $0.isNumber }) else { return nil }
        return lineNumber(at: min(offset, data.count), in: data)
    }

    /// The line where `"key"` first appears.
    static func line(ofKey key: String, in data: Data) -> Int? {
        offset(ofKey: key, in: data).map { lineNumber(at: $0, in: data) }
    }

    /// Where `"key"` first appears at or after `start`: a nested key is looked for after its parent's.
    static func offset(ofKey key: String, in data: Data, after start: Int = 0) -> Int? {
        guard start <= data.count else { return nil }
        return data.range(of: Data("\"\(key)\"".utf8), in: start..<data.count)?.lowerBound
    }

    static func lineNumber(at offset: Int, in data: Data) -> Int {
        data.prefix(offset).reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
    }
}
