import CourierTerminal

/// The retry/timing log as a pane: one row per attempt from the client's events.
struct LogPane: Pane {
    let scope = KeyScope(PaneID.log.name)
    let placement = PanePlacement.tile(.log, .bottomLeft)
    var keymap: [KeyBinding<LogPaneCommand>] { LogPaneState.keymap }

    /// A retry's countdown moves.
    func needsTick(_ state: AppState) -> Bool { state.log.nextTick(after: state.now) != nil }

    func run(_ command: LogPaneCommand, in state: inout AppState) -> [Effect] {
        state.log.pageSize = max(1, state.layout.contentHeight(.log) - 1)
        state.log.handle(command)
        return []
    }

    func click(at position: Position, area: Rect, in state: inout AppState) {
        state.log.select(at: position, area: area.inset(1))
    }

    func scroll(by delta: Int, in state: inout AppState) { state.log.scroll(by: delta) }

    func update(_ action: Action, in state: inout AppState) -> [Effect]? {
        switch action {
        case .scriptsRan(let request, let report):
            state.log.recordScripts(report, for: request)
        case .clientEvent(let event):
            state.now = state.clock()
            state.log.apply(event, now: state.now)
        case .requestHeadSent(let id, let headers):
            state.log.recordSentHeaders(headers, for: id)
        case .servedFromCache(let id, let method, let url, let status, let report):
            state.now = state.clock()
            state.log.addCacheHit(id, method: method, url: url, status: status, report: report, at: state.now)
        default:
            return nil
        }
        return []
    }

    func draw(_ state: AppState, _ context: RenderContext, into buffer: inout Buffer) -> Position? {
        LogPaneView.draw(state.log, context, into: &buffer)
    }
}

extension AppCommand {
    /// A command of the log pane.
    public static func log(_ command: LogPaneCommand) -> AppCommand { LogPane().appCommand(command) }
}

extension KeyTables {
    /// The keys of the log pane, as in use.
    public var log: [KeyBinding<LogPaneCommand>] { keymap(of: LogPane()) }
}

extension PaneID {
    /// The retry/timing log.
    public static let log = PaneID(4, name: "log", title: "Log")
}
