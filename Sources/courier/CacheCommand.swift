/// `courier cache ls|show|clear: the HTTP cache`.
enum CacheCommand {
    static func run(_ arguments: [String]) -> Int32 {
        Console.error("courier: this subcommand is not built yet")
        return 2
    }
}
