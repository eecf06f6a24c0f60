import CourierCollections
import CourierHTTP
import Foundation
import Synchronization

/// The workers of `courier load`: `concurrency` of them, each sending the request (`LoadRequest`: resolved
/// once when it never changes, else the way `courier run` sends it: scripts, auth, variables) until the run
/// ends. Closed loop by default: a worker sends its next request when its last one ends, and its latency is
/// the exchange's, from its transfer's start, as wrk measures (`Origin`). Open loop with a rate: request i
/// is due at start + i / rate, a worker waits for that moment, and its latency counts from then, so a slow
/// server that delays the next sends shows in the percentiles instead of hiding (coordinated omission).
struct LoadRun: Sendable {
    /// When the run ends.
    enum Limit: Sendable {
        case requests(Int)
        case duration(Duration)
    }

    /// Where a request's latency is counted from.
    enum Origin: String, Sendable {
        /// Its transfer's start (closed loop without retries): the exchange alone, as wrk times it.
        case transferStart
        /// When the worker began the send: with retries on, every attempt and the waits between them.
        case sendStart
        /// When it was due (open loop), however late it could be sent.
        case dueTime

        init(rate: Double?, retries: Bool) {
            self = rate != nil ? .dueTime : retries ? .sendStart : .transferStart
        }
    }

    /// The request as each client sends it; worker i sends through `requests[i % count]`.
    var requests: [LoadRequest]
    /// Where worker i runs: the loop thread of the client it sends through (`executors[i % count]`), or anywhere.
    var executors: [(any TaskExecutor)?]
    var concurrency: Int
    var limit: Limit
    /// Requests per second, open loop; nil for closed loop.
    var rate: Double?
    var tally: LoadTally
    var origin: Origin

    /// Runs the workers; returns how long the run took.
    func run() async -> Duration {
        let clock = ContinuousClock()
        let start = clock.now
        let tickets = Tickets()
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<concurrency {
                let request = requests[worker % requests.count]
                let executor = executors.isEmpty ? nil : executors[worker % executors.count]
                group.addTask(executorPreference: executor) {
                    while !Task.isCancelled {
                        let ticket = tickets.next()
                        if case .requests(let count) = limit, ticket >= count { return }
                        var due = clock.now
                        if let rate { due = start + .seconds(Double(ticket) / rate) }
                        if case .duration(let length) = limit, due - start >= length { return }
                        if due > clock.now {
                            do { try await Task.sleep(until: due, clock: clock) } catch { return }
                        }
                        let result = await request()
                        // A request cut short by Ctrl-C is not counted: its time says nothing of the server.
                        if Task.isCancelled { return }
                        let whole = clock.now - due
                        tally.record(result, latency: origin == .transferStart ? result.exchange ?? whole : whole)
                    }
                }
            }
        }
        return clock.now - start
    }
}

/// The numbers the workers take their requests by, each once.
private final class Tickets: Sendable {
    private let taken = Atomic<Int>(0)

    func next() -> Int { taken.add(1, ordering: .relaxed).oldValue }
}
