/// The `"keys"` object of config.json as written: which command of which scope gets which keys.
/// Names and key spellings are checked when the rebindings are applied (`KeyTables.rebound(by:)`), which
/// knows the tables; the shape of the object is checked when the file is read.
public struct KeySettings: Sendable, Hashable {
    /// One `"command": "key"` line of a scope.
    public struct Rebinding: Sendable, Hashable {
        public var scope: String
        public var command: String
        /// The keys as written; empty unbinds the command (`null`, `"none"` or `[]`).
        public var keys: [String]
        /// The line of the command's name in the file, for errors.
        public var line: Int?

        /// Creates a rebinding from its parts.
        public init(scope: String, command: String, keys: [String], line: Int? = nil) {
            self.scope = scope
            self.command = command
            self.keys = keys
            self.line = line
        }
    }

    /// The file the rebindings came from, for errors and notices.
    public var file: String
    /// In the order of the file.
    public var rebindings: [Rebinding]
    /// Why the `"keys"` object could not be read; the explorer then starts with the default keys.
    public var problem: SettingsError?

    /// Creates key settings from their parts.
    public init(file: String = "config.json", rebindings: [Rebinding] = [], problem: SettingsError? = nil) {
        self.file = file
        self.rebindings = rebindings
        self.problem = problem
    }
}
