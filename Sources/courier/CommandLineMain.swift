import CourierHTTP
import Foundation

/// Parses the first word of the command line and runs that subcommand. Each subcommand lives in its
/// own file, declares its options in a `CommandSpec` and returns the process exit code: 0 success,
/// 1 request failed, 2 usage.
enum CommandLineMain {
    /// A subcommand: its table and what runs it.
    struct Subcommand: Sendable {
        let spec: CommandSpec
        let run: @Sendable ([String]) -> Int32
        var name: String { spec.name }
    }

    /// Every subcommand, in the order the help lists them.
    static let subcommands: [Subcommand] = [
        Subcommand(spec: SendCommand.spec, run: SendCommand.run),
        Subcommand(spec: RunCommand.spec, run: RunCommand.run),
        Subcommand(spec: LoadCommand.spec, run: LoadCommand.run),
        Subcommand(spec: CheckCommand.spec, run: CheckCommand.run),
        Subcommand(spec: WSCommand.spec, run: WSCommand.run),
        Subcommand(spec: GRPCCommand.spec, run: GRPCCommand.run),
        Subcommand(spec: ExplorerCommand.demoSpec, run: ExplorerCommand.demo),
        Subcommand(spec: ServeDemoCommand.spec, run: ServeDemoCommand.run),
        Subcommand(spec: ImportCommand.spec, run: ImportCommand.run),
        Subcommand(spec: ExportCommand.spec, run: ExportCommand.run),
        Subcommand(spec: CacheCommand.spec, run: CacheCommand.run),
        Subcommand(spec: HistoryCommand.spec, run: HistoryCommand.run),
        Subcommand(spec: CookiesCommand.spec, run: CookiesCommand.run),
        Subcommand(spec: AuthCommand.spec, run: AuthCommand.run),
        Subcommand(spec: CompletionsCommand.spec, run: CompletionsCommand.run),
        Subcommand(spec: HelpCommand.spec, run: HelpCommand.run),
    ]

    /// The tables of `courier` itself and of every subcommand, for the completions and the manual page.
    static var commands: [CommandSpec] { [ExplorerCommand.spec] + subcommands.map(\.spec) }

    static func run(_ arguments: [String]) -> Int32 {
        guard let first = arguments.first else { return ExplorerCommand.open([]) }
        let rest = Array(arguments.dropFirst())
        if first == "--help" || first == "-h" {
            Console.out(help)
            return 0
        }
        if first == "--version" || first == "-V" || first == "version" { return printVersion() }
        if let subcommand = subcommands.first(where: { $0.name == first }) { return subcommand.run(rest) }
        return ExplorerCommand.open(arguments)
    }

    /// `courier --help`: the explorer's arguments and options, then every subcommand.
    static var help: String { HelpText.render(ExplorerCommand.spec, commands: subcommands.map(\.spec)) }

    static func printVersion() -> Int32 {
        Console.out("courier \(CourierVersion.current)")
        return 0
    }
}
