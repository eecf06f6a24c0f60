import CourierHTTP
import Foundation
import Synchronization

/// What a send in flight tells the loop as it goes: the body's bytes arriving, a few times a second at most
/// (the transport reports every chunk; the screen needs no more than it can draw).
extension EffectRunner {
    /// `context`, its request announced to the loop (`sendStarted`) and its body's progress posted as
    /// `sendProgress` actions.
    static func progressContext(_ context: RequestContext, generation: Int, queue: ActionQueue) -> RequestContext {
        queue.post(.sendStarted(generation: generation, id: context.id))
        let throttle = ProgressThrottle()
        var context = context
        let earlier = context.onProgress
        context.onProgress = { progress in
            earlier?(progress)
            if throttle.due(progress) { queue.post(.sendProgress(generation: generation, progress)) }
        }
        // The Log shows the headers as they went out, with those libcurl added.
        let id = context.id
        context.onRequestHead = { head in queue.post(.requestHeadSent(id, LogPaneState.headers(ofHead: head))) }
        return context
    }
}

/// Lets one progress report through per interval, and the last one of a body (all its bytes arrived).
final class ProgressThrottle: Sendable {
    private let last = Mutex<ContinuousClock.Instant?>(nil)
    /// The shortest time between two reports.
    static let interval = Duration.milliseconds(100)

    /// Whether `progress` should be posted now.
    func due(_ progress: TransferProgress) -> Bool {
        let now = ContinuousClock.now
        return last.withLock { last in
            let complete = progress.expected.map { progress.received >= $0 } ?? false
            guard complete || last.map({ now - $0 >= Self.interval }) ?? true else { return false }
            last = now
            return true
        }
    }
}
