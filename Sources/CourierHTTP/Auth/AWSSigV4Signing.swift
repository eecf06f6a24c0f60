import Foundation

/// Signs every attempt of a request that carries `HTTPRequest.awsSigV4`, next to the transport, so the
/// signature covers the request exactly as it goes out (cookies, a cache validator) and each retry gets
/// its own `X-Amz-Date`.
public struct AWSSigV4Signing: Middleware {
    let now: @Sendable () -> Date

    public init(now: @escaping @Sendable () -> Date = { Date() }) { self.now = now }

    public func intercept(_ request: HTTPRequest, context: RequestContext,
                          next: Next) async throws(APIError) -> HTTPResponse {
        guard let configuration = request.awsSigV4 else { return try await next(request, context) }
        var response = try await next(try AWSSigV4Signer.sign(request, with: configuration, at: now()), context)
        response.sentSecrets.formUnion(configuration.secrets)
        return response
    }
}
