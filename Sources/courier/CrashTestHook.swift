import CourierTerminal
import Foundation
import Synchronization

/// A test hook, not a feature: `COURIER_CRASH_TEST=segv|trap|abort|overflow` makes the explorer crash
/// after its first frame and `courier send` crash before sending, so tests can check the crash report and
/// the terminal restore through the real binary. Unset (or any other value), it does nothing.
enum CrashTestHook {
    /// The crashes the hook can cause, by the value of `COURIER_CRASH_TEST`.
    enum Kind: String, Sendable {
        /// A store to an unmapped address: SIGSEGV.
        case segv
        /// A Swift runtime trap (`fatalError`), as preconditions and force-unwraps end: SIGILL or SIGTRAP.
        case trap
        /// `abort()`: SIGABRT.
        case abort
        /// Unbounded recursion: SIGSEGV on the guard page, handled on the alternate signal stack.
        case overflow
    }

    /// The environment variable read at start-up.
    static let variable = "COURIER_CRASH_TEST"
    private static let requested = Mutex<Kind?>(nil)

    /// Reads the variable; called once at start-up.
    static func arm(environment: [String: String]) {
        let kind = environment[variable].flatMap(Kind.init(rawValue:))
        requested.withLock { $0 = kind }
    }

    /// Crashes the process as asked; returns at once when nothing was asked.
    static func fireIfRequested() {
        guard let kind = requested.withLock({ $0 }) else { return }
        switch kind {
        case .segv:
            // Page zero is never mapped, so this store faults for real rather than through raise().
            UnsafeMutablePointer<Int>(bitPattern: 8)?.pointee = 1
            raise(SIGSEGV)
        case .trap:
            fatalError("\(variable)=trap: crashing on purpose")
        case .abort:
            Glibc.abort()
        case .overflow:
            _ = recurse(1)
        }
    }

    /// Calls itself until the stack runs out. Each call hands its own frame to the next, which reads it
    /// after its own call: a release build would otherwise turn the recursion into an endless loop.
    private static func recurse(_ depth: Int, caller: UnsafeMutablePointer<(Int, Int, Int, Int)>? = nil)
        -> Int {
        var frame = (depth, depth, depth, depth)
        let deeper = withUnsafeMutablePointer(to: &frame) { recurse(depth &+ 1, caller: $0) }
        return deeper &+ (caller?.pointee.0 ?? 0)
    }

    /// The explorer's backend, wrapped to crash after the first frame when the hook is armed.
    static func wrap(_ backend: any TerminalBackend) -> any TerminalBackend {
        requested.withLock({ $0 }) == nil ? backend : CrashAfterFirstFrame(backend)
    }
}

/// Forwards to the real backend and fires the crash test hook once the first frame is on screen, so the
/// crash happens with curses in full control of the terminal.
private final class CrashAfterFirstFrame: TerminalBackend {
    private let backend: any TerminalBackend

    init(_ backend: any TerminalBackend) { self.backend = backend }

    var size: Size { backend.size }

    func draw(_ buffer: Buffer, cursor: Position?) {
        backend.draw(buffer, cursor: cursor)
        CrashTestHook.fireIfRequested()
    }

    func nextEvent(timeout: Duration?) -> InputEvent? { backend.nextEvent(timeout: timeout) }
    func wake() { backend.wake() }
    func restore() { backend.restore() }
    func suspend() { backend.suspend() }
    func repaint() { backend.repaint() }
}
