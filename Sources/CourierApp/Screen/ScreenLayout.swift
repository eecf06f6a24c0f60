import CourierTerminal

/// Where a tile goes in the full layout: the collection's column on the left, then on the right the editor,
/// the response, and two panes side by side at the bottom.
public enum LayoutSlot: Sendable, Hashable, CaseIterable {
    case left, top, middle, bottomLeft, bottomRight
}

/// Where each pane goes for a screen size, focus and zoom. A pure function, so `update` (for mouse clicks
/// and page sizes) and the views agree on it.
public struct ScreenLayout: Sendable, Hashable {
    /// Panes on screen and their rectangles.
    public var panes: [PaneID: Rect]
    /// The row of pane tabs shown when not every pane fits (one pane, or the compact layout's three).
    public var tabStrip: Rect?
    public var statusBar: Rect

    /// Below this size not every pane fits: the compact layout, or one pane at a time with a tab strip.
    public static let fullSize = Size(width: 100, height: 24)
    /// From this size to `fullSize` the layout is compact: the collection beside the request over the
    /// response (the Log and WebSocket panes take the response's place while focused), under a tab strip.
    public static let compactSize = Size(width: 72, height: 18)

    /// The layout of `tiles` (each pane and its slot, in the registry's order): in a slot two tiles share, the
    /// focused one shows, else the first.
    public init(size: Size, focus: PaneID, zoomed: PaneID?,
                tiles: [(id: PaneID, slot: LayoutSlot)] = PaneRegistry.standard.tiles) {
        let screen = Rect(size: size)
        statusBar = screen.row(size.height - 1)
        let body = Rect(x: 0, y: 0, width: size.width, height: size.height - 1)
        if let zoomed {
            panes = [zoomed: body]
            tabStrip = nil
            return
        }
        let full = size.width >= Self.fullSize.width && size.height >= Self.fullSize.height
        let compact = size.width >= Self.compactSize.width && size.height >= Self.compactSize.height
        tabStrip = full ? nil : body.row(0)
        guard full || compact else {
            panes = [focus: Rect(x: 0, y: 1, width: size.width, height: body.height - 1)]
            return
        }
        let slots = full ? Self.slots(body) : Self.compactSlots(Rect(x: 0, y: 1, width: size.width, height: body.height - 1))
        let focusedSlot = tiles.first { $0.id == focus }.map { full ? $0.slot : Self.compactSlot($0.slot) }
        panes = [:]
        for slot in LayoutSlot.allCases where slots[slot] != nil {
            let first = tiles.first { (full ? $0.slot : Self.compactSlot($0.slot)) == slot }?.id
            guard let id = slot == focusedSlot ? focus : first else { continue }
            panes[id] = slots[slot]
        }
    }

    /// Where a slot of the full layout goes in the compact one: the bottom panes take the response's place.
    static func compactSlot(_ slot: LayoutSlot) -> LayoutSlot {
        switch slot {
        case .bottomLeft, .bottomRight: .middle
        default: slot
        }
    }

    /// The compact layout's slots: the collection on the left, the request over the response on the right.
    static func compactSlots(_ body: Rect) -> [LayoutSlot: Rect] {
        let leftWidth = max(22, body.width * 30 / 100)
        let requestHeight = max(7, body.height * 40 / 100)
        let right = Rect(x: leftWidth, y: body.y, width: body.width - leftWidth, height: body.height)
        return [
            .left: Rect(x: 0, y: body.y, width: leftWidth, height: body.height),
            .top: Rect(x: right.x, y: body.y, width: right.width, height: requestHeight),
            .middle: Rect(x: right.x, y: body.y + requestHeight, width: right.width, height: body.height - requestHeight),
        ]
    }

    /// The rectangle of every slot in the full layout.
    static func slots(_ body: Rect) -> [LayoutSlot: Rect] {
        let leftWidth = max(24, body.width * 28 / 100)
        let rightX = leftWidth
        let rightWidth = body.width - leftWidth
        let requestHeight = max(9, body.height * 36 / 100)
        let bottomHeight = max(6, body.height * 24 / 100)
        let responseHeight = body.height - requestHeight - bottomHeight
        let logWidth = rightWidth * 60 / 100
        return [
            .left: Rect(x: 0, y: 0, width: leftWidth, height: body.height),
            .top: Rect(x: rightX, y: 0, width: rightWidth, height: requestHeight),
            .middle: Rect(x: rightX, y: requestHeight, width: rightWidth, height: responseHeight),
            .bottomLeft: Rect(x: rightX, y: requestHeight + responseHeight, width: logWidth, height: bottomHeight),
            .bottomRight: Rect(x: rightX + logWidth, y: requestHeight + responseHeight, width: rightWidth - logWidth,
                               height: bottomHeight),
        ]
    }

    /// The pane under a screen position.
    public func pane(at position: Position) -> PaneID? {
        panes.first { $0.value.contains(position) }?.key
    }

    /// Rows of content inside a pane's border.
    public func contentHeight(_ pane: PaneID) -> Int { max(1, (panes[pane]?.height ?? 3) - 2) }
}

extension AppState {
    /// The layout of the current screen.
    public var layout: ScreenLayout { ScreenLayout(size: size, focus: focus, zoomed: zoomed, tiles: panes.tiles) }
}
