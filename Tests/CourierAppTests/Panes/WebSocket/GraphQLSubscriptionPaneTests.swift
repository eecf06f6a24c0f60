import CourierApp
import CourierHTTP
import CourierTerminal
import CourierTestSupport
import Foundation
import Testing

/// A GRAPHQL request whose document is a subscription streams into the WebSocket pane, against
/// strawberry-graphql on uvicorn (Tests/Servers/graphql).
@Suite("GraphQL subscriptions in the WebSocket pane")
struct GraphQLSubscriptionPaneTests {
    final class Driver: LiveExplorer {
        let folder: TemporaryFolder

        init(port: Int, path: String = "/graphql") throws {
            folder = try TemporaryFolder("graphql-pane")
            try folder.write("api.http", """
                ### counts
                GRAPHQL http://127.0.0.1:\(port)\(path)

                subscription Count($n: Int!) { count(to: $n) }

                {"n": 3}

                """)
            super.init(configuration: .init(transport: CurlTransport(), themeFolders: []),
                       state: AppState(size: Size(width: 160, height: 48),
                                       collectionPath: folder.url.appendingPathComponent("api.http").path))
        }
    }

    @Test func aSubscriptionsResultsStreamIntoThePane() async throws {
        // Given the explorer on a GRAPHQL subscription request
        let driver = try Driver(port: try await PythonTestServer.graphQL.port())
        defer { driver.runner.shutdown() }
        #expect(await driver.run(Explorer.startupEffects(driver.state)) { $0.loading == .loaded })
        // When it is sent (Enter on it in the collection)
        #expect(await driver.press(.char("3"), Key(.enter), until: { state in
            state.webSocketPane.receivedCount >= 5
        }), "\(driver.screen)")
        // Then the pane went out over a WebSocket: connection_init and the subscription (both sent again on a
        // reconnect), then the acknowledgement, the three results and the end, shown in the pane
        #expect(driver.state.focus == .webSocket)
        let pane = driver.state.webSocketPane
        let texts = (0..<pane.entries.count).map { pane.entries[$0].text.filter { !$0.isWhitespace } }
        let initIndex = try #require(texts.firstIndex { $0.contains(#""type":"connection_init""#) }, "\(texts)")
        #expect(texts.dropFirst(initIndex + 1).first?.contains(#""type":"subscribe""#) == true, "\(texts)")
        #expect(pane.entries[initIndex].isSubscription && pane.entries[initIndex + 1].isSubscription)
        #expect(texts.contains { $0.contains(#""type":"connection_ack""#) }, "\(texts)")
        for count in 1...3 {
            #expect(texts.contains { $0.contains(#"{"data":{"count":\#(count)}}"#) }, "\(texts)")
        }
        #expect(texts.last?.contains(#""type":"complete""#) == true, "\(texts)")
        #expect(driver.screen.contains("WebSocket · http://127.0.0.1"))
    }

    @Test func theServersPingsAreAnsweredSoTheSubscriptionGoesOn() async throws {
        // Given the explorer on a subscription to a server that sends its result only after a pong
        let driver = try Driver(port: try await PythonTestServer.graphQL.port(), path: "/pinging")
        defer { driver.runner.shutdown() }
        #expect(await driver.run(Explorer.startupEffects(driver.state)) { $0.loading == .loaded })
        // When it is sent, then the pane answered the ping and the result came
        #expect(await driver.press(.char("3"), Key(.enter), until: { state in
            let pane = state.webSocketPane
            return (0..<pane.entries.count).contains { pane.entries[$0].text.contains("received") }
        }), "\(driver.screen)")
    }
}
