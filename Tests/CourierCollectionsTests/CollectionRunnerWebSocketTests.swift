import CourierHTTP
import Foundation
import Synchronization
import Testing
@testable import CourierCollections

@Suite("Running WebSocket requests in a collection")
struct CollectionRunnerWebSocketTests {
    static let text = """
        @host = api.test

        # @name socket
        WEBSOCKET wss://{{host}}/ws
        X-Who: {{who}}

        hello {{who}}
        === wait-for-server
        bye

        ###
        # @name refused
        WEBSOCKET wss://{{host}}/refused
        """

    private func runner(exchange: CollectionRunner.Exchange?) -> CollectionRunner {
        CollectionRunner(file: HTTPFile(path: "w.http", text: Self.text), baseFolder: URL(fileURLWithPath: "/"),
                         context: VariableContext(overrides: ["who": "ada"], processEnvironment: [:]),
                         exchange: exchange) { request, _ async throws(APIError) in
            HTTPResponse(status: 200, url: request.url)
        }
    }

    @Test("with an exchange, WebSocket requests run resolved and their results become outcomes")
    func webSocketRequestsRunThroughTheExchange() async {
        // Given an exchange that accepts /ws and refuses anything else, recording what it was given
        let seen = Mutex<[ResolvedRequest]>([])
        let exchange: CollectionRunner.Exchange = { resolved in
            seen.withLock { $0.append(resolved) }
            if resolved.request.url.path == "/ws" {
                return WebSocketRunResult(url: resolved.request.url, status: 101, sent: 2, received: 2, closeCode: 1000)
            }
            return WebSocketRunResult(url: resolved.request.url, status: 403,
                                      failure: .init(kind: .client(.handshakeRejected), message: "refused"))
        }
        // When both requests run
        let outcomes = await runner(exchange: exchange).run(HTTPFile(path: "w.http", text: Self.text).requests)
        // Then the exchange got the variables substituted in URL, headers and messages, in order
        let requests = seen.withLock { $0 }
        #expect(requests.map(\.request.url.absoluteString) == ["wss://api.test/ws", "wss://api.test/refused"])
        #expect(requests.first?.request.headers["X-Who"] == "ada")
        #expect(requests.first?.messages.map(\.text) == ["hello ada", "bye"])
        #expect(requests.first?.messages.map(\.waitForServer) == [false, true])
        // And the first succeeded with its counts, the second failed with the kind
        #expect(outcomes.map(\.succeeded) == [true, false])
        #expect(outcomes.allSatisfy { $0.skipped == nil })
        #expect(outcomes[0].webSocket?.received == 2)
        guard case .webSocket(let failure) = outcomes[1].failure else {
            Issue.record("expected a WebSocket failure"); return
        }
        #expect(failure.kind == .client(.handshakeRejected))
    }

    @Test("without an exchange, WebSocket requests are skipped as before")
    func withoutAnExchangeTheyAreSkipped() async {
        // When
        let outcomes = await runner(exchange: nil).run(HTTPFile(path: "w.http", text: Self.text).requests)
        // Then
        #expect(outcomes.allSatisfy { $0.skipped != nil && $0.succeeded })
    }

    @Test("named responses are handed on, so a run over several files can chain them")
    func responsesAreHandedOn() async {
        // Given a first file whose named response the second uses
        let first = HTTPFile(path: "a.http", text: "# @name login\nGET https://api.test/login\n")
        let second = HTTPFile(path: "b.http", text: "GET https://api.test/me?id={{login.response.body.$.id}}\n")
        let send: CollectionRunner.Send = { request, _ async throws(APIError) in
            HTTPResponse(status: 200, body: .data(Data(#"{"id":"u-7"}"#.utf8)), url: request.url)
        }
        let base = URL(fileURLWithPath: "/")
        // When the first runs, and the second runs with the responses it kept
        let (_, kept) = await CollectionRunner(file: first, baseFolder: base, context: VariableContext(processEnvironment: [:]),
                                               send: send).runKeepingResponses(first.requests)
        let outcomes = await CollectionRunner(file: second, baseFolder: base,
                                              context: VariableContext(processEnvironment: [:], responses: kept),
                                              send: send).run(second.requests)
        // Then the second request used the first one's value
        #expect(outcomes.first?.resolved?.request.url.query == "id=u-7")
    }
}
