import CourierHTTP

/// Wiring the compare pane to the HTTP cache, for the explorer's update and effect runner.
extension ComparePaneState {
    /// The pane for `request`, showing the cache's latest validation of it, if any.
    public init(request: HTTPRequest, cache: HTTPCacheMiddleware) {
        self.init(title: "\(request.method) \(request.url.absoluteString)",
                  revalidation: cache.lastRevalidation(method: request.method, url: request.url))
        stored = cache.storedResponse(for: request).map(CacheComparison.Side.init)
    }

    /// Performs `ComparePaneEffect.revalidateNow`: sends the conditional request for the stored
    /// response through `transport` and returns the comparison (nil when nothing is stored).
    /// Hand the result to `load`, or a failure's description to `fail`.
    public static func revalidate(_ request: HTTPRequest, cache: HTTPCacheMiddleware, transport: any Transport,
                                  context: RequestContext = RequestContext()) async
        -> Result<CacheRevalidation?, APIError> {
        do {
            return .success(try await cache.revalidateNow(request, context: context, transport: transport))
        } catch {
            return .failure(error)
        }
    }
}
