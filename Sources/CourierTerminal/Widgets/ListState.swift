/// Selection and scroll of a list, kept by the app between frames.
public struct ListState: Sendable, Hashable {
    /// The selected row, nil when nothing is.
    public var selected: Int?
    /// The first row shown.
    public var offset: Int

    public init(selected: Int? = nil, offset: Int = 0) {
        self.selected = selected
        self.offset = offset
    }

    /// Selects `index` clamped to `count` rows (nil when empty).
    public mutating func select(_ index: Int?, count: Int) {
        guard let index, count > 0 else { selected = nil; offset = 0; return }
        selected = Swift.min(Swift.max(0, index), count - 1)
    }

    /// Moves the selection by `delta` rows, clamped; starts at the top when nothing is selected.
    public mutating func move(by delta: Int, count: Int) {
        guard count > 0 else { selected = nil; return }
        select((selected ?? (delta > 0 ? -1 : count)) + delta, count: count)
    }

    /// Selects the first row.
    public mutating func first(count: Int) { select(0, count: count) }
    /// Selects the last row.
    public mutating func last(count: Int) { select(count - 1, count: count) }

    /// The first visible row for a view `height` rows high, so the selection is visible and the
    /// list does not scroll past its end. Pure: render uses it without changing the state.
    public func visibleOffset(height: Int, count: Int) -> Int {
        guard height > 0, count > 0 else { return 0 }
        var top = Swift.min(offset, Swift.max(0, count - height))
        if let selected {
            if selected < top { top = selected }
            if selected >= top + height { top = selected - height + 1 }
        }
        return Swift.max(0, top)
    }

    /// Stores the offset `visibleOffset` computes, so the next move scrolls from where the view is.
    public mutating func scrollToSelection(height: Int, count: Int) {
        offset = visibleOffset(height: height, count: count)
    }

    /// Scrolls the view by `delta` rows without moving the selection (mouse wheel).
    public mutating func scroll(by delta: Int, height: Int, count: Int) {
        offset = Swift.min(Swift.max(0, offset + delta), Swift.max(0, count - height))
    }
}
