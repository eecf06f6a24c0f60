import CourierApp
import CourierBody
import CourierTerminal
import Foundation
import Testing

@Suite("the Response pane follows the open request: one response model, one session per request")
struct ResponseSessionTests {
    static func pane(_ body: String, status: Int = 200) -> ResponsePaneState {
        ResponsePaneState(info: ResponsePaneInfo(status: status, reason: "OK",
                                                 headers: [.init("Content-Type", "application/json")]),
                          body: BodyDocument(data: Data(body.utf8)))
    }

    /// Rows of the collection tree: 0 api, 1 users.http, 2 List users, 3 Create user, 4 Delete user.
    static func open(_ state: inout AppState, row: Int) {
        state.press(.char("1"), .char("g"))
        for _ in 0..<row { state.press(.char("j")) }
        state.press(Key(.enter))
    }

    @Test func openingAnotherRequestShowsItsOwnResponseNotTheLastOneReceived() {
        // Given "List users" sent and answered with a body of its own
        var state = Fixtures.editing()
        state.press(Key(.enter))
        _ = update(&state, .responsePaneReady(generation: state.generation, Self.pane(#"{"large": "fifty"}"#)))
        #expect(Snapshot.screen(state).joined().contains("fifty"))
        // When another request, never sent, is opened
        Self.open(&state, row: 3)
        #expect(state.editor.name == "Create user")
        // Then the Response pane shows that request's (empty) state, not the other request's body
        let screen = Snapshot.screen(state).joined(separator: "\n")
        #expect(!screen.contains("fifty"), "\(screen)")
        #expect(screen.contains("No response yet"))
        // And opening the first again brings its response back, scrolled where it was left
        Self.open(&state, row: 2)
        #expect(Snapshot.screen(state).joined().contains("fifty"))
        state.press(.char("3"), .char("j"))
        let cursor = state.responsePane?.cursor
        #expect(cursor == 1)
        Self.open(&state, row: 3)
        Self.open(&state, row: 2)
        #expect(state.responsePane?.cursor == cursor)
    }

    @Test func aResponseArrivingAfterTheUserSwitchedGoesToTheRequestThatSentIt() {
        // Given "List users" in flight
        var state = Fixtures.editing()
        state.press(Key(.enter))
        let sent = state.generation
        // When the user opens another request before the answer arrives
        Self.open(&state, row: 4)
        _ = update(&state, .responsePaneReady(generation: sent, Self.pane(#"{"for": "list"}"#)))
        // Then the open request's pane stays its own, and the answer waits with the request that sent it
        #expect(state.responsePane == nil)
        #expect(!Snapshot.screen(state).joined().contains("list"))
        Self.open(&state, row: 2)
        #expect(Snapshot.screen(state).joined().contains("\"list\""))
    }

    @Test func dComparesWithThePreviousResponseOfTheSameRequestOnly() {
        // Given "List users" answered twice, and "Create user" answered once in between
        var state = Fixtures.editing()
        state.press(Key(.enter))
        _ = update(&state, .responsePaneReady(generation: state.generation, Self.pane(#"{"n": 1}"#)))
        Self.open(&state, row: 3)
        state.press(Key(.enter))
        _ = update(&state, .responsePaneReady(generation: state.generation, Self.pane(#"{"other": true}"#)))
        Self.open(&state, row: 2)
        state.press(Key(.enter))
        _ = update(&state, .responsePaneReady(generation: state.generation, Self.pane(#"{"n": 2}"#)))
        // When d is pressed on the response
        state.press(.char("3"), .char("d"))
        // Then the diff is against List users' own previous body
        let screen = Snapshot.screen(state).joined(separator: "\n")
        #expect(screen.contains("-  \"n\": 1"), "\(screen)")
        #expect(screen.contains("+  \"n\": 2"), "\(screen)")
        #expect(!screen.contains("other"))
    }
}
