import CourierHTTP

/// A transport made on another thread, so the explorer's first frame does not wait for it: making
/// `CurlTransport` initialises libcurl (and OpenSSL) and sweeps stale body files, none of which the first
/// screen needs. A send made before it is ready waits for it.
public final class DeferredTransport: Transport {
    private let made: Task<any Transport, Never>

    /// Starts making the transport at once, in the background.
    public init(_ make: @escaping @Sendable () -> any Transport) {
        made = Task.detached(priority: .userInitiated) { make() }
    }

    /// Sends through the transport once it is made.
    public func send(_ request: HTTPRequest, context: RequestContext) async throws(APIError) -> HTTPResponse {
        try await made.value.send(request, context: context)
    }
}
