import CourierApp
import CourierHTTP
import CourierTerminal
import Foundation

/// Shared test material: a small collection, states built from it, and key helpers.
enum Fixtures {
    static let usersFile = CollectionFile(
        path: "api/users.http", displayPath: ["api", "users.http"],
        requests: [
            RequestDraft(name: "List users", method: "GET", url: "{{base}}/users?page=1",
                         headers: ["Accept": "application/json"]),
            RequestDraft(name: "Create user", method: "POST", url: "{{base}}/users",
                         headers: ["Content-Type": "application/json", "Authorization": "Bearer {{token}}"],
                         body: "{\"name\": \"Ann\"}"),
            RequestDraft(name: "Delete user", method: "DELETE", url: "{{base}}/users/{{id}}"),
        ], variables: ["id": "7"])
    static let demoFile = CollectionFile(
        path: "demo.http", displayPath: ["demo.http"],
        requests: [
            RequestDraft(name: "Search", method: "GET", url: "{{base}}/search?q=ada"),
            RequestDraft(name: "Ticker", kind: .websocket, url: "ws://127.0.0.1:1/ws/ticker",
                         messages: ["{\"subscribe\": \"ACME\"}"]),
        ])

    static let collection = Collection(
        root: "Collections", files: [usersFile, demoFile],
        environments: ["dev": ["base": "http://127.0.0.1:8088", "token": "secret"], "$shared": [:]])

    /// A loaded explorer at `size`, collection focused.
    static func loaded(size: Size = Size(width: 120, height: 40)) -> AppState {
        var state = AppState(size: size, collectionPath: "Collections", environment: "dev")
        _ = update(&state, .collectionLoaded(collection))
        return state
    }

    /// A loaded explorer with "List users" open in the editor (the first request opens at start), focused.
    static func editing(size: Size = Size(width: 120, height: 40)) -> AppState {
        var state = loaded(size: size)
        state.press(.char("2"))
        return state
    }
}

extension AppState {
    /// Applies key presses and returns every effect they asked for.
    @discardableResult
    mutating func press(_ keys: Key...) -> [Effect] {
        keys.flatMap { update(&self, .input(.key($0))) }
    }

    /// Types text one key at a time.
    @discardableResult
    mutating func type(_ text: String) -> [Effect] {
        text.flatMap { update(&self, .input(.key(.char($0)))) }
    }
}
