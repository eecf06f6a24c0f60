/// One option of a command, declared once: the parser, the help, the completions and the manual page all
/// read it. A flag takes no value; `--report junit FILE` takes two.
struct OptionSpec: Sendable {
    /// The long name with its dashes: `--header`.
    let long: String
    /// The one-letter name, if any: `H` for `-H`.
    let short: Character?
    /// The values it takes, in order; empty for a flag.
    let values: [ValueSpec]
    /// Whether giving it again adds a value rather than replacing the last one.
    let repeatable: Bool
    let help: String
    /// What applies when the option is not given, as the help says it.
    let defaultValue: String?

    /// A switch: `--json`, `-k, --insecure`.
    static func flag(_ long: String, short: Character? = nil, help: String) -> OptionSpec {
        OptionSpec(long: long, short: short, values: [], repeatable: false, help: help, defaultValue: nil)
    }

    /// An option with one value: `--timeout SECONDS`.
    static func option(_ long: String, short: Character? = nil, _ value: String, _ kind: ValueKind = .text,
                       repeatable: Bool = false, default defaultValue: String? = nil, help: String) -> OptionSpec {
        OptionSpec(long: long, short: short, values: [ValueSpec(value, kind)], repeatable: repeatable, help: help,
                   defaultValue: defaultValue)
    }

    /// An option with several values in a row: `--report junit FILE`.
    static func option(_ long: String, values: [ValueSpec], repeatable: Bool = false, help: String) -> OptionSpec {
        OptionSpec(long: long, short: nil, values: values, repeatable: repeatable, help: help, defaultValue: nil)
    }

    /// `-h, --help`, which every command has.
    static let help = OptionSpec.flag("--help", short: "h", help: "Show this help.")

    var isFlag: Bool { values.isEmpty }

    /// `-H, --header 'Name: value'` as the help and the usage line write it.
    var label: String {
        let names = short.map { "-\($0), \(long)" } ?? long
        return ([names] + values.map(\.label)).joined(separator: " ")
    }

    /// `--name NAME` for a usage line (the long name only).
    var synopsis: String { ([long] + values.map(\.label)).joined(separator: " ") }

    /// The help with what the table knows added: the default, the allowed words, repetition.
    var fullHelp: String {
        var notes: [String] = []
        if let defaultValue { notes.append("default: \(defaultValue)") }
        for value in values where value.kind.choices.count > 1 {
            notes.append("\(value.name): \(ListWording.alternatives(value.kind.choices))")
        }
        if repeatable { notes.append("repeatable") }
        return ListWording.appending(notes, to: help)
    }
}
