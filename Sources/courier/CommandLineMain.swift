import CourierHTTP
import Foundation

/// Parses the first word of the command line and runs that subcommand. Each subcommand lives in its
/// own file, declares its options in a `CommandSpec` and returns the process exit code: 0 success,
/// 1 request failed, 2 usage.
enum CommandLineMain {
    /// A subcommand by name, its table built only when asked for: dispatching `courier send` need not
    /// build every other command's options and help (4% of a one-shot send's CPU).
    struct Subcommand: Sendable {
        let name: String
        private let makeSpec: @Sendable () -> CommandSpec
        let run: @Sendable ([String]) -> Int32
        var spec: CommandSpec { makeSpec() }

        init(_ name: String, spec: @autoclosure @escaping @Sendable () -> CommandSpec,
             run: @escaping @Sendable ([String]) -> Int32) {
            self.name = name
            makeSpec = spec
            self.run = run
        }
    }

    /// Every subcommand, in the order the help lists them.
    static let subcommands: [Subcommand] = [
        Subcommand("send", spec: SendCommand.spec, run: SendCommand.run),
        Subcommand("run", spec: RunCommand.spec, run: RunCommand.run),
        Subcommand("load", spec: LoadCommand.spec, run: LoadCommand.run),
        Subcommand("check", spec: CheckCommand.spec, run: CheckCommand.run),
        Subcommand("ws", spec: WSCommand.spec, run: WSCommand.run),
        Subcommand("grpc", spec: GRPCCommand.spec, run: GRPCCommand.run),
        Subcommand("demo", spec: ExplorerCommand.demoSpec, run: ExplorerCommand.demo),
        Subcommand("serve-demo", spec: ServeDemoCommand.spec, run: ServeDemoCommand.run),
        Subcommand("import", spec: ImportCommand.spec, run: ImportCommand.run),
        Subcommand("export", spec: ExportCommand.spec, run: ExportCommand.run),
        Subcommand("cache", spec: CacheCommand.spec, run: CacheCommand.run),
        Subcommand("history", spec: HistoryCommand.spec, run: HistoryCommand.run),
        Subcommand("cookies", spec: CookiesCommand.spec, run: CookiesCommand.run),
        Subcommand("auth", spec: AuthCommand.spec, run: AuthCommand.run),
        Subcommand("completions", spec: CompletionsCommand.spec, run: CompletionsCommand.run),
        Subcommand("help", spec: HelpCommand.spec, run: HelpCommand.run),
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
