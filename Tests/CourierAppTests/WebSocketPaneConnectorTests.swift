import CourierApp
import CourierDemo
import CourierWebSocket
import Foundation
import Synchronization
import Testing

@Suite("WebSocket pane connector", .serialized)
struct WebSocketPaneConnectorTests {
    /// Batches delivered by the connector.
    final class Batches: Sendable {
        private let batches = Mutex<[[WebSocketEvent]]>([])
        func append(_ batch: [WebSocketEvent]) { batches.withLock { $0.append(batch) } }
        var all: [[WebSocketEvent]] { batches.withLock { $0 } }
    }

    func eventually(_ condition: () -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if condition() { return true }
            try? await Task.sleep(nanoseconds: 20_000_000)
        }
        return condition()
    }

    @Test func tickerStreamsIntoThePaneInBatchesAndTheSubscriptionIsMarked() async throws {
        // Given the demo server and a pane for its ticker with a saved subscription marked
        let server = try DemoServer.start()
        defer { server.stop() }
        let url = "ws://127.0.0.1:\(server.port)/ws/ticker?rate=500"
        var pane = WebSocketPaneState(url: url, savedMessages: [.init(text: #"{"subscribe":"ACME"}"#, isSubscription: true)])
        let batches = Batches()
        let connector = WebSocketPaneConnector(interval: 0.05, onBatch: batches.append)
        defer { connector.shutdown() }
        // When the pane's connect effect is performed
        for effect in pane.handle(.connect) { connector.perform(effect) }
        // Then ticks arrive, several per batch, and applying them fills the pane
        #expect(await eventually { batches.all.joined().filter { if case .message = $0 { true } else { false } }.count >= 50 })
        #expect(batches.all.contains { $0.count > 1 })
        for batch in batches.all { pane.apply(contentsOf: batch) }
        #expect(pane.receivedCount >= 40)
        #expect(pane.entries.last.map { $0.text.contains(#""symbol":"ACME""#) } == true)
        let subscriptions = (0..<pane.entries.count).map { pane.entries[$0] }.filter(\.isSubscription)
        #expect(subscriptions.count == 1)
        // When the pane disconnects, Then the session closes cleanly by the user
        for effect in pane.handle(.disconnect) { connector.perform(effect) }
        #expect(await eventually {
            batches.all.joined().contains { if case .closed(let info) = $0 { info.byUser } else { false } }
        })
    }
}
