import Synchronization

/// A terminal in memory for tests: it keeps the last frame as a buffer, records every cell each
/// draw wrote (so tests can assert that only changes are written), and plays back scripted input.
public final class TestBackend: TerminalBackend, Sendable {
    private struct State {
        var size: Size
        var frame: Buffer
        var cursor: Position?
        var draws: [[CellChange]] = []
        var events: [InputEvent] = []
        var wakeCount = 0
        var restoreCount = 0
        var repaintCount = 0
        /// Set by `repaint`: the next draw writes every cell, as the real terminal does after a clear.
        var forgetFrame = false
    }

    private let state: Mutex<State>

    public init(size: Size = Size(width: 80, height: 24)) {
        state = Mutex(State(size: size, frame: Buffer(size: size)))
    }

    // MARK: TerminalBackend

    public var size: Size { state.withLock { $0.size } }

    /// Applies the changes since the last frame to the screen and records them.
    public func draw(_ buffer: Buffer, cursor: Position?) {
        state.withLock { s in
            let keep = s.frame.size == buffer.size && !s.draws.isEmpty && !s.forgetFrame
            let changes = buffer.changes(since: keep ? s.frame : nil)
            // A new size, like a clear, starts from a blank screen: nothing of the old frame survives.
            if !keep { s.frame = Buffer(size: buffer.size) }
            s.forgetFrame = false
            for change in changes {
                s.frame[change.position.x, change.position.y] = change.cell
                if change.cell.width == 2 {
                    s.frame[change.position.x + 1, change.position.y] = .continuation(change.cell.style)
                }
            }
            s.cursor = cursor
            s.draws.append(changes)
        }
    }

    /// The next scripted event, or nil when the script is empty (never waits).
    public func nextEvent(timeout: Duration?) -> InputEvent? {
        state.withLock { s in s.events.isEmpty ? nil : s.events.removeFirst() }
    }

    public func wake() { state.withLock { $0.wakeCount += 1 } }

    public func restore() { state.withLock { $0.restoreCount += 1 } }

    public func repaint() {
        state.withLock { s in
            s.repaintCount += 1
            s.forgetFrame = true
        }
    }

    // MARK: Scripting and inspection

    /// Queues input for `nextEvent`.
    public func enqueue(_ events: InputEvent...) { enqueue(contentsOf: events) }
    /// Queues input for `nextEvent`.
    public func enqueue(contentsOf events: [InputEvent]) { state.withLock { $0.events.append(contentsOf: events) } }
    /// Queues typed text, one key per character.
    public func type(_ text: String) { enqueue(contentsOf: text.map { .key(.char($0)) }) }

    /// Changes the size and queues the resize event, as a terminal would.
    public func resize(to size: Size) {
        state.withLock { s in
            s.size = size
            s.events.append(.resize(size))
        }
    }

    /// The screen as the last draws left it.
    public var frame: Buffer { state.withLock { $0.frame } }
    /// The screen as text, one string per row, trailing spaces trimmed.
    public var lines: [String] { frame.lines() }
    /// Where the last draw put the cursor (nil: hidden).
    public var cursor: Position? { state.withLock { $0.cursor } }
    /// The cells each draw wrote, oldest first.
    public var draws: [[CellChange]] { state.withLock { $0.draws } }
    /// Every grapheme ever written, concatenated: to assert that no control character got through.
    public var writtenText: String { state.withLock { $0.draws.joined().map(\.cell.grapheme).joined() } }
    public var wakeCount: Int { state.withLock { $0.wakeCount } }
    public var restoreCount: Int { state.withLock { $0.restoreCount } }
    public var repaintCount: Int { state.withLock { $0.repaintCount } }
    /// Input not yet read.
    public var pendingEventCount: Int { state.withLock { $0.events.count } }
}
