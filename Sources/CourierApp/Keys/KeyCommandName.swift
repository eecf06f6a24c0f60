/// A command with the stable name config.json rebinds it by (`"save"`, `"focusCollection"`).
public protocol KeyCommandName: Sendable, Hashable {
    /// The command's name in config.json and in the `?` help screen.
    var name: String { get }
}

extension KeyCommandName {
    /// The Swift case name, which is camelCase and unique in its enum; commands with a payload say their own.
    public var name: String { String(describing: self) }
}

extension GlobalCommand: KeyCommandName {
    public var name: String {
        switch self {
        case .focus(let pane): "focus" + pane.name.prefix(1).uppercased() + pane.name.dropFirst()
        default: String(describing: self)
        }
    }
}
