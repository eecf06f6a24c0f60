import CourierCollections

/// `courier completions bash|zsh|fish`: a completion script generated from the command tables.
enum CompletionsCommand {
    /// The shells there are scripts for.
    static let shells = ["bash", "zsh", "fish"]

    /// The command's arguments and options, from which its help, parsing and completions are made.
    static let spec = CommandSpec(
        name: "completions", summary: "Print a shell completion script (bash, zsh or fish).",
        arguments: [ArgumentSpec("SHELL", .choice(shells), help: "bash, zsh or fish.")],
        options: [],
        notes: """
            To use it now: source <(courier completions bash). To keep it, write it where the shell looks:
            ~/.local/share/bash-completion/completions/courier, a folder of $fpath as _courier (zsh), or
            ~/.config/fish/completions/courier.fish. `make install` installs all three.
            """)

    static func run(_ arguments: [String]) -> Int32 {
        spec.run(arguments) { args throws(UsageError) in
            guard args.positionals.count == 1, let shell = args.positionals.first else {
                throw UsageError("say which shell: courier completions bash, zsh or fish", command: "completions")
            }
            let commands = CommandLineMain.commands
            switch shell {
            case "bash": Console.out(BashCompletion.script(commands))
            case "zsh": Console.out(ZshCompletion.script(commands))
            case "fish": Console.out(FishCompletion.script(commands))
            default:
                let close = NameSuggestions.closest(to: shell, in: shells)
                let hint = close.isEmpty ? "" : "; did you mean \(ListWording.quoted(close))?"
                throw UsageError("no completions for '\(shell)': bash, zsh or fish\(hint)", command: "completions")
            }
            return 0
        }
    }
}
