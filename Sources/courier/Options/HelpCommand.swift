/// `courier help [SUBCOMMAND]` and `courier help --man`: the help of any command, or the manual page, all
/// generated from the tables.
enum HelpCommand {
    /// The command's arguments and options, from which its help, parsing and completions are made.
    static let spec = CommandSpec(
        name: "help", summary: "Show the help of courier or of a subcommand, or the manual page.",
        arguments: [ArgumentSpec("SUBCOMMAND", .subcommand, optional: true,
                                 help: "The subcommand whose help to show.")],
        options: [.flag("--man", help: "Print the manual page (roff), as `make man` writes docs/courier.1.")])

    static func run(_ arguments: [String]) -> Int32 {
        spec.run(arguments) { args throws(UsageError) in
            if args.flag("--man") {
                Console.out(ManPage.render(CommandLineMain.commands))
                return 0
            }
            guard let name = args.positionals.first else {
                Console.out(CommandLineMain.help)
                return 0
            }
            guard args.positionals.count == 1,
                  let subcommand = CommandLineMain.subcommands.first(where: { $0.name == name }) else {
                throw UsageError("no subcommand '\(args.positionals.joined(separator: " "))'; try: courier help send",
                                 command: "help")
            }
            Console.out(HelpText.render(subcommand.spec))
            return 0
        }
    }
}
