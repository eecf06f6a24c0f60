import Synchronization

/// At most a given number of requests in flight at once, shared by every file of a run (`courier run --jobs N`):
/// a waiting request takes the next free place, first come first served. A lock rather than an actor: a free
/// place is taken and given back without leaving the request's thread (two task switches per request, as an
/// actor, were a measurable share of a parallel run of plain GETs).
public final class ConcurrencyLimit: Sendable {
    private struct State {
        var inUse = 0
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    public let width: Int
    private let state = Mutex(State())

    public init(_ width: Int) { self.width = max(1, width) }

    /// Waits for a free place and takes it, on the caller's executor: a free place is taken with no hop.
    nonisolated(nonsending) public func acquire() async {
        if take(orQueue: nil) { return }
        await withCheckedContinuation { continuation in
            if take(orQueue: continuation) { continuation.resume() }
        }
    }

    /// Takes a free place (true), or queues `continuation` for the next one given back when there is one.
    private func take(orQueue continuation: CheckedContinuation<Void, Never>?) -> Bool {
        let width = self.width
        return state.withLock { state in
            if state.inUse < width {
                state.inUse += 1
                return true
            }
            if let continuation { state.waiting.append(continuation) }
            return false
        }
    }

    /// Gives a place back, to the longest waiter when there is one.
    public func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.waiting.isEmpty {
                state.inUse -= 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
