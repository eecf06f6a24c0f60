import CourierApp
import CourierHTTP
import CourierTerminal
import CourierTestSupport
import Foundation
import Testing

/// The explorer opened without `--env` on files with several environments starts in the one the files' own
/// rules choose (`courier run` uses the same), says so, and sends there.
@Suite("Environment chosen without --env in the explorer")
struct ExplorerEnvironmentChoiceTests {
    @Test func theLocalEnvironmentIsChosenSaidOnTheStatusLineAndTheFirstEnterSendsThere() async throws {
        // Given a project with a local environment on the loopback server and a remote one
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder("explorer-env-choice")
        try folder.write("http-client.env.json", """
            {"local": {"base": "\(server.base)"}, "prod": {"base": "https://api.example.invalid"}}
            """)
        let file = try folder.write("api.http", "GET {{base}}/ping\n")
        let driver = LiveExplorer(configuration: .init(transport: CurlTransport(), themeFolders: []),
                                  state: AppState(size: Size(width: 160, height: 48), collectionPath: file.path))
        defer { driver.runner.shutdown() }
        // When it opens without --env
        #expect(await driver.run(Explorer.startupEffects(driver.state)) { $0.loading == .loaded })
        // Then the local environment is chosen and the status line says why
        #expect(driver.state.environment == "local")
        let port = URL(string: server.base)?.port.map(String.init) ?? "?"
        #expect(driver.screen.contains("chose 'local': on this machine (127.0.0.1:\(port)) · E: another"), "\(driver.screen)")
        // And the first Enter sends the request there
        #expect(await driver.press(Key(.enter)) { state in
            if case .received = state.response.phase { return true } else { return false }
        }, "\(driver.screen)")
        #expect(server.requests.map(\.target) == ["/ping"])
    }
}
