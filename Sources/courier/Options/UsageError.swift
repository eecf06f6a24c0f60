/// A mistake on the command line: one format for every command (`Error: …` and a hint at the help on
/// standard error) and exit status 2.
struct UsageError: Error {
    let message: String
    /// The subcommand, empty for `courier` itself.
    let command: String
    init(_ message: String, command: String) { self.message = message; self.command = command }

    /// Prints the error and the hint to standard error and returns exit status 2.
    func report() -> Int32 {
        let invocation = command.isEmpty ? "courier" : "courier \(command)"
        Console.fail("\(message)\nHelp:  \(invocation) --help")
        return 2
    }
}
