import CourierApp
import CourierHTTP
import CourierTerminal
import CourierTestSupport
import Foundation
import Testing

/// The explorer says what a failed connection means: a port nothing listens on is not "offline".
@Suite("Connect failures in the explorer")
struct ExplorerConnectFailureTests {
    static func failed(_ state: AppState) -> Bool {
        if case .failed = state.response.phase { return true }
        return false
    }

    @Test func aClosedPortSaysNothingListensThereInTheResponseAndTheLog() async throws {
        // Given the explorer on a request to a port on 127.0.0.1 nothing listens on
        let port = LoopbackSocket.closedPort()
        let folder = try TemporaryFolder("connect-failure-explorer")
        let file = try folder.write("api.http", "# @name down\n# @max-attempts 1\nGET http://127.0.0.1:\(port)/users\n")
        let driver = LiveExplorer(configuration: .init(transport: CurlTransport(), themeFolders: []),
                                  state: AppState(size: Size(width: 160, height: 48), collectionPath: file.path))
        defer { driver.runner.shutdown() }
        #expect(await driver.run(Explorer.startupEffects(driver.state)) { $0.loading == .loaded })

        // When it is sent
        #expect(await driver.press(.char("3"), Key(.enter), until: Self.failed), "\(driver.screen)")

        // Then the Response pane names the port, and the Log row says refused, never offline
        guard case .failed(let failure) = driver.state.response.phase else { return }
        #expect(failure.kind == .transport(.connectionRefused))
        #expect(driver.screen.contains("✗ nothing listens on 127.0.0.1:\(port)"), "\(driver.screen)")
        #expect(!driver.screen.contains("offline"))
        await driver.press(.char("4"))
        #expect(driver.screen.contains("refused"), "\(driver.screen)")
    }
}
