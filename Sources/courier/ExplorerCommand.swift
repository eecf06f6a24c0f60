/// `courier [PATH]` and `courier demo`: the explorer.
enum ExplorerCommand {
    static func open(_ arguments: [String]) -> Int32 {
        Console.error("courier: the explorer is not built yet")
        return 2
    }

    static func demo(_ arguments: [String]) -> Int32 {
        Console.error("courier: the explorer is not built yet")
        return 2
    }
}
