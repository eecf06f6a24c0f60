import Synchronization

/// What one file's parallel run (`CollectionRunner.runConcurrently`) shares between its workers: the requests
/// ready to start (lowest index first), who waits for whom, the variables the finished requests left, and the
/// outcomes kept. A worker takes a request, runs it on its own thread and hands the result back here, where it
/// is merged and its dependents readied under the lock: no scheduling task to resume after every request, which
/// on its own thread made a request sent through another client's loop cross threads twice.
final class ParallelRunQueue: Sendable {
    /// A request to run, and the variables it starts from (those of the requests it waited for).
    struct Start: Sendable {
        var index: Int
        var snapshot: VariableContext
    }

    /// What a worker hands back once its request (or run block) ran.
    struct Finished: Sendable {
        var index: Int
        /// The variables as the request left them.
        var own: VariableContext
        /// The globals it started from, so only what its scripts changed is taken.
        var before: [String: String]
        /// The outcomes to keep and return.
        var kept: [RunOutcome]
        /// False: nothing new starts (the run stops: failFast, cancelled).
        var goOn: Bool
    }

    private enum Decision {
        case start(Start)
        case done
        case wait
    }

    private struct State {
        var variables: VariableContext
        /// How many prerequisites each request still waits for, and who waits for each.
        var waitingFor: [Int]
        var dependents: [[Int]]
        var ready: [Bool]
        var readyCount: Int
        var lowest = 0
        /// What each ready request starts from, taken when it became ready: the copies of one moment share
        /// their storage, where copies taken at each start copied the run's whole store again after each merge.
        var snapshots: [Int: VariableContext] = [:]
        /// Requests taken and not yet finished.
        var running = 0
        var stopped = false
        var outcomes: [RunOutcome] = []
        /// Workers waiting for a request to become ready (or for the run to end: nil).
        var idle: [CheckedContinuation<Start?, Never>] = []

        /// The lowest ready request, counted as running.
        mutating func takeLowest() -> Start {
            while !ready[lowest] { lowest += 1 }
            let index = lowest
            ready[index] = false
            readyCount -= 1
            running += 1
            return Start(index: index, snapshot: snapshots.removeValue(forKey: index) ?? variables)
        }
    }

    private let state: Mutex<State>

    /// `needs[i]`: the earlier requests request i waits for; `variables`: what the first requests start from.
    init(needs: [[Int]], variables: VariableContext) {
        var dependents = [[Int]](repeating: [], count: needs.count)
        for (index, earlier) in needs.enumerated() {
            for position in earlier { dependents[position].append(index) }
        }
        let ready = needs.map(\.isEmpty)
        state = Mutex(State(variables: variables, waitingFor: needs.map(\.count), dependents: dependents,
                            ready: ready, readyCount: ready.filter { $0 }.count))
    }

    /// The next request to run, waiting while none is ready but some are running; nil once the run is over
    /// (every request ran, the run stopped, or the task was cancelled).
    nonisolated(nonsending) func next() async -> Start? {
        let cancelled = Task.isCancelled
        switch decide(cancelled: cancelled, queueing: nil) {
        case .start(let start): return start
        case .done: return nil
        case .wait: break
        }
        return await withCheckedContinuation { continuation in
            switch decide(cancelled: cancelled, queueing: continuation) {
            case .start(let start): continuation.resume(returning: start)
            case .done: continuation.resume(returning: nil)
            case .wait: break
            }
        }
    }

    /// Takes the lowest ready request, or ends the run for every idle worker too (stopped, cancelled, or
    /// nothing left), or queues `continuation` to wait.
    private func decide(cancelled: Bool, queueing continuation: CheckedContinuation<Start?, Never>?) -> Decision {
        let (decision, released) = state.withLock { state -> (Decision, [CheckedContinuation<Start?, Never>]) in
            if cancelled { state.stopped = true }
            if !state.stopped && state.readyCount > 0 { return (.start(state.takeLowest()), []) }
            if state.stopped || state.running == 0 {
                // A cancelled worker may have left a ready request others wait for: none waits on.
                defer { state.idle = [] }
                return (.done, state.idle)
            }
            if let continuation { state.idle.append(continuation) }
            return (.wait, [])
        }
        for waiting in released { waiting.resume(returning: nil) }
        return decision
    }

    /// Merges what a request left, readies the requests that waited only for it, and hands them to idle workers
    /// (all but one: the worker handing this back takes that one next, on its own thread).
    func finish(_ finished: Finished) {
        let wakes = state.withLock { state -> [(CheckedContinuation<Start?, Never>, Start?)] in
            state.running -= 1
            // A response no request of the run reads was never recorded (`ResponseStore.keptNames`).
            state.variables.responses.merge(finished.own.responses)
            // Only what this request's scripts changed: another request may have set a global meanwhile.
            for (name, value) in finished.own.globals where finished.before[name] != value {
                state.variables.globals[name] = value
            }
            state.variables.lazyGlobals.merge(finished.own.lazyGlobals) { _, new in new }
            state.variables.ranFileScripts.formUnion(finished.own.ranFileScripts)
            for dependent in state.dependents[finished.index] {
                state.waitingFor[dependent] -= 1
                if state.waitingFor[dependent] == 0 {
                    state.snapshots[dependent] = state.variables
                    state.ready[dependent] = true
                    state.readyCount += 1
                    state.lowest = min(state.lowest, dependent)
                }
            }
            state.outcomes += finished.kept
            if !finished.goOn { state.stopped = true }
            var wakes: [(CheckedContinuation<Start?, Never>, Start?)] = []
            if state.stopped || (state.running == 0 && state.readyCount == 0) {
                wakes = state.idle.map { ($0, nil) }
                state.idle = []
            }
            while !state.idle.isEmpty && state.readyCount > 1 {
                wakes.append((state.idle.removeFirst(), state.takeLowest()))
            }
            return wakes
        }
        for (continuation, start) in wakes { continuation.resume(returning: start) }
    }

    /// The outcomes kept, the responses and the globals, once every worker has ended.
    var result: (outcomes: [RunOutcome], responses: ResponseStore, globals: [String: String]) {
        state.withLock { ($0.outcomes, $0.variables.responses, $0.variables.globals) }
    }
}
