/// Everything one `courier` command takes, declared once in the manner of swift-argument-parser's
/// `CommandConfiguration`: its help, its parsing, its usage errors, the shell completions and the manual
/// page are all generated from it.
struct CommandSpec: Sendable {
    /// The word after `courier`; empty for `courier` itself (the explorer).
    let name: String
    /// The one line the top-level help lists.
    let summary: String
    /// The OVERVIEW line of the command's help.
    let overview: String
    /// Paragraphs between the overview and the usage.
    let discussion: String?
    let arguments: [ArgumentSpec]
    /// The options; `-h, --help` is added to every command.
    let options: [OptionSpec]
    let subcommands: [SubcommandSpec]
    /// Paragraphs after the options: exit codes, where files live. Made when the help or the manual page is
    /// written, not when the command starts: building them was a tenth of a millisecond of every `courier send`.
    var notes: String? { makeNotes() }
    private let makeNotes: @Sendable () -> String?

    init(name: String, summary: String, overview: String? = nil, discussion: String? = nil,
         arguments: [ArgumentSpec] = [], options: [OptionSpec], subcommands: [SubcommandSpec] = [],
         notes: @autoclosure @escaping @Sendable () -> String? = nil) {
        self.name = name
        self.summary = summary
        self.overview = overview ?? summary
        self.discussion = discussion
        self.arguments = arguments
        self.options = options + [.help]
        self.subcommands = subcommands
        makeNotes = notes
    }

    /// `courier send`, or `courier` for the explorer.
    var invocation: String { name.isEmpty ? "courier" : "courier \(name)" }

    /// The option called `--name` or `-n`.
    func option(named name: String) -> OptionSpec? {
        if name.hasPrefix("--") { return options.first { $0.long == name } }
        guard name.count == 2, name.hasPrefix("-"), let letter = name.last else { return nil }
        return options.first { $0.short == letter }
    }

    /// The usage lines: one per subcommand word, else the arguments followed by `[options]`.
    var usage: [String] {
        guard subcommands.isEmpty else {
            return subcommands.map { subcommand in
                let options = subcommand.options.compactMap { self.option(named: $0) }.map { "[\($0.synopsis)]" }
                return ([invocation, subcommand.name, subcommand.arguments] + options)
                    .filter { !$0.isEmpty }.joined(separator: " ")
            }
        }
        return [([invocation] + arguments.map(\.synopsis) + ["[options]"]).joined(separator: " ")]
    }

    /// Reads the command line against the table; nil when `-h` or `--help` asked for the help.
    func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments? {
        try CommandParser(spec: self).parse(arguments)
    }

    /// Parses and runs `body` with what was given; prints the help instead when it was asked for, and any
    /// usage error (the parser's or the body's) in the one format, with exit status 2.
    func run(_ arguments: [String], _ body: (ParsedArguments) throws(UsageError) -> Int32) -> Int32 {
        do {
            guard let parsed = try parse(arguments) else {
                Console.out(HelpText.render(self))
                return 0
            }
            return try body(parsed)
        } catch {
            return error.report()
        }
    }

    /// As `run`, for a body that may also fail for other reasons (a file it cannot read, a store it cannot
    /// open): those print `Error: …` and end with exit status 1.
    func run(_ arguments: [String], failing body: (ParsedArguments) throws -> Int32) -> Int32 {
        run(arguments) { args throws(UsageError) in
            do {
                return try body(args)
            } catch let error as UsageError {
                throw error
            } catch {
                Console.fail("\(error)")
                return 1
            }
        }
    }
}

extension CommandSpec {
    /// What each positional argument is, for completion: the subcommand word first when there are
    /// subcommands (then a file when any of them takes one), else the declared arguments in order.
    var positionalKinds: [ValueKind] {
        guard subcommands.isEmpty else {
            let takesFile = arguments.contains { $0.kind == .file }
            return [.choice(subcommands.map(\.name))] + (takesFile ? [.file] : [])
        }
        return arguments.map(\.kind)
    }
}
