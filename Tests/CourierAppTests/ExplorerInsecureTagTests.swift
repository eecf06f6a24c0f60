import CourierApp
import CourierHTTP
import CourierTerminal
import CourierTestSupport
import Foundation
import Testing

/// A request tagged `# @insecure` reaches a self-signed `openssl s_server` from the explorer, and the response
/// line says `TLS not verified`, as it does for an environment's `verifyHostCertificate: false`.
@Suite("# @insecure in the explorer", .enabled(if: SelfSignedCertificate.isAvailable))
struct ExplorerInsecureTagTests {
    static func received(_ state: AppState) -> Bool {
        if case .received = state.response.phase { return state.responsePane?.isWorking == false }
        return false
    }

    @Test func aRequestTaggedInsecureShowsTLSNotVerifiedOnItsResponseLine() async throws {
        // Given the explorer on a collection whose one request, to a self-signed server, is tagged # @insecure
        let server = try await OpenSSLServer()
        defer { server.stop() }
        let folder = try TemporaryFolder("insecure-explorer")
        let file = try folder.write("api.http", "# @name page\n# @insecure\nGET \(server.url().absoluteString)\n")
        let driver = LiveExplorer(configuration: .init(transport: CurlTransport(), themeFolders: []),
                                  state: AppState(size: Size(width: 160, height: 48), collectionPath: file.path))
        defer { driver.runner.shutdown() }
        #expect(await driver.run(Explorer.startupEffects(driver.state)) { $0.loading == .loaded })

        // When it is sent
        #expect(await driver.press(.char("3"), Key(.enter), until: Self.received), "\(driver.screen)")

        // Then the server's page arrived and the response line says TLS was not verified
        let page = String(decoding: try #require(driver.state.responsePane?.body.bytes), as: UTF8.self)
        #expect(page.contains("s_server"), "\(page.prefix(400))")
        #expect(driver.screen.contains("TLS not verified"), "\(driver.screen)")
    }
}
