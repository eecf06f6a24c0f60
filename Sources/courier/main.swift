import Foundation

// The courier command line: dispatches to one subcommand.
exit(CommandLineMain.run(Array(CommandLine.arguments.dropFirst())))
