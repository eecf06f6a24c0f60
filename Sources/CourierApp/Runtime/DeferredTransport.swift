import CourierHTTP
import Synchronization

/// A transport made only once the explorer's first frame is drawn (`start()`, called by the run loop after it):
/// making `CurlTransport` initialises libcurl (and OpenSSL) and sweeps stale body files, none of which the
/// first screen needs, and on a busy machine a thread doing it took the CPU from the frame. A send made before
/// then makes it at once.
public final class DeferredTransport: Transport {
    private let make: @Sendable () -> any Transport
    private let made = Mutex<Task<any Transport, Never>?>(nil)

    /// A transport `make` makes when `start()` or the first send asks for it.
    public init(_ make: @escaping @Sendable () -> any Transport) {
        self.make = make
    }

    /// Starts making the transport in the background, unless it is under way.
    public func start() { _ = task() }

    /// Sends through the transport once it is made.
    public func send(_ request: HTTPRequest, context: RequestContext) async throws(APIError) -> HTTPResponse {
        try await task().value.send(request, context: context)
    }

    private func task() -> Task<any Transport, Never> {
        made.withLock { made in
            if let made { return made }
            let make = self.make
            let task = Task.detached(priority: .userInitiated) { make() }
            made = task
            return task
        }
    }
}
