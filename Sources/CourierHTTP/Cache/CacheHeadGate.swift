import CourierMessage
import Foundation
import Synchronization

/// Keeps from the caller's `onHead` and `onChunk` the network answers that the cache replaces by a
/// stored response while it validates (a 304, an error status the stored response stands in for),
/// so the caller sees the head of the response it gets, not the head of the validation.
final class CacheHeadGate: Sendable {
    /// Whether the last head from the network was passed on; its body chunks follow it or not.
    private let passing = Atomic<Bool>(true)
    private let withholds: @Sendable (ResponseHead) -> Bool

    private init(withholds: @escaping @Sendable (ResponseHead) -> Bool) {
        self.withholds = withholds
    }

    /// `context` with its head and chunk hooks behind a gate that withholds the heads `withholds`
    /// picks, with their bodies; unchanged when the caller set neither hook.
    static func context(_ context: RequestContext,
                        withholding withholds: @escaping @Sendable (ResponseHead) -> Bool) -> RequestContext {
        guard context.onHead != nil || context.onChunk != nil else { return context }
        let gate = CacheHeadGate(withholds: withholds)
        var gated = context
        let onHead = context.onHead
        let onChunk = context.onChunk
        gated.onHead = { head in
            let passes = !gate.withholds(head)
            gate.passing.store(passes, ordering: .relaxed)
            if passes { onHead?(head) }
        }
        if let onChunk {
            gated.onChunk = { chunk in
                if gate.passing.load(ordering: .relaxed) { onChunk(chunk) }
            }
        }
        return gated
    }
}
