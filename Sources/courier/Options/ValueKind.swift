/// What a value on the command line is. It decides how the value is checked, how a shell completes it and
/// how the help and the manual page describe it.
enum ValueKind: Sendable, Equatable {
    /// Any text.
    case text
    /// A non-negative number (seconds, counts).
    case number
    /// A path to a file (or a folder of files): shells complete file names.
    case file
    /// A path to a folder: shells complete folder names.
    case directory
    /// One of a fixed set of words.
    case choice([String])
    /// The name of a `courier` subcommand (`courier help send`).
    case subcommand

    /// The words a shell may offer, when the value is one of a fixed set.
    var choices: [String] {
        if case .choice(let words) = self { return words }
        return []
    }
}

/// One value an option or a positional argument takes: its name in the help and what it is.
struct ValueSpec: Sendable {
    let name: String
    let kind: ValueKind

    init(_ name: String, _ kind: ValueKind = .text) {
        self.name = name
        self.kind = kind
    }

    /// How the help writes it: a single allowed word is written as itself (`--report junit FILE`).
    var label: String { kind.choices.count == 1 ? kind.choices[0] : name }
}
