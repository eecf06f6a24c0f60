import Foundation
import Synchronization

/// The bytes a child process has written to one stream so far. Appended from the reader thread; a test
/// awaits a condition on it, resumed by the append that makes it true, so nothing polls.
public final class ChildOutput: Sendable {
    private struct Waiter {
        var condition: @Sendable (String) -> Bool
        var continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var data = Data()
        var ended = false
        var waiters: [UUID: Waiter] = [:]
        /// Waits whose limit passed before they were registered.
        var expired: Set<UUID> = []
    }

    private let state = Mutex(State())

    public init() {}

    /// Everything received so far.
    public var data: Data { state.withLock { $0.data } }
    /// Everything received so far, as UTF-8 text.
    public var text: String { String(decoding: data, as: UTF8.self) }

    /// Waits until `condition` holds for the text received so far, the stream ends without it holding, or
    /// `limit` passes; true when it held.
    public func wait(limit: Duration = .seconds(60), until condition: @escaping @Sendable (String) -> Bool) async -> Bool {
        let id = UUID()
        let timer = Task {
            try? await Task.sleep(for: limit)
            resume(id, with: condition(text))
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { continuation in
            let settled: Bool? = state.withLock { state in
                let text = String(decoding: state.data, as: UTF8.self)
                if condition(text) { return true }
                if state.ended || state.expired.remove(id) != nil { return false }
                state.waiters[id] = Waiter(condition: condition, continuation: continuation)
                return nil
            }
            if let settled { continuation.resume(returning: settled) }
        }
    }

    /// Waits until the writer closes the stream, or `limit` passes.
    public func endOfStream(limit: Duration = .seconds(60)) async {
        _ = await wait(limit: limit) { _ in false }
    }

    func append(_ chunk: Data) {
        let ready: [(CheckedContinuation<Bool, Never>, Bool)] = state.withLock { state in
            state.data.append(chunk)
            // Decoded only when someone waits: a large output must not cost its size at every chunk.
            guard !state.waiters.isEmpty else { return [] }
            let text = String(decoding: state.data, as: UTF8.self)
            let met = state.waiters.filter { $0.value.condition(text) }
            for id in met.keys { state.waiters[id] = nil }
            return met.values.map { ($0.continuation, true) }
        }
        for (continuation, value) in ready { continuation.resume(returning: value) }
    }

    /// The stream reached end of file: waiters whose condition never held learn it now.
    func end() {
        let waiting: [CheckedContinuation<Bool, Never>] = state.withLock { state in
            state.ended = true
            defer { state.waiters = [:] }
            return state.waiters.values.map(\.continuation)
        }
        for continuation in waiting { continuation.resume(returning: false) }
    }

    private func resume(_ id: UUID, with value: Bool) {
        let waiter: Waiter? = state.withLock { state in
            guard let waiter = state.waiters.removeValue(forKey: id) else {
                state.expired.insert(id)
                return nil
            }
            return waiter
        }
        guard let waiter else { return }
        waiter.continuation.resume(returning: value)
    }
}
