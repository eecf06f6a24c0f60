/// A tiled pane of the explorer: its number (the key that focuses it), its name (its key scope in
/// config.json, and `focusName` among the global commands) and its title. A pane defines its own
/// (`Panes/<Pane>/…Pane.swift`); the registry (`PaneRegistry`) lists them.
public struct PaneID: Sendable, Hashable, CustomStringConvertible {
    /// The number the tab strip and the frame show, and the key that focuses the pane.
    public let rawValue: Int
    public let name: String
    public let title: String

    public init(_ number: Int, name: String, title: String) {
        rawValue = number
        self.name = name
        self.title = title
    }

    /// The tiles of the standard explorer, in number order.
    public static var allCases: [PaneID] { PaneRegistry.standard.tiles.map(\.id) }

    /// How help names the pane in a sentence: `focus collection`, but `focus WebSocket` (a name with
    /// capitals inside keeps them).
    public var spoken: String { title.dropFirst().contains(where: \.isUppercase) ? title : title.lowercased() }

    public var description: String { name }
}
