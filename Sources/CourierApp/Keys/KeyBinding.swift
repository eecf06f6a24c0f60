import CourierTerminal

/// One row of a keymap table: the keys, what they do, and whether the status bar hints at it.
/// The same table drives dispatch, the status bar and the `?` help screen, so they cannot drift.
public struct KeyBinding<Command: Sendable & Hashable>: Sendable, Hashable {
    public var keys: [Key]
    public var command: Command
    /// What help says, in a few words ("send request", "search").
    public var help: String
    /// Shown in the status bar's hints when the pane has focus.
    public var hint: Bool

    public init(_ keys: [Key], _ command: Command, _ help: String, hint: Bool = false) {
        self.keys = keys
        self.command = command
        self.help = help
        self.hint = hint
    }

    /// How help spells the keys: `j/↓`.
    public var keyLabel: String { keys.map(\.description).joined(separator: "/") }
}

extension Array {
    /// The command bound to `key` in a keymap table.
    public func command<Command>(for key: Key) -> Command? where Element == KeyBinding<Command> {
        first { $0.keys.contains(key) }?.command
    }
}
