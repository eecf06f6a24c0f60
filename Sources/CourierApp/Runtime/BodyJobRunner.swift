import CourierBody
import CourierHTTP
import CourierCollections
import Foundation
import Synchronization

/// Runs the explorer's body jobs (search, filter, index, diff), each on a thread of its own, and posts their reports
/// as actions. A job is cancelled by its generation, as a send is; reports that outrun the loop are folded
/// into one action per drained queue, so a fast job cannot flood it.
final class BodyJobRunner: Sendable {
    private let queue: ActionQueue
    private let running = Mutex<[Int: Task<Void, Never>]>([:])
    /// The least time between two progress actions of one job: the loop's tick, which redraws the progress
    /// anyway while work runs. The last report always goes at once.
    static let reportInterval = Explorer.tickInterval

    init(queue: ActionQueue) { self.queue = queue }

    /// Starts `job`; its reports arrive through the queue.
    func start(_ job: BodyJob) {
        let queue = self.queue
        // Held while the task is stored, so a job that ends at once still finds itself to remove.
        running.withLock { running in
            running[job.generation] = Task.detached(priority: job.priority) { [weak self] in
                // The job runs on a thread of its own: it waits (sleeping) for a body still arriving, which
                // for a stream may be for ever, and must not hold a thread of the cooperative pool meanwhile.
                await OwnThread.run(named: "courier.body") { cancelled in
                    let clock = ContinuousClock()
                    var pending: BodyJobReport?
                    var lastPost = clock.now - Self.reportInterval
                    job.run(isCancelled: { cancelled.isSet }) { report in
                        pending = report.merged(after: pending)
                        let due = clock.now - lastPost >= Self.reportInterval && queue.isEmpty
                        guard report.isFinal || due, let ready = pending else { return }
                        queue.post(.bodyJob(ready))
                        pending = nil
                        lastPost = clock.now
                    }
                }
                _ = self?.running.withLock { $0.removeValue(forKey: job.generation) }
            }
        }
    }

    /// Stops the job with `generation`, if it still runs; its late reports are dropped by `update`.
    func cancel(_ generation: Int) {
        running.withLock { $0.removeValue(forKey: generation) }?.cancel()
    }

    /// Stops every job (the explorer is quitting).
    func cancelAll() {
        running.withLock { running in defer { running = [:] }; return Array(running.values) }.forEach { $0.cancel() }
    }
}
