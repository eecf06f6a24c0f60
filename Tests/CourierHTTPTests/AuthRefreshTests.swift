import Foundation
import Synchronization
import Testing
@testable import CourierHTTP

/// Bearer tokens with single-flight refresh, on a stub transport.
@Suite struct AuthRefreshTests {
    let api = URL(string: "http://stub.test/me")!
    let refreshURL = URL(string: "http://stub.test/auth/refresh")!

    /// A stub server: /me accepts only "Bearer fresh"; /auth/refresh answers with `refreshStatus`.
    func server(refreshStatus: Int = 200, refreshDelay: Duration = .milliseconds(50)) -> StubTransport {
        StubTransport { request, _ in
            if request.url.path == "/auth/refresh" {
                try await Task.sleep(for: refreshDelay)
                return .stub(refreshStatus, body: refreshStatus == 200 ? #"{"access_token":"fresh","refresh_token":"r2"}"# : "")
            }
            return request.headers["Authorization"] == "Bearer fresh" ? .stub(200, body: "{}") : .stub(401)
        }
    }

    func client(_ transport: StubTransport, store: TokenStore) -> HTTPClient {
        let auth = AuthMiddleware(store: store, refresher: .json(url: refreshURL), transport: transport)
        return HTTPClient(configuration: .init(transport: transport, auth: auth, sleeper: InstantSleeper()))
    }

    @Test func tenConcurrentCallersShareOneRefreshThenReplayOnceEach() async throws {
        // Given an expired token and ten requests in flight at once
        let transport = server()
        let store = TokenStore(credentials: Credentials(accessToken: "stale", refreshToken: "r1"))
        let client = client(transport, store: store)
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<10 { group.addTask { try await client.send(HTTPRequest(url: api)).status } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        // Then every caller succeeded after exactly one refresh and one replay each
        let requests = transport.requests
        #expect(statuses == Array(repeating: 200, count: 10))
        #expect(requests.filter { $0.url.path == "/auth/refresh" }.count == 1)
        #expect(await store.refreshCount == 1)
        #expect(requests.filter { $0.url.path == "/me" && $0.headers["Authorization"] == "Bearer fresh" }.count == 10)
        #expect(requests.filter { $0.url.path == "/me" }.count == 20)
        #expect(await store.credentials == Credentials(accessToken: "fresh", refreshToken: "r2"))
    }

    @Test func aRefreshRefusedWith401SignsOutWithoutLooping() async throws {
        // Given a refresh endpoint that refuses the refresh token
        let transport = server(refreshStatus: 401)
        let store = TokenStore(credentials: Credentials(accessToken: "stale", refreshToken: "revoked"))
        let client = client(transport, store: store)
        // When a request gets a 401
        let response = try await client.send(HTTPRequest(url: api))
        // Then the 401 comes back, the store is signed out, and nothing was sent again
        #expect(response.status == 401)
        #expect(await store.isSignedIn == false)
        #expect(transport.requests.map(\.url.path) == ["/me", "/auth/refresh"])
        // And an endpoint reports it as unauthorized
        await #expect {
            _ = try await client.send(Endpoint<EmptyResponse>(request: HTTPRequest(url: api)))
        } throws: { error in
            if case .unauthorized = error as? APIError { return true }
            return false
        }
    }

    @Test func aSecond401AfterTheReplayIsReturnedNotRefreshedAgain() async throws {
        // Given a server that refuses every token, even the fresh one
        let transport = StubTransport { request, _ in
            request.url.path == "/auth/refresh" ? .stub(200, body: #"{"access_token":"fresh"}"#) : .stub(401)
        }
        let store = TokenStore(credentials: Credentials(accessToken: "stale", refreshToken: "r1"))
        let response = try await client(transport, store: store).send(HTTPRequest(url: api))
        #expect(response.status == 401)
        #expect(transport.requests.map(\.url.path) == ["/me", "/auth/refresh", "/me"])
    }

    @Test func aReplayIsRecordedAsTheNextAttemptOfTheSameRequest() async throws {
        let transport = server()
        let store = TokenStore(credentials: Credentials(accessToken: "stale", refreshToken: "r1"))
        let recorder = AttemptRecorder()
        let auth = AuthMiddleware(store: store, refresher: .json(url: refreshURL), transport: transport)
        let client = HTTPClient(configuration: .init(transport: transport, auth: auth, sleeper: InstantSleeper(),
                                                     events: recorder.sink))
        let context = RequestContext()
        _ = try await client.send(HTTPRequest(url: api), context: context)
        let attempts = recorder.attempts(for: context.id)
        #expect(attempts.map(\.status) == [401, 200])
        #expect(attempts.map(\.sequence) == [1, 2])
    }

    @Test func theRequestsOwnAuthorizationIsLeftAlone() async throws {
        let transport = server()
        let store = TokenStore(credentials: Credentials(accessToken: "stale"))
        let request = HTTPRequest(url: api, headers: ["Authorization": "Bearer fresh"])
        let response = try await client(transport, store: store).send(request)
        #expect(response.status == 200)
        #expect(transport.callCount == 1)
    }

    @Test func signedOutRequestsGoOutWithoutAuthorization() async throws {
        let transport = server()
        let response = try await client(transport, store: TokenStore()).send(HTTPRequest(url: api))
        #expect(response.status == 401)
        #expect(transport.requests.first?.headers["Authorization"] == nil)
        #expect(transport.callCount == 1)
    }
}
