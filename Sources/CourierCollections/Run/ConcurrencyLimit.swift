/// At most a given number of requests in flight at once, shared by every file of a run (`courier run --jobs N`):
/// a waiting request takes the next free place, first come first served.
public actor ConcurrencyLimit {
    public let width: Int
    private var inUse = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    public init(_ width: Int) { self.width = max(1, width) }

    /// Waits for a free place and takes it.
    public func acquire() async {
        if inUse < width {
            inUse += 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Gives a place back, to the longest waiter when there is one.
    public func release() {
        if waiting.isEmpty {
            inUse -= 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}
