import CourierSecurity
/// Drawing helpers on top of the buffer's clipped cell writes.
extension Buffer {
    /// Writes one styled line on row `y` from `x`, skipping its first `skip` columns (horizontal
    /// scroll) and clipping at `maxWidth`. A wide character cut by the skip edge is drawn as a space.
    /// Returns the columns used.
    @discardableResult
    public mutating func write(_ line: StyledLine, x: Int, y: Int, maxWidth: Int, skip: Int = 0,
                               base: Style = .plain) -> Int {
        guard maxWidth > 0 else { return 0 }
        var skipped = 0
        var column = 0
        for span in line.spans {
            let style = base.overlaid(by: span.style)
            for character in span.text {
                for visible in Sanitizer.visible(character) {
                    let width = DisplayWidth.of(visible)
                    if width == 0 { continue }
                    if skipped < skip {
                        // Part of a wide character that straddles the scroll edge shows as blank.
                        if skipped + width > skip {
                            let shown = skipped + width - skip
                            if column + shown > maxWidth { return column }
                            for i in 0..<shown { put(Cell(" ", style: style), x: x + column + i, y: y) }
                            column += shown
                        }
                        skipped += width
                        continue
                    }
                    if column + width > maxWidth { return column }
                    put(Cell(String(visible), width: UInt8(width), style: style), x: x + column, y: y)
                    column += width
                }
            }
        }
        return column
    }

    /// Writes `text` centred in `rect`'s first row.
    public mutating func writeCentered(_ text: String, in rect: Rect, style: Style = .plain) {
        guard !rect.isEmpty else { return }
        let width = min(DisplayWidth.of(Sanitizer.sanitize(text)), rect.width)
        write(text, x: rect.x + (rect.width - width) / 2, y: rect.y, style: style, maxWidth: rect.width)
    }

    /// Puts one cell, keeping wide characters whole: overwriting either half of a wide character
    /// blanks the other half, so the screen never shows half a glyph.
    public mutating func put(_ cell: Cell, x: Int, y: Int) {
        guard area.contains(Position(x: x, y: y)) else { return }
        let old = self[x, y]
        if old.isContinuation, x > 0, self[x - 1, y].width == 2 { self[x - 1, y] = Cell(" ", style: self[x - 1, y].style) }
        if old.width == 2, cell.width != 2, x + 1 < area.maxX, self[x + 1, y].isContinuation {
            self[x + 1, y] = Cell(" ", style: self[x + 1, y].style)
        }
        if cell.width == 2 {
            // A wide character that does not fit on the row is drawn as a space.
            guard x + 1 < area.maxX else { self[x, y] = Cell(" ", style: cell.style); return }
            if self[x + 1, y].width == 2, x + 2 < area.maxX, self[x + 2, y].isContinuation {
                self[x + 2, y] = Cell(" ", style: self[x + 2, y].style)
            }
            self[x, y] = cell
            self[x + 1, y] = .continuation(cell.style)
        } else {
            self[x, y] = cell
        }
    }

    /// Copies `other` into this buffer with its top-left at `origin`, clipped.
    public mutating func blit(_ other: Buffer, at origin: Position) {
        for y in 0..<other.size.height {
            for x in 0..<other.size.width { self[origin.x + x, origin.y + y] = other[x, y] }
        }
    }
}
