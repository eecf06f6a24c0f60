import CourierBody
import Foundation

extension BodyJob {
    /// What the user waits for (a search, a filter, a diff) runs before what only prepares (the index), which
    /// on a small machine must leave the frames their share of the cores.
    public var priority: TaskPriority {
        if case .index = work { return .utility }
        return .userInitiated
    }

    /// Does the work on the calling thread (the runner calls it from a task of its own), reporting every step;
    /// stops early, with no final report, once `isCancelled` answers true.
    public func run(isCancelled: () -> Bool, report: (BodyJobReport) -> Void) {
        switch work {
        case .search(let search, let source):
            search.run(in: source, isCancelled: isCancelled) { report(.searched(generation: generation, $0)) }
        case .filter(let filter, let body):
            let outcome = filter.run(over: body, isCancelled: isCancelled) {
                report(.filtering(generation: generation, $0))
            }
            if let outcome { report(.filtered(generation: generation, outcome)) }
        case .index(let sources):
            for source in sources {
                // A short pause between chunks: a lock released and at once taken again is rarely won by the
                // waiting frame, which would then wait for the whole raw index (a tenth of a second for 50 MB);
                // the pause costs about 1% of the indexing speed.
                while !isCancelled(), !source.indexMore() {
                    report(.indexed(generation: generation, finished: false))
                    usleep(100)
                }
            }
            if !isCancelled() { report(.indexed(generation: generation, finished: true)) }
        case .diff(let old, let new):
            // Not cancellable midway: the line diff is one computation, bounded by `ResponseDiff.maxLines`.
            let lines = ResponseDiff.lines(old: old, new: new)
            if !isCancelled() { report(.diffed(generation: generation, lines)) }
        }
    }
}
