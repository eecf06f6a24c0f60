import CProcess
import CourierHTTP
import Dispatch
import Foundation
import Synchronization

/// While `courier run` runs, what it prints is written on a thread of its own, in the order it was said: the
/// loop thread that sends the requests (and resolves, checks and records them) hands each finished request's
/// printing over and goes on to the next request while the response is being formatted, instead of keeping
/// the server waiting for that. Every `Console` line said meanwhile, from any thread, takes the same lane, so
/// the output reads exactly as if it had been written at once. At most `room` pieces of work wait: a printer
/// that falls behind (a large body, a slow pipe) holds the senders back rather than the responses in memory.
///
/// The lane pays only where another core is free to print while the sender sends. When its thread keeps
/// running on the core the piece was handed over from (the machine's other cores busy), each piece costs two
/// thread switches and saves nothing: the lane then lets whoever hands a piece over print it on the spot, in
/// turn, for a spell of pieces (`firstSpell`), and tries its own thread again after them.
final class OutputLane: Sendable {
    private struct Piece {
        var work: @Sendable () -> Void
        /// The core the piece was handed over on.
        var core: Int32
    }

    private struct State {
        var pending: [Piece] = []
        /// Pieces handed over and not yet done (pending, or taken and running).
        var waiting = 0
        /// The lane's thread waits on `wake` (or is about to): the next hand-over for it signals it.
        var asleep = false
        /// Someone runs pieces now (the lane's thread, or a caller printing on the spot): nobody else takes any.
        var running = false
        /// Senders waiting on `space` for the lane to make room.
        var held = 0
        var closed = false
        /// Hand-overs left that print on the spot rather than on the lane's thread.
        var onTheSpot = 0
        /// Of the last pieces the lane's thread ran, how many ran on the core they were handed over on.
        var sampled = 0
        var sameCore = 0
        var spell = OutputLane.firstSpell

        /// The pending pieces, taken whole (their storage goes with them).
        mutating func take() -> [Piece] {
            defer { pending = [] }
            return pending
        }

        /// Counts `count` pieces the lane's thread ran, `same` of them on the core they were handed over on; at
        /// each full sample, judges whether its thread runs beside the sender or only takes turns with it.
        mutating func judge(_ count: Int, same: Int) {
            sampled += count
            sameCore += same
            guard sampled >= OutputLane.sample else { return }
            if sameCore * 4 >= sampled * 3 {
                onTheSpot = spell
                spell = min(spell * 2, OutputLane.longestSpell)
            } else {
                spell = OutputLane.firstSpell
            }
            sampled = 0
            sameCore = 0
        }
    }

    /// Pieces printed on the spot once the lane's thread was found sharing the sender's core, doubling (up to
    /// `longestSpell`) each time it is found so again: one unlucky sample costs little, a busy machine soon
    /// prints nearly everything on the spot.
    static let firstSpell = 128
    static let longestSpell = 2048
    /// Pieces the lane's thread runs before it judges whether it runs beside the sender.
    static let sample = 32

    private let state = Mutex(State())
    private let wake = DispatchSemaphore(value: 0)
    private let space = DispatchSemaphore(value: 0)
    private let ended = DispatchSemaphore(value: 0)
    private let room: Int
    /// The thread running pieces now (`pthread_self`), 0 when none: what it says prints directly.
    private let printer = Atomic<UInt>(0)

    init(room: Int = 4) {
        self.room = room
        DetachedThread.start(name: "courier.output") { [self] in
            work()
            ended.signal()
        }
    }

    /// Whether the caller is the one printing the lane's pieces now (what it says prints directly).
    var isCurrent: Bool { printer.load(ordering: .acquiring) == UInt(pthread_self()) }

    /// Runs `work` on the lane after everything handed over before it; waits while the lane is full.
    func hand(_ work: @escaping @Sendable () -> Void) {
        let piece = Piece(work: work, core: courier_current_core())
        while true {
            enum Step { case full, handed(wakes: Bool), printHere([Piece]) }
            let step = state.withLock { state -> Step in
                guard state.waiting < room else {
                    state.held += 1
                    return .full
                }
                state.pending.append(piece)
                state.waiting += 1
                if state.onTheSpot > 0, !state.running {
                    state.onTheSpot -= 1
                    state.running = true
                    return .printHere(state.take())
                }
                let wakes = state.asleep
                state.asleep = false
                return .handed(wakes: wakes)
            }
            switch step {
            case .full:
                space.wait()
                continue
            case .handed(let wakes):
                if wakes { wake.signal() }
            case .printHere(let batch):
                printHere(batch)
            }
            return
        }
    }

    /// Returns once everything handed over so far has been done.
    func drain() {
        let done = DispatchSemaphore(value: 0)
        hand { done.signal() }
        done.wait()
    }

    /// Ends the lane's thread once what it holds is done.
    func close() {
        let wakes = state.withLock { state -> Bool in
            state.closed = true
            defer { state.asleep = false }
            return state.asleep
        }
        if wakes { wake.signal() }
        ended.wait()
    }

    /// The caller prints `batch` and whatever is handed over meanwhile, then lets the lane go on.
    private func printHere(_ first: [Piece]) {
        var batch = first
        while !batch.isEmpty {
            run(batch, sampling: false)
            batch = state.withLock { state in
                if state.pending.isEmpty { state.running = false }
                return state.take()
            }
        }
        // A piece handed over for the lane's thread while this one printed may wait for it, and a lane closed
        // meanwhile waits to be told it may end.
        let wakes = state.withLock { state -> Bool in
            guard !state.running, state.asleep, !state.pending.isEmpty || state.closed else { return false }
            state.asleep = false
            return true
        }
        if wakes { wake.signal() }
    }

    /// Runs `batch` in order as the lane's printer, then makes room for the senders it held back.
    private func run(_ batch: [Piece], sampling: Bool) {
        printer.store(UInt(pthread_self()), ordering: .releasing)
        var same = 0
        for piece in batch {
            if sampling, courier_current_core() == piece.core { same += 1 }
            piece.work()
        }
        printer.store(0, ordering: .releasing)
        let release = state.withLock { state -> Int in
            state.waiting -= batch.count
            if sampling { state.judge(batch.count, same: same) }
            defer { state.held = 0 }
            return state.held
        }
        for _ in 0..<release { space.signal() }
    }

    /// The lane's thread: takes everything handed over so far, does it in order, and sleeps when none is left.
    private func work() {
        while true {
            enum Step { case stop, sleep, print([Piece]) }
            let step = state.withLock { state -> Step in
                if !state.running, !state.pending.isEmpty {
                    state.running = true
                    return .print(state.take())
                }
                if state.closed, !state.running, state.pending.isEmpty { return .stop }
                state.asleep = true
                return .sleep
            }
            switch step {
            case .stop:
                return
            case .sleep:
                wake.wait()
            case .print(let batch):
                run(batch, sampling: true)
                state.withLock { $0.running = false }
            }
        }
    }
}
