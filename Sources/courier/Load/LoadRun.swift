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
/// Closed loop, a request every client sends straight to libcurl's transport is sent by the curl loops themselves
/// after the first (`CurlRepeater`): no task per request; the workers take over what a loop hands back. Where
/// that is exactly equivalent (plain HTTP/1.1, no proxy: `CurlRepeater.onWire`), the loops write the bytes libcurl
/// sent for the first request on connections libcurl opened, and read the responses with http-parser
/// (`WireRepeater`): none of libcurl's work per transfer.
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

    /// How a run went.
    struct Report: Sendable {
        var elapsed: Duration
        /// Whether the curl loop sent requests itself (`CurlRepeater`), with no task per request.
        var sentOnLoop = false
        /// Whether the loop handed the rest over to the workers (a redirect or a cookie to keep).
        var handedOver = false
        /// Whether the loops wrote the requests on their own connections (`WireRepeater`) rather than through
        /// libcurl's transfers (`CurlRepeater`).
        var sentOnWire = false
    }

    /// Runs the workers, or the curl loops themselves when they can send the request; returns how long it took.
    func run() async -> Report {
        let clock = ContinuousClock()
        let start = clock.now
        let tickets = Tickets()
        var report = Report(elapsed: .zero)
        let repeaters = requests.compactMap(\.repeater)
        if rate == nil, origin == .transferStart, repeaters.count == requests.count, !repeaters.isEmpty {
            // The first request goes the ordinary way: a response that redirects or sets a cookie keeps the run
            // there, without the loop sending a request of each connection first.
            if let first = requests.first, Self.takes(tickets.next(), limit: limit, elapsed: .zero) {
                let result = await first(keepingHead: true)
                if Task.isCancelled { return Report(elapsed: clock.now - start) }
                tally.record(result, latency: result.exchange ?? (clock.now - start))
                if LoadRequest.leavesLoopAlone(result) {
                    report.sentOnLoop = true
                    let wires = result.sentHead.map { head in repeaters.compactMap { $0.onWire(head: head) } } ?? []
                    if wires.count == repeaters.count {
                        report.sentOnWire = true
                        report.handedOver = await runOnLoops(wires.count, tickets: tickets, since: start) {
                            await wires[$0].run(connections: $1, hooks: $2)
                        }
                    } else {
                        report.handedOver = await runOnLoops(repeaters.count, tickets: tickets, since: start) {
                            await repeaters[$0].run(connections: $1, hooks: $2)
                        }
                    }
                }
            }
        }
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
        report.elapsed = clock.now - start
        return report
    }

    /// Whether the request numbered `ticket` may start `elapsed` into the run (closed loop).
    private static func takes(_ ticket: Int, limit: Limit, elapsed: Duration) -> Bool {
        switch limit {
        case .requests(let count): ticket < count
        case .duration(let length): elapsed < length
        }
    }

    /// The request sent by each client's loop itself (`send(client, connections, hooks)`: a `CurlRepeater` or a
    /// `WireRepeater` run), its share of the connections on each, until the run ends; true when a response handed
    /// the rest over to the workers.
    private func runOnLoops(_ count: Int, tickets: Tickets, since start: ContinuousClock.Instant,
                            send: @escaping @Sendable (Int, Int, CurlRepeater.Hooks) async -> CurlRepeater.Ending)
        async -> Bool {
        let (limit, tally, template) = (limit, tally, requests[0])
        let hooks = CurlRepeater.Hooks(
            next: { Self.takes(tickets.next(), limit: limit, elapsed: ContinuousClock.now - start) },
            record: { tally.record($0, failed: template.failed($0)) },
            giveBack: { tickets.giveBack() })
        return await withTaskGroup(of: CurlRepeater.Ending.self) { group in
            for index in 0..<count {
                // Worker i's connection is on client i % count, as the workers are.
                let share = (concurrency - index + count - 1) / count
                let executor = executors.isEmpty ? nil : executors[index % executors.count]
                group.addTask(executorPreference: executor) {
                    await send(index, share, hooks)
                }
            }
            var handedOver = false
            for await ending in group where ending == .handedOver { handedOver = true }
            return handedOver
        }
    }
}

/// The numbers the workers take their requests by, each once; a number given back (a request the curl loop
/// handed over) is taken again first. Only the count matters then: the loop runs closed loop only.
private final class Tickets: Sendable {
    private let taken = Atomic<Int>(0)
    private let returned = Atomic<Int>(0)

    func next() -> Int {
        var left = returned.load(ordering: .relaxed)
        while left > 0 {
            let (exchanged, original) = returned.compareExchange(expected: left, desired: left - 1,
                                                                 ordering: .relaxed)
            if exchanged { return 0 }
            left = original
        }
        return taken.add(1, ordering: .relaxed).oldValue
    }

    func giveBack() { returned.add(1, ordering: .relaxed) }
}
