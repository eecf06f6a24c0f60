import CourierApp
import CourierHTTP
import CourierTerminal
import CourierTestSupport
import Foundation
import Testing

/// The WebSocket pane presents the environment's client certificate: against an `openssl s_server` that
/// requires one, the locked key's passphrase is asked for, the TLS handshake then succeeds (s_server answers
/// the upgrade with its HTTP 200 page, which a WebSocket refuses, instead of failing TLS), and
/// `verifyHostCertificate: false` shows as `TLS not verified` on the pane.
@Suite("client certificates in the WebSocket pane", .enabled(if: SelfSignedCertificate.isAvailable))
struct WebSocketPaneCertificateTests {
    static func driver() async throws -> ClientCertificateExplorer {
        try await ClientCertificateExplorer("mtls-ws-pane") { "### live\nWEBSOCKET wss://127.0.0.1:\($0.port)/live\n" }
    }

    static func failedTLS(_ state: AppState) -> Bool {
        (0..<state.webSocketPane.entries.count).contains { state.webSocketPane.entries[$0].isError }
    }

    static func refused(_ state: AppState) -> Bool {
        (0..<state.webSocketPane.entries.count).contains {
            state.webSocketPane.entries[$0].text.contains("refused the upgrade with HTTP 200")
        }
    }

    @Test func thePassphraseIsAskedAndTheCertificateIsPresentedWithTLSNotVerifiedShown() async throws {
        // Given the explorer on a wss:// request whose environment has a locked client certificate
        let driver = try await Self.driver()
        defer { driver.stop() }
        #expect(await driver.run(Explorer.startupEffects(driver.state)) { $0.loading == .loaded })

        // When it is connected, the passphrase is asked first; a wrong one fails TLS and is forgotten
        #expect(await driver.press(.char("3"), Key(.enter), until: ClientCertificateExplorer.asking), "\(driver.screen)")
        await driver.type("nope")
        #expect(await driver.press(Key(.enter), until: { $0.certificatePassphrase == nil && Self.failedTLS($0) }),
                "\(driver.screen)")
        // And connecting again asks again
        #expect(await driver.press(.char("o"), until: ClientCertificateExplorer.asking), "\(driver.screen)")
        await driver.type(ClientCertificateFiles.passphrase)

        // Then with it the TLS handshake succeeds (the server required the certificate) and s_server's page
        // refuses the upgrade; the pane says TLS is not verified, and the passphrase is on no screen
        #expect(await driver.press(Key(.enter), until: Self.refused), "\(driver.screen)")
        #expect(driver.screen.contains("TLS not verified"), "\(driver.screen)")
        #expect(!driver.screen.contains(ClientCertificateFiles.passphrase))
        #expect(driver.state.certificatePassphrase == ClientCertificateFiles.passphrase)
    }
}
