import CourierHTTP
import Foundation

/// Parses the first word of the command line and runs that subcommand. Each subcommand lives in its
/// own file and returns the process exit code: 0 success, 1 request failed, 2 usage.
enum CommandLineMain {
    /// Subcommands with their one-line summaries, for the top-level help.
    static let subcommands: [(name: String, summary: String, run: @Sendable ([String]) -> Int32)] = [
        ("send", "Send one request, curl/HTTPie style.", SendCommand.run),
        ("run", "Run saved requests from a .http file headless.", RunCommand.run),
        ("check", "Check .http files without sending; list problems as file:line.", CheckCommand.run),
        ("ws", "Open a WebSocket, send and print messages.", WSCommand.run),
        ("demo", "Start the demo server and open the explorer on the demo collection.", ExplorerCommand.demo),
        ("serve-demo", "Run the embedded demo server alone.", ServeDemoCommand.run),
        ("import", "Convert a curl command or a Postman collection to .http.", ImportCommand.run),
        ("export", "Export a saved request as a curl command.", ExportCommand.run),
        ("cache", "List, show or clear the HTTP cache.", CacheCommand.run),
        ("history", "List and show past responses.", HistoryCommand.run),
        ("cookies", "List or clear the cookie jars kept per environment.", CookiesCommand.run),
    ]

    static func run(_ arguments: [String]) -> Int32 {
        guard let first = arguments.first else { return ExplorerCommand.open([]) }
        let rest = Array(arguments.dropFirst())
        if first == "--help" || first == "-h" || first == "help" {
            Console.out(help)
            return 0
        }
        if first == "--version" || first == "-V" || first == "version" {
            Console.out("courier \(CourierVersion.current)")
            return 0
        }
        if let subcommand = subcommands.first(where: { $0.name == first }) { return subcommand.run(rest) }
        if first.hasPrefix("-") && first != "--theme" {
            return UsageError("unknown option '\(first)'", command: "").report()
        }
        return ExplorerCommand.open(arguments)
    }

    static var help: String {
        let width = subcommands.map(\.name.count).max() ?? 0
        let lines = subcommands.map { "  " + $0.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + $0.summary }
        return """
        OVERVIEW: Courier, a terminal API explorer.

        USAGE: courier [PATH] [--theme NAME]
               courier <subcommand> [options]

        ARGUMENTS:
          PATH    A .http file or a folder of them (default: ./Collections).

        SUBCOMMANDS:
        \(lines.joined(separator: "\n"))

          See 'courier <subcommand> --help' for each; 'courier --version' prints the version.
        """
    }
}
