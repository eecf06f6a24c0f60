/// One cell the backend must write: where, and what.
public struct CellChange: Sendable, Hashable {
    public var position: Position
    public var cell: Cell
    public init(position: Position, cell: Cell) {
        self.position = position
        self.cell = cell
    }
}

extension Buffer {
    /// The cells of this buffer that differ from `previous`, row by row, left to right. Everything
    /// when there is no previous frame or its size differs. Trailing halves of wide characters are
    /// never listed: writing the wide character covers them.
    public func changes(since previous: Buffer?) -> [CellChange] {
        let sameSize = previous?.size == size
        var result: [CellChange] = []
        for y in 0..<size.height {
            var lastListed = -1
            for x in 0..<size.width {
                let cell = self[x, y]
                if sameSize, let previous, previous[x, y] == cell { continue }
                if cell.isContinuation {
                    // The half changed without its head (a malformed write): redraw the head.
                    if x > 0, lastListed != x - 1, self[x - 1, y].width == 2 {
                        result.append(CellChange(position: Position(x: x - 1, y: y), cell: self[x - 1, y]))
                        lastListed = x - 1
                    }
                    continue
                }
                result.append(CellChange(position: Position(x: x, y: y), cell: cell))
                lastListed = x
            }
        }
        return result
    }
}
