import CourierApp
import CourierTerminal
import CourierWebSocket
import Foundation
import Testing

/// In the explorer, the WebSocket pane's filter keeps what the screen shows while it counts and scrolls, not
/// only while it draws: a secret typed into the filter must not tell which new messages hold it.
@Suite("WebSocket pane: the filter in the explorer matches what is shown")
struct WebSocketPaneSecretFilterTests {
    static let secret = "tok-9f8e7d6c5b"

    @Test func whilePausedAMessageThatMatchesOnlyThroughAMaskedSecretIsNotCountedAsNew() {
        // Given the explorer knowing a secret, the WebSocket pane zoomed, filtered by part of the secret, paused
        var state = Fixtures.loaded()
        _ = update(&state, .secretsLearned([Self.secret]))
        state.press(.char("5"), .char("z"))
        _ = update(&state, .webSocketEvents(WebSocketPaneBatch(events: [
            .connected(url: WebSocketPaneTests.url, protocol: nil), WebSocketPaneTests.incoming("hello", 1),
        ])))
        state.press(.char("/"))
        state.type("9f8e")
        state.press(Key(.enter), .char("p"))
        // When a message holding the secret arrives
        _ = update(&state, .webSocketEvents(WebSocketPaneBatch(events: [
            WebSocketPaneTests.incoming(#"{"token":"\#(Self.secret)"}"#, 2),
        ])))
        // Then it is not counted as new: shown masked, it does not match the filter
        #expect(state.webSocketPane.unseenWhilePaused == 0)
        let screen = Snapshot.screen(state).joined(separator: "\n")
        #expect(screen.contains("paused · 0 new"), "\(screen)")
        #expect(!screen.contains(Self.secret), "\(screen)")
    }

    @Test func scrollingBackSkipsAMessageThatMatchesOnlyThroughAMaskedSecret() {
        // Given the explorer knowing a secret, and a message holding it between two that match the filter
        var state = Fixtures.loaded()
        _ = update(&state, .secretsLearned([Self.secret]))
        state.press(.char("5"))
        _ = update(&state, .webSocketEvents(WebSocketPaneBatch(events: [
            .connected(url: WebSocketPaneTests.url, protocol: nil),
            WebSocketPaneTests.incoming("first 9f8e", 1),
            WebSocketPaneTests.incoming(#"{"token":"\#(Self.secret)"}"#, 2),
            WebSocketPaneTests.incoming("last 9f8e", 3),
        ])))
        // When the filter is a part of the secret the other two show, and the view scrolls back one message
        state.press(.char("/"))
        state.type("9f8e")
        state.press(Key(.enter), .char("k"))
        // Then the view stops on the older message that shows it, not on the one whose secret is masked
        let anchor = state.webSocketPane.anchorID.flatMap { id in
            (0..<state.webSocketPane.entries.count).map { state.webSocketPane.entries[$0] }.first { $0.id == id }
        }
        #expect(anchor?.text == "first 9f8e")
    }
}
