/// `courier send [METHOD] URL`: one request, curl/HTTPie style.
enum SendCommand {
    static func run(_ arguments: [String]) -> Int32 {
        Console.error("courier: this subcommand is not built yet")
        return 2
    }
}
