import CourierTerminal

/// The cache compare view, drawn in the Response pane's place while open; its keys come before the
/// Response pane's there.
struct ComparePane: Pane {
    let scope = KeyScope("compare")
    let placement = PanePlacement.over(.response)
    var keymap: [KeyBinding<ComparePaneCommand>] { ComparePaneState.keymap }

    func helpTitle(_ keys: KeyTables) -> String {
        "Cache compare (\(keys.spelling(of: .response(.compare))) in Response) [compare]"
    }

    func isOpen(_ state: AppState) -> Bool { state.comparePane != nil }

    func run(_ command: ComparePaneCommand, in state: inout AppState) -> [Effect] {
        // From the palette while closed: open it.
        guard state.comparePane != nil else { return state.runResponse(.compare) }
        switch state.comparePane?.handle(command) {
        case .revalidateNow?: return [.revalidate(state.sendJob)]
        case .close?: state.comparePane = nil
        case nil: break
        }
        return []
    }

    func update(_ action: Action, in state: inout AppState) -> [Effect]? {
        switch action {
        case .compareOpened(var pane):
            pane.pageSize = max(1, state.layout.contentHeight(.response) - 6)
            pane.width = max(1, (state.layout.panes[.response]?.width ?? 82) - 2)
            state.comparePane = pane
            state.focus = .response
        case .compareRevalidated(let revalidation, let failure):
            if let failure { state.comparePane?.fail(failure) } else { state.comparePane?.load(revalidation) }
        default: return nil
        }
        return []
    }

    func draw(_ state: AppState, _ context: RenderContext, into buffer: inout Buffer) -> Position? {
        guard let compare = state.comparePane else { return nil }
        return ComparePaneView.draw(compare, context, into: &buffer)
    }
}

extension AppCommand {
    /// A command of the cache compare view.
    public static func compare(_ command: ComparePaneCommand) -> AppCommand { ComparePane().appCommand(command) }
}

extension KeyTables {
    /// The keys of the cache compare view, as in use.
    public var compare: [KeyBinding<ComparePaneCommand>] { keymap(of: ComparePane()) }
}
