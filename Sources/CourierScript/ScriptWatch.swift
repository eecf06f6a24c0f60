import Foundation

/// Decides, each time JavaScriptCore's watchdog asks (a few dozen times a second of the script's CPU time, and
/// at every promise job), whether the script must stop: when it has used its CPU time, or when its caller gave
/// up on it (the explorer's Ctrl-C). What stopped it is kept. Used on the script's thread only.
final class ScriptWatch {
    /// Why a script was stopped.
    enum Stop: Equatable {
        case timeLimit
        case cancelled
    }

    private let budget: Double
    private let isCancelled: @Sendable () -> Bool
    private var started: Double
    /// After a stop, the CPU time until which the state the script left may still be read back.
    private var graceEnd: Double?
    private var closing = false
    private(set) var stop: Stop?

    /// A watch over `budget` seconds of this thread's CPU time, from now.
    init(budget: Double, isCancelled: @escaping @Sendable () -> Bool) {
        self.budget = budget
        self.isCancelled = isCancelled
        started = Self.threadCPUTime()
    }

    /// Starts the budget over: the user's code gets all of it, whatever Courier's own set-up took.
    func restart() {
        if stop == nil { started = Self.threadCPUTime() }
    }

    /// Whether the script must stop now; the first true records why.
    func shouldStop() -> Bool {
        if closing { return true }
        if let graceEnd { return Self.threadCPUTime() >= graceEnd }
        if stop == nil {
            if isCancelled() {
                stop = .cancelled
            } else if Self.threadCPUTime() - started >= budget {
                stop = .timeLimit
            }
        }
        return stop != nil
    }

    /// After a stop, lets `seconds` more of CPU time run, to read back what the script had set.
    func allowReadingBack(seconds: Double) {
        guard stop != nil else { return }
        graceEnd = Self.threadCPUTime() + seconds
    }

    /// From now on every check stops the script at once: its context is going away.
    func close() {
        closing = true
    }

    /// The CPU time this thread has used, in seconds: a script is charged for what it computes, not for the
    /// time the machine gave to others.
    static func threadCPUTime() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
