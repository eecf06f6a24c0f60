import CourierCollections
import CourierHTTP
import Foundation
import Synchronization

/// The workers of `courier load`: `concurrency` of them, each sending the request (`LoadRequest`: resolved
/// once when it never changes, else the way `courier run` sends it: scripts, auth, variables) until the run
/// ends. Closed loop by default: a worker sends its next request when its last one ends. Open loop with a
/// rate: request i is due at start + i / rate, a worker waits for that moment, and its latency counts from
/// then, so a slow server that delays the next sends shows in the percentiles instead of hiding
/// (coordinated omission).
struct LoadRun: Sendable {
    /// When the run ends.
    enum Limit: Sendable {
        case requests(Int)
        case duration(Duration)
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
                        tally.record(result, latency: clock.now - due)
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
