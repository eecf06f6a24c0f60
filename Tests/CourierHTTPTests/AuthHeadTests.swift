import CourierMessage
import Foundation
import Synchronization
import Testing
@testable import CourierHTTP

/// The auth middleware and `RequestContext.onHead`: the caller sees the heads of its own request's
/// attempts (the 401 and the replay), never the head of the token refresh.
@Suite struct AuthHeadTests {
    /// A stub that hands each answer's head to the context, as the real transport does.
    struct AnnouncingTransport: Transport {
        let inner: StubTransport
        func send(_ request: HTTPRequest, context: RequestContext) async throws(APIError) -> HTTPResponse {
            let response = try await inner.send(request, context: context)
            context.onHead?(ResponseHead(response))
            return response
        }
    }

    @Test("After a 401, the caller sees the 401's head and the replay's, not the refresh's")
    func theRefreshHeadStaysInside() async throws {
        // Given an expired token, and a refresh endpoint answering 201 so its head is recognisable
        let stub = StubTransport { request, _ in
            if request.url.path == "/auth/refresh" {
                return .stub(201, body: #"{"access_token":"fresh","refresh_token":"r2"}"#)
            }
            return request.headers["Authorization"] == "Bearer fresh" ? .stub(200, body: "{}") : .stub(401)
        }
        let transport = AnnouncingTransport(inner: stub)
        let store = TokenStore(credentials: Credentials(accessToken: "stale", refreshToken: "r1"))
        let auth = AuthMiddleware(store: store, refresher: .json(url: URL(string: "http://stub.test/auth/refresh")!),
                                  transport: transport)
        let client = HTTPClient(configuration: .init(transport: transport, auth: auth, sleeper: InstantSleeper()))
        let heads = Mutex<[Int]>([])
        var context = RequestContext()
        context.onHead = { head in heads.withLock { $0.append(head.status) } }
        // When a request is sent
        let response = try await client.send(HTTPRequest(url: URL(string: "http://stub.test/me")!), context: context)
        // Then the refresh happened, and the caller saw the 401 then the 200
        #expect(response.status == 200)
        #expect(stub.requests.map(\.url.path) == ["/me", "/auth/refresh", "/me"])
        #expect(heads.withLock { $0 } == [401, 200])
    }
}
