/// A settings file that could not be used: `config.json:3: not valid JSON`.
public struct SettingsError: Error, Sendable, Hashable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var reason: String

    /// Creates the error from its parts.
    public init(file: String, line: Int?, reason: String) {
        self.file = file
        self.line = line
        self.reason = reason
    }

    public var description: String { "\(file)\(line.map { ":\($0)" } ?? ""): \(reason)" }
}
