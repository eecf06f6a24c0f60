import Foundation

// The courier command line: dispatches to one subcommand. The crash reporter comes first, before any
// subcommand can take over the terminal.
CrashReporting.start(arguments: CommandLine.arguments)
exit(CommandLineMain.run(Array(CommandLine.arguments.dropFirst())))
