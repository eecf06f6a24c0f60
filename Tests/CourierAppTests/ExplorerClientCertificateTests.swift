import CourierApp
import CourierHTTP
import CourierTerminal
import CourierTestSupport
import Foundation
import Testing

/// The explorer with an environment whose client certificate is locked (`hasCertificatePassphrase`), against
/// an `openssl s_server` that requires it: the passphrase is asked once, typed as dots, a wrong one is
/// forgotten and asked again, and the right one reaches the server; `verifyHostCertificate: false` shows on
/// the response line.
@Suite("client certificates in the explorer", .enabled(if: SelfSignedCertificate.isAvailable))
struct ExplorerClientCertificateTests {
    static func driver() async throws -> ClientCertificateExplorer {
        try await ClientCertificateExplorer("mtls-explorer") { "# @name page\nGET \($0.url("/").absoluteString)\n" }
    }

    static func failed(_ state: AppState) -> Bool {
        if case .failed = state.response.phase { return true }
        return false
    }

    static func received(_ state: AppState) -> Bool {
        if case .received = state.response.phase { return state.responsePane?.isWorking == false }
        return false
    }

    @Test func theLockedCertificateIsAskedForAWrongPassphraseIsAskedAgainAndTheRightOneReachesTheServer() async throws {
        // Given the explorer on the collection, loaded
        let driver = try await Self.driver()
        defer { driver.stop() }
        #expect(await driver.run(Explorer.startupEffects(driver.state)) { $0.loading == .loaded })

        // When the request is sent, the passphrase is asked, and what is typed shows as dots
        #expect(await driver.press(.char("3"), Key(.enter), until: ClientCertificateExplorer.asking), "\(driver.screen)")
        #expect(driver.screen.contains("Passphrase of the client certificate"), "\(driver.screen)")
        await driver.type("nope")
        #expect(driver.screen.contains("••••") && !driver.screen.contains("nope"), "\(driver.screen)")

        // Then a wrong one fails saying the certificate could not be used, and is forgotten
        #expect(await driver.press(Key(.enter), until: Self.failed), "\(driver.screen)")
        #expect(driver.screen.contains("could not be used"), "\(driver.screen)")
        #expect(driver.state.certificatePassphrase == nil)

        // When it is sent again with the right one
        #expect(await driver.press(.char("3"), Key(.enter), until: ClientCertificateExplorer.asking), "\(driver.screen)")
        await driver.type(ClientCertificateFiles.passphrase)
        #expect(await driver.press(Key(.enter), until: Self.received), "\(driver.screen)")

        // Then the server's page names the certificate it received, the line says TLS was not verified,
        // and the passphrase is on no screen
        let page = String(decoding: try #require(driver.state.responsePane?.body.bytes), as: UTF8.self)
        #expect(page.contains(ClientCertificateFiles.subject), "\(page.suffix(800))")
        #expect(driver.screen.contains("TLS not verified"), "\(driver.screen)")
        #expect(!driver.screen.contains(ClientCertificateFiles.passphrase))

        // And a second send uses the kept passphrase without asking
        #expect(await driver.press(Key(.enter), until: Self.received))
        #expect(!ClientCertificateExplorer.asking(driver.state))
    }

    @Test func aServerThatRefusesTheCertificateFailsAsTLSAndThePassphraseIsAskedAgain() async throws {
        // Given the explorer on a collection whose server trusts another client certificate
        let driver = try await ClientCertificateExplorer("mtls-refused", trustsAnother: true) {
            "# @name page\nGET \($0.url("/").absoluteString)\n"
        }
        defer { driver.stop() }
        #expect(await driver.run(Explorer.startupEffects(driver.state)) { $0.loading == .loaded })

        // When the request is sent with the right passphrase
        #expect(await driver.press(.char("3"), Key(.enter), until: ClientCertificateExplorer.asking), "\(driver.screen)")
        await driver.type(ClientCertificateFiles.passphrase)
        #expect(await driver.press(Key(.enter), until: Self.failed), "\(driver.screen)")

        // Then it fails saying the server refused the certificate, the passphrase is forgotten, and the next
        // send asks for it again
        #expect(driver.screen.contains("refused the client certificate"), "\(driver.screen)")
        #expect(driver.state.certificatePassphrase == nil)
        #expect(await driver.press(Key(.enter), until: ClientCertificateExplorer.asking), "\(driver.screen)")
    }
}
