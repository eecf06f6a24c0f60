/// A positional argument of a command, for the help, the completions and the manual page. Commands check
/// how many they were given themselves, since each says what to type in its own terms.
struct ArgumentSpec: Sendable {
    /// The name as the help writes it: `URL`, `FILE.http|FOLDER`.
    let name: String
    let kind: ValueKind
    let optional: Bool
    /// Any number may be given (`[ITEM ...]`).
    let repeatable: Bool
    let help: String

    init(_ name: String, _ kind: ValueKind = .text, optional: Bool = false, repeatable: Bool = false, help: String) {
        self.name = name
        self.kind = kind
        self.optional = optional
        self.repeatable = repeatable
        self.help = help
    }

    /// `[METHOD]`, `URL` or `[ITEM ...]` in a usage line.
    var synopsis: String {
        let word = repeatable ? "\(name) ..." : name
        return optional ? "[\(word)]" : word
    }
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
