import CourierHTTP
import CourierTestSupport
import Foundation
import Testing
@testable import CourierWebSocket

/// wss:// presents a client certificate through libcurl's TLS, as HTTP requests do. `openssl s_server -www`
/// requiring one answers the upgrade with its status page (not 101), which names the certificate it received.
@Suite(.enabled(if: SelfSignedCertificate.isAvailable)) struct ClientCertificateWebSocketTests {
    @Test func theUpgradeReachesAServerRequiringACertificateOnlyWithOne() async throws {
        // Given a TLS server that requires the test's client certificate
        let folder = try TemporaryFolder("wss-mtls")
        let made = try await SelfSignedCertificate.make(in: folder.url)
        let client = folder.url.appendingPathComponent("client")
        try FileManager.default.createDirectory(at: client, withIntermediateDirectories: true)
        let files = try await ClientCertificateFiles.make(in: client)
        let server = try await OpenSSLServer(certificate: made.certificate, key: made.key,
                                             clientCertificates: files.certificate)
        defer { server.stop() }
        let url = URL(string: "wss://127.0.0.1:\(server.port)/ws")!
        // When connecting with the PKCS #12 file, and without a certificate
        var with = WebSocketConfiguration(url: url, trustedCertificates: made.certificate)
        with.clientCertificate = ClientCertificate(certificate: files.pkcs12, passphrase: ClientCertificateFiles.passphrase)
        let without = WebSocketConfiguration(url: url, trustedCertificates: made.certificate)
        // Then the upgrade request reached the server over mutual TLS: its page names the certificate
        await #expect {
            _ = try await WebSocketClient.connect(with)
        } throws: { error in
            guard case WebSocketError.handshakeRejected(let status, _, let body) = error else { return false }
            return status == 200 && String(decoding: body, as: UTF8.self).contains(ClientCertificateFiles.subject)
        }
        // And without one the connection fails before any upgrade is answered, as a TLS error that says a
        // certificate is required (not a lost connection, which would be reconnected to)
        await #expect {
            _ = try await WebSocketClient.connect(without)
        } throws: { error in
            guard case WebSocketError.tls(let message) = error else { return false }
            return message.contains("requires a client certificate and none was presented")
        }
    }
}
