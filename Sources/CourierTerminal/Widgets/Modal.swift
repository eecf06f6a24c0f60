/// A box centred over the screen (confirmations, help, the command palette). It clears what is
/// under it; the caller draws the content into `inner`.
public struct Modal: Sendable, Hashable {
    public var title: String
    public var size: Size
    public var borderStyle: Style
    public var fillStyle: Style

    public init(title: String, size: Size, borderStyle: Style = Style(attributes: .bold),
                fillStyle: Style = .plain) {
        self.title = title
        self.size = size
        self.borderStyle = borderStyle
        self.fillStyle = fillStyle
    }

    /// The box's rectangle in `screen`: the asked size, shrunk to leave a one-cell margin.
    public func frame(in screen: Rect) -> Rect {
        let limit = screen.inset(1)
        return screen.centered(Size(width: Swift.min(size.width, Swift.max(limit.width, 2)),
                                    height: Swift.min(size.height, Swift.max(limit.height, 2))))
    }

    /// Draws the box and returns the area inside it for content.
    @discardableResult
    public func render(into buffer: inout Buffer, screen: Rect) -> Rect {
        let frame = frame(in: screen)
        let block = Block(title: StyledLine(title, style: borderStyle), borders: .double, borderStyle: borderStyle,
                          fillStyle: fillStyle)
        buffer.fill(frame, with: Cell(" ", style: fillStyle))
        block.render(into: &buffer, area: frame)
        return block.inner(frame)
    }
}
