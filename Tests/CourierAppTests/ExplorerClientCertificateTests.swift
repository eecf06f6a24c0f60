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
    /// The explorer's state driven by its real effect runner.
    final class Driver {
        let folder: TemporaryFolder
        let server: OpenSSLServer
        let queue = ActionQueue {}
        let runner: EffectRunner
        var state: AppState

        init() async throws {
            folder = try TemporaryFolder("mtls-explorer")
            let serverFolder = folder.url.appendingPathComponent("server-files")
            let client = folder.url.appendingPathComponent("client")
            for url in [serverFolder, client] {
                try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            }
            let made = try await SelfSignedCertificate.make(in: serverFolder)
            let files = try await ClientCertificateFiles.make(in: client)
            server = try await OpenSSLServer(certificate: made.certificate, key: made.key,
                                             clientCertificates: files.certificate)
            try folder.write("api.http", "# @name page\nGET \(server.url("/").absoluteString)\n")
            try folder.write("http-client.private.env.json", """
                {"dev": {"SSLConfiguration": {"clientCertificate": "client/cert.pem",
                         "clientCertificateKey": "client/key-locked.pem", "hasCertificatePassphrase": true,
                         "verifyHostCertificate": false}}}
                """)
            runner = EffectRunner(configuration: .init(transport: CurlTransport(), themeFolders: []), queue: queue)
            state = AppState(size: Size(width: 160, height: 48),
                             collectionPath: folder.url.appendingPathComponent("api.http").path, environment: "dev")
        }

        func stop() {
            runner.shutdown()
            server.stop()
        }

        /// Applies `effects`, then every action the runner posts, until `done` holds (or about 20 s pass).
        @discardableResult
        func run(_ effects: [Effect], until done: (AppState) -> Bool) async -> Bool {
            runner.perform(effects)
            for _ in 0..<2_000 {
                for action in queue.drain() { runner.perform(update(&state, action)) }
                if done(state) { return true }
                try? await Task.sleep(for: .milliseconds(10))
            }
            return false
        }

        @discardableResult
        func press(_ keys: Key..., until done: (AppState) -> Bool = { _ in true }) async -> Bool {
            var effects: [Effect] = []
            for key in keys { effects += update(&state, .input(.key(key))) }
            return await run(effects, until: done)
        }

        func type(_ text: String) async { for character in text { await press(.char(character)) } }

        var screen: String { Screen.render(state).buffer.lines().joined(separator: "\n") }
    }

    static func asking(_ state: AppState) -> Bool {
        if case .prompt(let prompt)? = state.modals.last { return prompt.purpose == .certificatePassphrase }
        return false
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
        let driver = try await Driver()
        defer { driver.stop() }
        #expect(await driver.run(Explorer.startupEffects(driver.state)) { $0.loading == .loaded })

        // When the request is sent, the passphrase is asked, and what is typed shows as dots
        #expect(await driver.press(.char("3"), Key(.enter), until: Self.asking), "\(driver.screen)")
        #expect(driver.screen.contains("Passphrase of the client certificate"), "\(driver.screen)")
        await driver.type("nope")
        #expect(driver.screen.contains("••••") && !driver.screen.contains("nope"), "\(driver.screen)")

        // Then a wrong one fails saying the certificate could not be used, and is forgotten
        #expect(await driver.press(Key(.enter), until: Self.failed), "\(driver.screen)")
        #expect(driver.screen.contains("could not be used"), "\(driver.screen)")
        #expect(driver.state.certificatePassphrase == nil)

        // When it is sent again with the right one
        #expect(await driver.press(.char("3"), Key(.enter), until: Self.asking), "\(driver.screen)")
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
        #expect(!Self.asking(driver.state))
    }
}
