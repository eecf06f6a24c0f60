import CourierTerminal

/// The titles on a pane's frame, `╭─ 3 Response · body ──── ● open ─╮`: the one frame every pane and
/// dialog has, drawn by the `Block` widget in the theme's border and title styles (thick when focused).
public struct PaneFrame: Sendable, Hashable {
    public var title: String
    /// The pane's number, the key that focuses it; nil for what is not a pane (history, dialogs).
    public var number: Int?
    /// A title on the right (a connection's state), dropped before the left title is cut short.
    public var rightTitle: StyledLine

    public init(_ title: String, number: Int? = nil, rightTitle: StyledLine = StyledLine()) {
        self.title = title
        self.number = number
        self.rightTitle = rightTitle
    }

    /// The frame as a block in `theme`'s styles.
    public func block(theme: Theme, focused: Bool) -> Block {
        let label = number.map { "\($0) \(title)" } ?? title
        return Block(title: StyledLine(label, style: focused ? theme.titleFocused : theme.title), rightTitle: rightTitle,
                     borders: focused ? .thick : .rounded, borderStyle: focused ? theme.borderFocused : theme.border)
    }

    /// Draws the frame around `area` and returns the inside.
    @discardableResult
    public func render(into buffer: inout Buffer, area: Rect, theme: Theme, focused: Bool) -> Rect {
        let block = block(theme: theme, focused: focused)
        block.render(into: &buffer, area: area)
        return block.inner(area)
    }
}
