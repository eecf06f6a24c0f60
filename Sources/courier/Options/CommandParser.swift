import CourierCollections

/// Reads a command line against a `CommandSpec`: `--name value`, `--name=value`, `-n value`, `-nvalue`,
/// bundled flags (`-kv`), repeated options and `--` (everything after it is positional). Anything the
/// table does not declare is a usage error that suggests the closest declared name.
struct CommandParser {
    let spec: CommandSpec

    /// The parsed command line, or nil when `-h`/`--help` appears before any `--`.
    func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments? {
        if arguments.prefix(while: { $0 != "--" }).contains(where: { $0 == "--help" || $0 == "-h" }) { return nil }
        var occurrences: [String: [[String]]] = [:]
        var positionals: [String] = []
        var index = 0
        var literal = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if literal || argument == "-" || !argument.hasPrefix("-") {
                positionals.append(argument)
            } else if argument == "--" {
                literal = true
            } else if argument.hasPrefix("--") {
                let (name, inline) = Self.split(argument)
                guard let option = spec.option(named: name) else { throw unknown(name) }
                if option.isFlag, inline != nil { throw UsageError("\(name) takes no value", command: spec.name) }
                let values = try take(option, spelled: name, inline: inline, from: arguments, at: &index)
                occurrences[option.long, default: []].append(values)
            } else {
                // One or more one-letter names: flags bundle (`-kv`); one taking a value ends the bundle and
                // takes the rest of the word, or the next argument (`-o FILE`, `-oFILE`).
                var letters = Substring(argument.dropFirst())
                while let letter = letters.first {
                    letters = letters.dropFirst()
                    guard let option = spec.option(named: "-\(letter)") else { throw unknown("-\(letter)") }
                    if option.isFlag {
                        occurrences[option.long, default: []].append([])
                        continue
                    }
                    let inline = letters.isEmpty ? nil : String(letters)
                    let values = try take(option, spelled: "-\(letter)", inline: inline, from: arguments, at: &index)
                    occurrences[option.long, default: []].append(values)
                    break
                }
            }
        }
        return ParsedArguments(command: spec.name, positionals: positionals, occurrences: occurrences,
                               declared: Set(spec.options.map(\.long)))
    }

    /// `--name=value` as (`--name`, `value`); `--name` as (`--name`, nil).
    private static func split(_ argument: String) -> (String, String?) {
        guard let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }

    /// The option's values: the inline one first, then the arguments that follow (whatever they look like,
    /// so `-d -` or `--var -x=1` keep their value), each checked against its kind.
    private func take(_ option: OptionSpec, spelled name: String, inline: String?, from arguments: [String],
                      at index: inout Int) throws(UsageError) -> [String] {
        var values: [String] = inline.map { [$0] } ?? []
        while values.count < option.values.count {
            guard index < arguments.count else {
                let wanted = option.values.map(\.label).joined(separator: " ")
                throw UsageError("\(name) needs a value: \(name) \(wanted)", command: spec.name)
            }
            values.append(arguments[index])
            index += 1
        }
        for (value, expected) in zip(values, option.values) { try check(value, expected, option: option.long) }
        return values
    }

    private func check(_ value: String, _ expected: ValueSpec, option: String) throws(UsageError) {
        switch expected.kind {
        case .number:
            guard let number = Double(value), number.isFinite, number >= 0 else {
                throw UsageError("\(option) takes a non-negative number, not '\(value)'", command: spec.name)
            }
        case .choice(let words):
            guard words.contains(value) else {
                let close = NameSuggestions.closest(to: value, in: words)
                let hint = close.isEmpty ? "" : "; did you mean \(ListWording.quoted(close))?"
                throw UsageError("\(option) takes one of \(ListWording.alternatives(words)), not '\(value)'\(hint)",
                                 command: spec.name)
            }
        case .text, .file, .directory, .subcommand:
            break
        }
    }

    /// `unknown option '--timout'; did you mean '--timeout'?`
    private func unknown(_ name: String) -> UsageError {
        // Compared without the dashes, which every long name shares and which would make any two look alike.
        let words = spec.options.map { String($0.long.dropFirst(2)) }
        let close = name.hasPrefix("--") ? NameSuggestions.closest(to: String(name.dropFirst(2)), in: words)
            .map { "--" + $0 } : []
        let hint = close.isEmpty ? "" : "; did you mean \(ListWording.quoted(close))?"
        return UsageError("unknown option '\(name)'\(hint)", command: spec.name)
    }
}
