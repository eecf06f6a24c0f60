/// Every pane of the explorer in one list. Its order is Tab's order among the tiles, help's order of
/// sections and the palette's; dispatch, hints, help, the palette and the screen loop over it.
public struct PaneRegistry: Sendable {
    /// The explorer's panes. Adding a pane is adding its line here (and its folder under `Panes/`).
    public static let standard = PaneRegistry([
        CollectionPane(),
        RequestPane(),
        ResponsePane(),
        ComparePane(),
        HistoryPane(),
        LogPane(),
        WebSocketPane(),
    ])

    public let all: [any Pane]
    /// The tiles in the registry's order, each with its slot in the full layout.
    public let tiles: [(id: PaneID, slot: LayoutSlot)]

    /// A registry of `panes`. Scopes, tile names and numbers must be unique: a programming error otherwise.
    public init(_ panes: [any Pane]) {
        all = panes
        tiles = panes.compactMap { pane in
            if case .tile(let id, let slot) = pane.placement { (id, slot) } else { nil }
        }
        precondition(Set(panes.map(\.scope)).count == panes.count, "two panes share a key scope")
        precondition(Set(tiles.map(\.id.rawValue)).count == tiles.count, "two tiles share a number")
        precondition(Set(tiles.map(\.id.name)).count == tiles.count, "two tiles share a name")
    }

    /// This registry with `pane` added after the others.
    public func adding(_ pane: any Pane) -> PaneRegistry { PaneRegistry(all + [pane]) }

    /// The tile `id`; the first tile for an id this registry does not hold.
    public func tile(_ id: PaneID) -> any Pane {
        all.first { if case .tile(id, _) = $0.placement { true } else { false } } ?? all[0]
    }

    /// The pane whose keys are in `scope`.
    public func pane(for scope: KeyScope) -> (any Pane)? { all.first { $0.scope == scope } }

    /// What shows in tile `id`'s place: an overlay open over it, else the tile.
    func shown(on id: PaneID, in state: AppState) -> any Pane {
        all.first { if case .over(id) = $0.placement { $0.isOpen(state) } else { false } } ?? tile(id)
    }

    /// The overlay open over the whole layout, if any.
    func layoutOverlay(in state: AppState) -> (any Pane)? {
        all.first { if case .overLayout = $0.placement { $0.isOpen(state) } else { false } }
    }

    /// The tile after (or before, `step` -1) `id` in Tab's order.
    func tile(after id: PaneID, step: Int = 1) -> PaneID {
        guard let index = tiles.firstIndex(where: { $0.id == id }) else { return tiles.first?.id ?? id }
        return tiles[(index + step + tiles.count) % tiles.count].id
    }

    /// The tile a command belongs to, focused before the palette runs it; nil for global commands and
    /// overlays over the whole layout.
    func tile(for command: AppCommand) -> PaneID? {
        guard case .pane(let command) = command, let pane = pane(for: command.scope) else { return nil }
        switch pane.placement {
        case .tile(let id, _), .over(let id): return id
        case .overLayout: return nil
        }
    }
}
