import CourierTerminal
import Foundation

/// The explorer's run loop: input and effect results become actions, `update` applies them, and the
/// screen is redrawn only when the frame changed. Idle, it blocks in the backend and costs no CPU.
public enum Explorer {
    /// Most input events folded into one frame, so a paste or a key repeat costs one redraw.
    static let burstLimit = 512
    /// How often the loop ticks while something on screen moves (a request in flight).
    static let tickInterval: Duration = .milliseconds(100)
    /// How long the first frame waits for the collection's first screen (it reads only the first
    /// `CollectionStore.firstScreenBlocks` blocks): a slow disk still gets a frame, with the tree to follow.
    public static let firstScreenWait: Duration = .milliseconds(500)

    /// The first effects of a session: read the collection and the theme list in the background.
    public static func startupEffects(_ state: AppState) -> [Effect] {
        [.loadCollectionInStages(path: state.collectionPath), .listThemes]
            + (state.theme.name == Theme.dark.name ? [] : [.loadTheme(name: state.theme.name)])
    }

    /// Runs until the user quits; returns the final state. The first frame waits only for the collection's
    /// first screen (at most `firstScreenWait`): the rest of what is slow (the disk, the network) runs in the
    /// background, so startup never waits for it.
    @discardableResult
    public static func run(backend: any TerminalBackend, state initial: AppState, runner: EffectRunner,
                           queue: ActionQueue, startup: [Effect]? = nil,
                           firstScreenWait: Duration = Explorer.firstScreenWait) -> AppState {
        var state = initial
        state.size = backend.size
        var lastFrame: Buffer?
        var lastCursor: Position?
        // Whether the frame on screen shows work still running (a request, an index, a search). Taken
        // before rendering: work that ends after this point is drawn by one more tick, so the screen never
        // stays at "searching 99%" once the loop goes idle.
        var frameNeedsTick = false
        func draw() {
            frameNeedsTick = state.needsTick
            let (buffer, cursor) = Screen.render(state)
            if buffer != lastFrame || cursor != lastCursor {
                backend.draw(buffer, cursor: cursor)
                lastFrame = buffer
                lastCursor = cursor
            }
        }
        // The collection starts loading in the background; the first frame waits for its first screen, so
        // it is drawn whole (tree, panes and status bar in one frame) rather than filled in a frame later.
        // Nothing else starts before that frame (the theme list, libcurl): on a busy machine every other
        // thread at work took the CPU from it.
        let effects = startup ?? startupEffects(state)
        let first = effects.filter(\.loadsCollection)
        runner.perform(first)
        if !first.isEmpty {
            awaitFirstScreen(&state, runner: runner, queue: queue, for: firstScreenWait)
        }
        draw()
        runner.perform(effects.filter { !$0.loadsCollection })
        runner.firstFrameDrawn()
        let clock = ContinuousClock()
        var lastTick = clock.now
        while !state.shouldQuit {
            var actions = queue.drain()
            if actions.isEmpty {
                let timeout: Duration? = frameNeedsTick ? tickInterval : nil
                if let event = backend.nextEvent(timeout: timeout) { actions.append(.input(event)) }
                while actions.count < burstLimit, let more = backend.nextEvent(timeout: .zero) {
                    actions.append(.input(more))
                }
                actions += queue.drain()
            }
            if frameNeedsTick && clock.now - lastTick >= tickInterval {
                actions.append(.tick)
                lastTick = clock.now
            }
            guard !actions.isEmpty else { continue }
            var effects: [Effect] = []
            for action in actions { effects += update(&state, action) }
            runner.perform(effects)
            if state.shouldSuspend {
                // Raw mode delivers Ctrl-Z as a key; after `fg` the whole screen is repainted.
                state.shouldSuspend = false
                backend.suspend()
                lastFrame = nil
                state.size = backend.size
            }
            if state.shouldRepaint {
                state.shouldRepaint = false
                backend.repaint()
                lastFrame = nil
            }
            draw()
        }
        runner.shutdown()
        return state
    }

    /// Applies what effects post until the collection's first screen is in `state` (or it failed), for at
    /// most `wait`. Input is left for the loop: only results of the start-up effects are taken.
    private static func awaitFirstScreen(_ state: inout AppState, runner: EffectRunner, queue: ActionQueue,
                                         for wait: Duration) {
        let deadline = ContinuousClock.now + wait
        while case .loading = state.loading, !state.shouldQuit {
            let actions = queue.drain()
            if actions.isEmpty {
                guard queue.waitForPost(until: deadline) else { return }
                continue
            }
            var effects: [Effect] = []
            for action in actions { effects += update(&state, action) }
            runner.perform(effects)
        }
    }
}

private extension Effect {
    /// Whether the effect reads the collection the first frame shows.
    var loadsCollection: Bool {
        switch self {
        case .loadCollection, .loadCollectionInStages: true
        default: false
        }
    }
}
