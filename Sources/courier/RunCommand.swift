/// `courier run FILE.http: saved requests headless`.
enum RunCommand {
    static func run(_ arguments: [String]) -> Int32 {
        Console.error("courier: this subcommand is not built yet")
        return 2
    }
}
