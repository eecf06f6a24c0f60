import CourierHTTP
import CourierWebSocket
import Foundation
import Testing
@testable import CourierApp

/// The live pane's WebSocket connects in the log: each connect an attempt of one request, each automatic
/// reconnect a retry of the attempt before it.
@Suite("WebSocket connects in the log")
struct LogStreamTests {
    @Test func aRefusedHandshakeThenAReconnectThatOpensAreTwoAttemptsOfOneRequestWithTheRetryBetween() throws {
        // Given the log and a connection whose first handshake is refused and whose reconnect opens
        var log = LogPaneState(timeZone: TimeZone(identifier: "UTC")!)
        let url = try #require(URL(string: "ws://127.0.0.1:9/live"))
        let start = Date(timeIntervalSince1970: 1_000)
        let events: [WebSocketEvent] = [
            .connecting(url: url, attempt: 1),
            .error(.handshakeRejected(status: 503, headers: [], body: Data())),
            .closed(WebSocketCloseInfo(code: WebSocketCloseCode(1006), reason: "")),
            .reconnecting(delay: 0.5, attempt: 2),
            .connecting(url: url, attempt: 2),
            .connected(url: url, protocol: nil),
            .message(WebSocketMessageEvent(direction: .incoming, message: .text("hi"))),
        ]
        // When the pane's events reach the log
        for (offset, event) in events.enumerated() {
            log.apply(stream: event, method: "WS", at: start.addingTimeInterval(Double(offset)))
        }
        // Then the two connects are attempts 1 and 2 of one request: the refusal, then the 101
        #expect(log.attempts.count == 2)
        let first = try #require(log.attempts.first)
        let second = try #require(log.attempts.last)
        #expect(first.key.request == second.key.request)
        #expect(first.key.attempt == 1 && second.key.attempt == 2)
        #expect(first.method == "WS" && first.path == "/live")
        guard case .failure(let kind, _) = first.outcome else { Issue.record("\(first.outcome)"); return }
        #expect(kind == .http)
        #expect(second.outcome == .response(status: 101, headers: []))
        // And the reconnect reads as the retry of the first, its wait done
        #expect(first.retry?.delay == .milliseconds(500))
        #expect(first.retry?.reason == "reconnect after connect failed")
        #expect(first.retry?.status == .done)
    }

    @Test func aDroppedConnectionsReconnectSaysWhatClosedIt() throws {
        var log = LogPaneState()
        let url = try #require(URL(string: "ws://127.0.0.1:9/live"))
        for event: WebSocketEvent in [.connecting(url: url, attempt: 1), .connected(url: url, protocol: nil),
                                      .closed(WebSocketCloseInfo(code: WebSocketCloseCode(1006), reason: "")),
                                      .reconnecting(delay: 1, attempt: 2)] {
            log.apply(stream: event, method: "WS", at: Date())
        }
        // The open connection keeps its 101; the reconnect after it names the close
        #expect(log.attempts.count == 1)
        #expect(log.attempts.first?.outcome == .response(status: 101, headers: []))
        #expect(log.attempts.first?.retry?.reason == "reconnect after closed 1006")
    }
}
