/// A pane's command with its type set aside, so the palette, help and the key tables hold every pane's
/// commands alike; the pane that owns `scope` gets its own type back (`command(as:)`).
public struct PaneCommand: KeyCommandName, CustomStringConvertible {
    public let scope: KeyScope
    private let base: any KeyCommandName

    public init<Command: KeyCommandName>(_ scope: KeyScope, _ command: Command) {
        self.scope = scope
        base = command
    }

    /// The command as its pane's type, or nil when it is another's.
    public func command<Command: KeyCommandName>(as type: Command.Type) -> Command? { base as? Command }

    /// The command's name in config.json and in help.
    public var name: String { base.name }

    public var description: String { "\(scope).\(name)" }

    public static func == (a: PaneCommand, b: PaneCommand) -> Bool { a.scope == b.scope && a.base.isEqual(to: b.base) }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(scope)
        base.hash(into: &hasher)
    }
}

extension KeyCommandName {
    /// Whether `other` is this command (of the same type).
    func isEqual(to other: any KeyCommandName) -> Bool { (other as? Self) == self }
}
