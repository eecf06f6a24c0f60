import CourierApp
import CourierTerminal
import Foundation
import Testing

/// Environments say where requests go: the status bar names the origin the open request resolves to, and
/// values filled in for environments (`courier demo`'s server) never replace an environment's own.
@Suite("environments say where requests go")
struct EnvironmentTargetTests {
    @Test func theStatusBarShowsWhereTheOpenRequestGoesAndFollowsTheEnvironment() {
        // Given "List users" open in dev
        var state = Fixtures.loaded()
        #expect(Snapshot.screen(state).last?.contains("env: dev → http://127.0.0.1:8088 · dark") == true)
        // When choosing another environment, whose base is elsewhere
        state.collection.environments["staging"] = ["base": "https://staging.example.com:8443"]
        state.press(.char("E"))
        state.type("staging")
        state.press(Key(.enter))
        // Then the status bar says the request now goes there, user info never shown
        #expect(Snapshot.screen(state).last?.contains("env: staging → https://staging.example.com:8443") == true)
        state.collection.environments["staging"] = ["base": "https://ada:s3cret@staging.example.com"]
        #expect(Snapshot.screen(state).last?.contains("env: staging → https://staging.example.com ·") == true)
        // And an environment without a base says the variable is unset
        state.environment = nil
        #expect(Snapshot.screen(state).last?.contains("env: none → {{base}}") == true)
    }

    @Test func defaultsFillOnlyTheEnvironmentsThatDoNotSetAValue() throws {
        // Given environments with and without a base of their own
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("defaults-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("### ping\nGET {{base}}/ping\n".utf8).write(to: folder.appendingPathComponent("api.http"))
        let environments = #"""
            {"demo": {"base": "http://127.0.0.1:8088"}, "staging": {"base": "https://staging.example.com"},
             "bare": {"token": "t"}}
            """#
        try Data(environments.utf8).write(to: folder.appendingPathComponent("http-client.env.json"))
        // When the store fills `base` with the demo server's address, `demo` being the demo's own environment
        let store = CollectionStore(defaults: ["base": "http://127.0.0.1:4000"], defaultsWin: ["demo"])
        let (collection, _) = store.load(folder.path)
        // Then staging keeps its own, bare and demo get the server
        #expect(collection.environments["staging"]?["base"] == "https://staging.example.com")
        #expect(collection.environments["bare"]?["base"] == "http://127.0.0.1:4000")
        #expect(collection.environments["demo"]?["base"] == "http://127.0.0.1:4000")
        let ref = RequestRef(file: "api.http", index: 0)
        let draft = try #require(collection.request(ref))
        for (environment, url) in [("staging", "https://staging.example.com/ping"), ("bare", "http://127.0.0.1:4000/ping"),
                                   ("demo", "http://127.0.0.1:4000/ping")] {
            let (request, _) = try store.resolve(SendJob(ref: ref, draft: draft, environment: environment))
            #expect(request.url.absoluteString == url, "\(environment)")
        }
    }
}
