/// A command's `--help`, generated from its table in swift-argument-parser's layout: OVERVIEW, USAGE,
/// ARGUMENTS, OPTIONS, SUBCOMMANDS, then the notes. Help text is never written by hand.
enum HelpText {
    /// Where the help column starts, and how wide the text may run.
    static let column = 26
    static let width = 104

    static func render(_ spec: CommandSpec, commands: [CommandSpec] = []) -> String {
        var sections = [wrap("OVERVIEW: " + spec.overview, width: width).joined(separator: "\n")]
        if let discussion = spec.discussion { sections.append(discussion) }
        let usage = spec.usage + (commands.isEmpty ? [] : ["\(spec.invocation) SUBCOMMAND [options]"])
        sections.append("USAGE: " + usage.joined(separator: "\n       "))
        if !spec.arguments.isEmpty {
            sections.append("ARGUMENTS:\n" + spec.arguments.map { row($0.name, $0.help) }.joined(separator: "\n"))
        }
        sections.append("OPTIONS:\n" + spec.options.map { row($0.label, $0.fullHelp) }.joined(separator: "\n"))
        let words = spec.subcommands.map { ($0.name, $0.summary) } + commands.map { ($0.name, $0.summary) }
        if !words.isEmpty {
            sections.append("SUBCOMMANDS:\n" + words.map { row($0.0, $0.1) }.joined(separator: "\n"))
        }
        if let notes = spec.notes { sections.append(notes) }
        return sections.joined(separator: "\n\n")
    }

    /// `  LABEL   help…`, the help wrapped in its column; a label too long for the column gets its own line.
    static func row(_ label: String, _ help: String) -> String {
        let lines = wrap(help, width: width - column)
        let indent = String(repeating: " ", count: column)
        let head = "  " + label
        var rows: [String]
        if head.count + 2 <= column {
            rows = [head.padding(toLength: column, withPad: " ", startingAt: 0) + (lines.first ?? "")]
        } else {
            rows = [head, indent + (lines.first ?? "")]
        }
        rows += lines.dropFirst().map { indent + $0 }
        return rows.joined(separator: "\n")
    }

    /// The words of `text` in lines of at most `width` characters (a longer word gets a line of its own).
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            if line.isEmpty {
                line = String(word)
            } else if line.count + 1 + word.count <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = String(word)
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}
