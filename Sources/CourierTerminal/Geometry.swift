/// A point on the screen, column `x` and row `y`, from the top left.
public struct Position: Sendable, Hashable {
    public var x: Int
    public var y: Int
    public init(x: Int, y: Int) { self.x = x; self.y = y }
}

/// A width and a height in cells.
public struct Size: Sendable, Hashable {
    public var width: Int
    public var height: Int
    public init(width: Int, height: Int) { self.width = width; self.height = height }
}

/// A rectangle of cells. Empty when width or height is zero.
public struct Rect: Sendable, Hashable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    public init(size: Size) { self.init(x: 0, y: 0, width: size.width, height: size.height) }

    public var size: Size { Size(width: width, height: height) }
    public var isEmpty: Bool { width == 0 || height == 0 }
    public var maxX: Int { x + width }
    public var maxY: Int { y + height }

    public func contains(_ p: Position) -> Bool { p.x >= x && p.x < maxX && p.y >= y && p.y < maxY }

    /// The rectangle shrunk by `by` cells on every side.
    public func inset(_ by: Int) -> Rect { inset(horizontal: by, vertical: by) }
    public func inset(horizontal: Int, vertical: Int) -> Rect {
        Rect(x: x + horizontal, y: y + vertical, width: width - 2 * horizontal, height: height - 2 * vertical)
    }

    /// The overlap of two rectangles (empty when they do not meet).
    public func intersection(_ other: Rect) -> Rect {
        let left = max(x, other.x), top = max(y, other.y)
        let right = min(maxX, other.maxX), bottom = min(maxY, other.maxY)
        return Rect(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// One row of the rectangle, relative to its top.
    public func row(_ index: Int) -> Rect { Rect(x: x, y: y + index, width: width, height: index < height ? 1 : 0) }
}
