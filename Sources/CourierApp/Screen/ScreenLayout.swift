import CourierTerminal

/// Where each pane goes for a screen size, focus and zoom. A pure function, so `update` (for mouse clicks
/// and page sizes) and the views agree on it.
public struct ScreenLayout: Sendable, Hashable {
    /// Panes on screen and their rectangles.
    public var panes: [PaneID: Rect]
    /// The row of pane tabs shown when only one pane fits.
    public var tabStrip: Rect?
    public var statusBar: Rect

    /// Below this size the panes stack: one at a time with a tab strip.
    public static let fullSize = Size(width: 100, height: 24)

    public init(size: Size, focus: PaneID, zoomed: PaneID?) {
        let screen = Rect(size: size)
        statusBar = screen.row(size.height - 1)
        let body = Rect(x: 0, y: 0, width: size.width, height: size.height - 1)
        if let zoomed {
            panes = [zoomed: body]
            tabStrip = nil
            return
        }
        if size.width < Self.fullSize.width || size.height < Self.fullSize.height {
            tabStrip = body.row(0)
            panes = [focus: Rect(x: 0, y: 1, width: size.width, height: body.height - 1)]
            return
        }
        tabStrip = nil
        let leftWidth = max(24, size.width * 28 / 100)
        let rightX = leftWidth
        let rightWidth = size.width - leftWidth
        let requestHeight = max(9, body.height * 36 / 100)
        let bottomHeight = max(6, body.height * 24 / 100)
        let responseHeight = body.height - requestHeight - bottomHeight
        let logWidth = rightWidth * 60 / 100
        panes = [
            .collection: Rect(x: 0, y: 0, width: leftWidth, height: body.height),
            .request: Rect(x: rightX, y: 0, width: rightWidth, height: requestHeight),
            .response: Rect(x: rightX, y: requestHeight, width: rightWidth, height: responseHeight),
            .log: Rect(x: rightX, y: requestHeight + responseHeight, width: logWidth, height: bottomHeight),
            .webSocket: Rect(x: rightX + logWidth, y: requestHeight + responseHeight, width: rightWidth - logWidth,
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
    public var layout: ScreenLayout { ScreenLayout(size: size, focus: focus, zoomed: zoomed) }
}
