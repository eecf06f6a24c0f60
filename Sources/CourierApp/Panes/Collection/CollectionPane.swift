import CourierTerminal

/// The collection tree as a pane: filter, open, and edit the collection's requests.
struct CollectionPane: Pane {
    let scope = KeyScope(PaneID.collection.name)
    let placement = PanePlacement.tile(.collection, .left)
    var keymap: [KeyBinding<CollectionCommand>] { Keymaps.collection }

    func isTyping(_ state: AppState) -> Bool { state.tree.filtering }

    func run(_ command: CollectionCommand, in state: inout AppState) -> [Effect] { state.runCollection(command) }

    func type(_ key: Key, in state: inout AppState) -> [Effect] { state.handleFilterKey(key) }

    func paste(_ text: String, in state: inout AppState) -> [Effect]? {
        guard state.tree.filtering else { return nil }
        state.tree.filter.paste(text)
        state.selectFirstRequest()
        return []
    }

    func click(at position: Position, area: Rect, in state: inout AppState) {
        let tree = state.tree
        let row = position.y - area.y - 1 + tree.scroll - (tree.filtering || !tree.filter.text.isEmpty ? 1 : 0)
        guard row >= 0 && row < tree.rows(state.collection).count else { return }
        // A click shows the request; only Enter sends it.
        state.tree.selection = row
        state.followSelection()
    }

    func scroll(by delta: Int, in state: inout AppState) {
        state.tree.move(delta, in: state.collection)
        state.tree.scrollToSelection(height: state.layout.contentHeight(.collection))
        state.followSelection()
    }

    func typingHints(_ state: AppState) -> [HelpCatalog.Entry] {
        [HelpCatalog.hint("Enter", "open"), HelpCatalog.hint("↑↓", "move"), HelpCatalog.hint("Esc", "clear filter")]
            + HelpCatalog.editingHints
    }

    func draw(_ state: AppState, _ context: RenderContext, into buffer: inout Buffer) -> Position? {
        CollectionView.draw(state, context, into: &buffer)
    }
}

extension AppCommand {
    /// A command of the collection tree.
    public static func collection(_ command: CollectionCommand) -> AppCommand { CollectionPane().appCommand(command) }
}

extension KeyTables {
    /// The keys of the collection tree, as in use.
    public var collection: [KeyBinding<CollectionCommand>] { keymap(of: CollectionPane()) }
}

extension PaneID {
    /// The collection tree.
    public static let collection = PaneID(1, name: "collection", title: "Collection")
}

extension Keymaps {
    /// The pane's keys as shipped (`keymap`).
    public static let collection: [KeyBinding<CollectionCommand>] = [
        KeyBinding([.char("k"), Key(.up)], .up, "up"),
        KeyBinding([.char("j"), Key(.down)], .down, "down"),
        KeyBinding([.char("g"), Key(.home)], .top, "first"),
        KeyBinding([.char("G"), Key(.end)], .bottom, "last"),
        KeyBinding([Key(.pageUp)], .pageUp, "page up"),
        KeyBinding([Key(.pageDown)], .pageDown, "page down"),
        KeyBinding([Key(.enter)], .open, "send (on a folder: fold)", hint: true),
        KeyBinding([.char("l"), Key(.right), .char(" ")], .expand, "expand / toggle folder"),
        KeyBinding([.char("h"), Key(.left)], .collapse, "collapse folder"),
        KeyBinding([.char("/")], .filter, "filter", hint: true),
        KeyBinding([Key(.escape)], .clearFilter, "clear filter"),
        KeyBinding([.char("n")], .newRequest, "new", hint: true),
        KeyBinding([.char("i")], .importCurl, "import curl"),
        KeyBinding([.char("d")], .duplicate, "duplicate request"),
        KeyBinding([.char("r")], .rename, "rename request"),
        KeyBinding([.char("x")], .delete, "delete request"),
    ]
}
