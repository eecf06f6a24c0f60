import CourierHTTP
import Synchronization

/// The clients a parallel run (`courier run --jobs N`) sends through, each with the executor its requests run
/// on: the loop thread of that client's transport, so a request is resolved, sent, resumed and checked on one
/// thread with no hand-off, and K clients keep K cores busy where one loop thread kept one. Shared by every
/// file of the run: each of a file's workers takes the lane with the fewest workers on it (the lowest on a
/// tie), so the loops stay evenly busy across files.
public final class SendLanes: Sendable {
    /// One client: how to send through it, and where its requests run (nil: wherever the caller's task runs).
    public struct Lane: Sendable {
        public var executor: (any TaskExecutor)?
        public var send: CollectionRunner.Send

        public init(executor: (any TaskExecutor)?, send: @escaping CollectionRunner.Send) {
            self.executor = executor
            self.send = send
        }
    }

    public let lanes: [Lane]
    /// Workers on each lane, shared with the lanes `map` makes.
    private let load: Load

    /// At least one lane is needed.
    public convenience init(_ lanes: [Lane]) {
        precondition(!lanes.isEmpty, "a run sends through at least one client")
        self.init(lanes, load: Load(count: lanes.count))
    }

    private init(_ lanes: [Lane], load: Load) {
        self.lanes = lanes
        self.load = load
    }

    /// The same clients with each send wrapped by `transform` (a file's own warnings), counted together with
    /// these: a worker of either takes the least busy client of both.
    public func map(_ transform: (Lane) -> Lane) -> SendLanes {
        SendLanes(lanes.map(transform), load: load)
    }

    /// The lane the next worker sends through, counted as busy until `finished(_:)`.
    public func take() -> Int {
        load.counts.withLock { counts in
            var best = 0
            for index in counts.indices.dropFirst() where counts[index] < counts[best] { best = index }
            counts[best] += 1
            return best
        }
    }

    /// A worker of lane `index` is done.
    public func finished(_ index: Int) {
        load.counts.withLock { $0[index] -= 1 }
    }

    private final class Load: Sendable {
        let counts: Mutex<[Int]>

        init(count: Int) { counts = Mutex([Int](repeating: 0, count: count)) }
    }
}
