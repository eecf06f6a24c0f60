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
    final class Driver {
        let folder: TemporaryFolder
        let server: OpenSSLServer
        let queue = ActionQueue {}
        let runner: EffectRunner
        var state: AppState

        init() async throws {
            folder = try TemporaryFolder("mtls-ws-pane")
            let serverFolder = folder.url.appendingPathComponent("server-files")
            let client = folder.url.appendingPathComponent("client")
            for url in [serverFolder, client] {
                try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            }
            let made = try await SelfSignedCertificate.make(in: serverFolder)
            let files = try await ClientCertificateFiles.make(in: client)
            server = try await OpenSSLServer(certificate: made.certificate, key: made.key,
                                             clientCertificates: files.certificate)
            try folder.write("api.http", "### live\nWEBSOCKET wss://127.0.0.1:\(server.port)/live\n")
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
        let driver = try await Driver()
        defer { driver.stop() }
        #expect(await driver.run(Explorer.startupEffects(driver.state)) { $0.loading == .loaded })

        // When it is connected, the passphrase is asked first; a wrong one fails TLS and is forgotten
        #expect(await driver.press(.char("3"), Key(.enter), until: Self.asking), "\(driver.screen)")
        await driver.type("nope")
        #expect(await driver.press(Key(.enter), until: { $0.certificatePassphrase == nil && Self.failedTLS($0) }),
                "\(driver.screen)")
        // And connecting again asks again
        #expect(await driver.press(.char("o"), until: Self.asking), "\(driver.screen)")
        await driver.type(ClientCertificateFiles.passphrase)

        // Then with it the TLS handshake succeeds (the server required the certificate) and s_server's page
        // refuses the upgrade; the pane says TLS is not verified, and the passphrase is on no screen
        #expect(await driver.press(Key(.enter), until: Self.refused), "\(driver.screen)")
        #expect(driver.screen.contains("TLS not verified"), "\(driver.screen)")
        #expect(!driver.screen.contains(ClientCertificateFiles.passphrase))
        #expect(driver.state.certificatePassphrase == ClientCertificateFiles.passphrase)
    }
}
