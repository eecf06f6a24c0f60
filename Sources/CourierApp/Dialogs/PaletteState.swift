import CourierTerminal

/// The command palette: a filter over every action.
public struct PaletteState: Sendable, Hashable {
    public var filter: LineEditor
    public var selection = 0
    public init(filter: String = "") { self.filter = LineEditor(filter) }
}
