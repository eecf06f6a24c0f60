import CourierApp
import CourierTerminal

/// A pane that exists only in the tests, to prove what a new pane takes: this folder, and one line that adds
/// it to the registry (`PaneRegistry.standard.adding(CounterPane())`). It counts; `+` counts up, and an
/// action of its own sets the count.
struct CounterPane: Pane {
    struct State: Sendable { var count = 0 }
    enum Command: KeyCommandName { case increment, reset }

    static let id = PaneID(6, name: "counter", title: "Counter")
    let scope = KeyScope(CounterPane.id.name)
    let placement = PanePlacement.tile(CounterPane.id, .bottomRight)
    let keymap: [KeyBinding<Command>] = [
        KeyBinding([.char("+")], .increment, "count up", hint: true),
        KeyBinding([.char("=")], .reset, "back to zero"),
    ]

    func state(_ app: AppState) -> State { app.paneState(scope, initial: State()) }

    func run(_ command: Command, in app: inout AppState) -> [Effect] {
        var state = state(app)
        switch command {
        case .increment: state.count += 1
        case .reset: state.count = 0
        }
        app.paneStates[scope] = state
        return []
    }

    func update(_ action: Action, in app: inout AppState) -> [Effect]? {
        guard case .pane(scope, let payload) = action, let count = payload as? Int else { return nil }
        app.paneStates[scope] = State(count: count)
        return []
    }

    func draw(_ app: AppState, _ context: RenderContext, into buffer: inout Buffer) -> Position? {
        CounterView.draw(state(app), context, into: &buffer)
    }
}

/// The counter pane's view, in the one shape every pane view has.
enum CounterView: PaneView {
    static func frame(_ state: CounterPane.State, _ context: RenderContext) -> PaneFrame {
        PaneFrame(CounterPane.id.title, number: CounterPane.id.rawValue)
    }

    static func render(_ state: CounterPane.State, _ context: RenderContext, into buffer: inout Buffer) -> Position? {
        buffer.write("count: \(state.count)", x: context.area.x, y: context.area.y, style: context.theme.text,
                     maxWidth: context.area.width)
        return nil
    }
}
