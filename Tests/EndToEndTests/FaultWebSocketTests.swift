import CourierDemo
import CourierWebSocket
import Foundation
import Testing

/// A WebSocket peer that vanishes without a close frame: the session sees an abnormal close (1006),
/// reconnects with backoff, re-sends its subscription and receives messages again.
struct FaultWebSocketTests {
    @Test("A peer that drops the TCP connection without a close frame is reconnected and resubscribed")
    func vanishingPeerIsReconnectedAndResubscribed() async throws {
        // Given a chaos endpoint that drops the connection (no close frame) every 400 ms
        let server = try DemoServer.start()
        defer { server.stop() }
        let url = URL(string: "ws://127.0.0.1:\(server.port)/ws/chaos?mode=drop&every_ms=400&rate=50")!
        let session = WebSocketSession(
            configuration: WebSocketConfiguration(url: url, pingInterval: nil),
            subscriptions: [.text(#"{"subscribe":"ACME"}"#)],
            reconnect: ReconnectPolicy(initialDelay: 0.05, multiplier: 1.5, maxDelay: 0.2, jitter: 0.1))

        // When it runs until it has connected three times
        session.start()
        var connections = 0, abnormalCloses = 0, cleanCloses = 0, messagesAfterReconnect = 0
        var subscriptionsSent = 0
        let watchdog = Task {
            // A bound for a loaded machine, not a speed requirement.
            try await Task.sleep(for: .seconds(120))
            session.close()
        }
        for await event in session.events {
            switch event {
            case .connected: connections += 1
            case .closed(let info):
                if info.code == .abnormal { abnormalCloses += 1 }
                if info.wasClean { cleanCloses += 1 }
            case .message(let message):
                if message.direction == .outgoing && message.isSubscription { subscriptionsSent += 1 }
                if message.direction == .incoming && connections >= 3 { messagesAfterReconnect += 1 }
            default: break
            }
            if messagesAfterReconnect >= 3 { session.close() }
        }
        watchdog.cancel()

        // Then every drop was abnormal (1006), the session reconnected, resubscribed and got ticks again
        #expect(connections >= 3)
        #expect(abnormalCloses >= 2)
        #expect(subscriptionsSent >= 3)
        #expect(messagesAfterReconnect >= 3)
    }
}
