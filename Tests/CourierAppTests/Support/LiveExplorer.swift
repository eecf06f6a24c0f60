import CourierApp
import CourierTerminal
import Foundation

/// The explorer's state driven by its real effect runner, as the run loop drives it: keys become actions,
/// `update` returns effects, the runner performs them and posts actions back. Tests that need their own
/// servers and files subclass it and call `init(configuration:state:)` once those exist.
class LiveExplorer {
    let queue: ActionQueue
    let runner: EffectRunner
    var state: AppState

    init(configuration: EffectRunner.Configuration, state: AppState, store: CollectionStore = CollectionStore()) {
        let queue = ActionQueue {}
        self.queue = queue
        runner = EffectRunner(configuration: configuration, queue: queue, store: store)
        self.state = state
    }

    /// Applies `effects`, then every action the runner posts, until `done` holds; false after a minute
    /// (a bound for a loaded machine, not a speed requirement).
    @discardableResult
    func run(_ effects: [Effect], until done: (AppState) -> Bool) async -> Bool {
        runner.perform(effects)
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            for action in queue.drain() { runner.perform(update(&state, action)) }
            if done(state) { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return false
    }

    /// Presses keys, running whatever they start until `done` holds.
    @discardableResult
    func press(_ keys: Key..., until done: (AppState) -> Bool = { _ in true }) async -> Bool {
        var effects: [Effect] = []
        for key in keys { effects += update(&state, .input(.key(key))) }
        return await run(effects, until: done)
    }

    /// Types `text` one key at a time.
    func type(_ text: String) async { for character in text { await press(.char(character)) } }

    /// The whole screen as text.
    var screen: String { Screen.render(state).buffer.lines().joined(separator: "\n") }
}
