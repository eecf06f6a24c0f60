/// `courier export curl: a saved request as a curl command`.
enum ExportCommand {
    static func run(_ arguments: [String]) -> Int32 {
        Console.error("courier: this subcommand is not built yet")
        return 2
    }
}
