import CourierTestSupport
import Foundation
import Testing
@testable import CourierWebSocket

/// wss:// goes through libcurl's TLS: `openssl s_server -www` answers the upgrade with an HTML status page, not 101.
@Suite(.enabled(if: SelfSignedCertificate.isAvailable)) struct SecureWebSocketTests {
    @Test func selfSignedCertificateIsRefusedUnlessInsecure() async throws {
        // Given a TLS server with a self-signed certificate
        let server = try await OpenSSLServer()
        defer { server.stop() }
        let url = URL(string: "wss://127.0.0.1:\(server.port)/ws")!
        // When connecting with verification, Then it fails as a TLS error
        await #expect {
            _ = try await WebSocketClient.connect(WebSocketConfiguration(url: url))
        } throws: { error in
            if case WebSocketError.tls = error { true } else { false }
        }
        // When connecting with --insecure, Then TLS succeeds and the upgrade request reaches the server
        // over it (which answers with its status page instead of 101)
        var insecure = WebSocketConfiguration(url: url)
        insecure.insecure = true
        await #expect {
            _ = try await WebSocketClient.connect(insecure)
        } throws: { error in
            if case WebSocketError.handshakeRejected(let status, _, _) = error { status == 200 } else { false }
        }
    }

    @Test("a self-signed certificate given as trusted (--cacert) is verified, not skipped")
    func trustedCertificateIsVerified() async throws {
        // Given a TLS server with a self-signed certificate
        let server = try await OpenSSLServer()
        defer { server.stop() }
        let url = URL(string: "wss://127.0.0.1:\(server.port)/ws")!
        // When connecting with verification against that certificate
        let trusted = WebSocketConfiguration(url: url, trustedCertificates: server.certificate)
        // Then TLS succeeds and the upgrade request reaches the server (its status page, not 101)
        await #expect {
            _ = try await WebSocketClient.connect(trusted)
        } throws: { error in
            if case WebSocketError.handshakeRejected(let status, _, _) = error { status == 200 } else { false }
        }
    }
}
