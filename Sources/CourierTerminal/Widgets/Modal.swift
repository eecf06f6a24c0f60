/// A box centred over the screen (confirmations, help, the command palette). It clears what is
/// under it; the caller draws the content into the area `render` returns.
public struct Modal: Sendable, Hashable {
    public var title: StyledLine
    public var size: Size
    public var borders: BorderSet
    public var borderStyle: Style
    public var fillStyle: Style

    public init(title: StyledLine, size: Size, borders: BorderSet = .double,
                borderStyle: Style = Style(attributes: .bold), fillStyle: Style = .plain) {
        self.title = title
        self.size = size
        self.borders = borders
        self.borderStyle = borderStyle
        self.fillStyle = fillStyle
    }

    /// A modal whose title is drawn in the border's style.
    public init(title: String, size: Size, borders: BorderSet = .double, borderStyle: Style = Style(attributes: .bold),
                fillStyle: Style = .plain) {
        self.init(title: StyledLine(title, style: borderStyle), size: size, borders: borders, borderStyle: borderStyle,
                  fillStyle: fillStyle)
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
        let block = Block(title: title, borders: borders, borderStyle: borderStyle, fillStyle: fillStyle)
        block.render(into: &buffer, area: frame)
        return block.inner(frame)
    }
}
