/// A positional argument of a command, for the help, the completions and the manual page. Commands check
/// how many they were given themselves, since each says what to type in its own terms.
struct ArgumentSpec: Sendable {
    /// The name as the help writes it: `URL`, `FILE.http|FOLDER`.
    let name: String
    let kind: ValueKind
    let optional: Bool
    let help: String

    init(_ name: String, _ kind: ValueKind = .text, optional: Bool = false, help: String) {
        self.name = name
        self.kind = kind
        self.optional = optional
        self.help = help
    }

    /// `[METHOD]` or `URL` in a usage line.
    var synopsis: String { optional ? "[\(name)]" : name }
}

/// A word that selects what a command does (`courier cache show URL`), with its own usage line.
struct SubcommandSpec: Sendable {
    let name: String
    /// What follows the word in the usage line: `URL`, `[TEXT]`.
    let arguments: String
    /// The long names of the options that apply, in usage order.
    let options: [String]
    let summary: String

    init(_ name: String, arguments: String = "", options: [String] = [], summary: String) {
        self.name = name
        self.arguments = arguments
        self.options = options
        self.summary = summary
    }
}
