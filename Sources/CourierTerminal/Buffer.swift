import CourierSecurity
/// A grid of cells that views draw into. Drawing outside the buffer is ignored, so widgets can
/// clip by construction. The backend diffs two buffers and writes only what changed.
public struct Buffer: Sendable, Hashable {
    public private(set) var area: Rect
    public private(set) var cells: [Cell]

    public init(size: Size, fill: Cell = .blank) {
        area = Rect(size: size)
        cells = Array(repeating: fill, count: max(0, size.width * size.height))
    }

    public var size: Size { area.size }

    public subscript(x: Int, y: Int) -> Cell {
        get { area.contains(Position(x: x, y: y)) ? cells[y * area.width + x] : .blank }
        set { if area.contains(Position(x: x, y: y)) { cells[y * area.width + x] = newValue } }
    }

    /// Sets the style of every cell in `rect`, keeping the characters.
    public mutating func setStyle(_ style: Style, in rect: Rect) {
        let clipped = rect.intersection(area)
        for y in clipped.y..<clipped.maxY { for x in clipped.x..<clipped.maxX { self[x, y].style = style } }
    }

    /// Fills `rect` with `cell`.
    /// Gives every cell left in the terminal's own colours `base`'s instead: a theme's foreground and
    /// background cover the whole screen, so it never depends on the terminal's.
    public mutating func applyBase(_ base: Style) {
        guard base.foreground != .default || base.background != .default else { return }
        for index in cells.indices {
            if cells[index].style.foreground == .default { cells[index].style.foreground = base.foreground }
            if cells[index].style.background == .default { cells[index].style.background = base.background }
        }
    }

    public mutating func fill(_ rect: Rect, with cell: Cell = .blank) {
        let clipped = rect.intersection(area)
        for y in clipped.y..<clipped.maxY { for x in clipped.x..<clipped.maxX { self[x, y] = cell } }
    }

    /// Writes `text` on one row from `x`, clipped to `maxWidth` columns and the buffer. Control characters
    /// and escape sequences are drawn as visible symbols, never passed through. Returns the columns used.
    @discardableResult
    public mutating func write(_ text: some StringProtocol, x: Int, y: Int, style: Style = .plain,
                               maxWidth: Int? = nil) -> Int {
        let limit = min(maxWidth ?? Int.max, area.maxX - x)
        guard y >= 0, y < area.height, limit > 0 else { return 0 }
        var column = 0
        for character in text {
            for visible in Sanitizer.visible(character) {
                let width = DisplayWidth.of(visible)
                if width == 0 { continue }
                if column + width > limit { return column }
                if x + column >= 0 { put(Cell(String(visible), width: UInt8(width), style: style), x: x + column, y: y) }
                column += width
            }
        }
        return column
    }

    /// The buffer as lines of text, trailing spaces trimmed: what a person would read on the screen.
    public func lines(trimTrailing: Bool = true) -> [String] {
        (0..<area.height).map { y in
            var line = ""
            for x in 0..<area.width where !self[x, y].isContinuation { line += self[x, y].grapheme }
            guard trimTrailing else { return line }
            while line.last == " " { line.removeLast() }
            return line
        }
    }

    /// The buffer as one string, rows joined by newlines.
    public var text: String { lines().joined(separator: "\n") }
}
