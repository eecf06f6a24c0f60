import CourierTestSupport
import Foundation
import Testing
@testable import CourierHTTP

/// CurlTransport against an `openssl s_server` that requires a client certificate and trusts only the test's
/// own: each way the certificate can fail is its own typed case, a TLS failure by kind and message as before.
@Suite(.enabled(if: SelfSignedCertificate.isAvailable))
struct ClientCertificateProblemTests {
    /// The server, the certificate it trusts, and another it has never seen.
    struct Fixture {
        let folder: TemporaryFolder
        let server: OpenSSLServer
        let trusted: ClientCertificateFiles
        let stranger: ClientCertificateFiles

        init() async throws {
            let folder = try TemporaryFolder("mtls-problem")
            self.folder = folder
            let urls = ["server-files", "trusted", "stranger"].map { folder.url.appendingPathComponent($0) }
            for url in urls { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
            let made = try await SelfSignedCertificate.make(in: urls[0])
            trusted = try await ClientCertificateFiles.make(in: urls[1])
            stranger = try await ClientCertificateFiles.make(in: urls[2])
            server = try await OpenSSLServer(certificate: made.certificate, key: made.key,
                                             clientCertificates: trusted.certificate)
        }

        /// The failure of one GET with `certificate` (nil: none presented).
        func failure(presenting certificate: ClientCertificate?) async -> APIError? {
            var request = HTTPRequest(url: server.url(), insecure: true)
            request.clientCertificate = certificate
            do {
                _ = try await CurlTransport().send(request, context: RequestContext())
                return nil
            } catch {
                return error
            }
        }
    }

    @Test func noCertificateWhereTheServerRequiresOneIsTheRequiredCase() async throws {
        // Given a server that requires a client certificate
        let fixture = try await Fixture()
        defer { fixture.server.stop() }
        // When a request presents none
        let failure = await fixture.failure(presenting: nil)
        // Then it fails as `required`, of the tls kind, with the message users saw before
        #expect(failure?.clientCertificateProblem == .required, "\(String(describing: failure))")
        #expect(failure?.kind == .tls)
        #expect(failure?.description.contains("requires a client certificate and none was presented") == true)
    }

    @Test func aWrongPassphraseIsTheUnusableCase() async throws {
        // Given the trusted certificate with its locked key
        let fixture = try await Fixture()
        defer { fixture.server.stop() }
        let locked = ClientCertificate(certificate: fixture.trusted.certificate, key: fixture.trusted.lockedKey,
                                       passphrase: "wrong")
        // When it is presented with a wrong passphrase
        let failure = await fixture.failure(presenting: locked)
        // Then it fails as `unusable`, saying it could not be used
        #expect(failure?.clientCertificateProblem == .unusable, "\(String(describing: failure))")
        #expect(failure?.kind == .tls)
        #expect(failure?.description.contains("could not be used") == true)
    }

    @Test func aCertificateTheServerDoesNotTrustIsTheRefusedCase() async throws {
        // Given a certificate the server has never seen
        let fixture = try await Fixture()
        defer { fixture.server.stop() }
        let stranger = ClientCertificate(certificate: fixture.stranger.certificate, key: fixture.stranger.key)
        // When it is presented
        let failure = await fixture.failure(presenting: stranger)
        // Then it fails as `refused`, saying the server refused it
        #expect(failure?.clientCertificateProblem == .refused, "\(String(describing: failure))")
        #expect(failure?.kind == .tls)
        #expect(failure?.description.contains("refused the client certificate") == true)
    }

    @Test func theTrustedCertificateReachesTheServerAndAnUntrustedServerIsNoCertificateProblem() async throws {
        // Given the server
        let fixture = try await Fixture()
        defer { fixture.server.stop() }
        // When the trusted certificate is presented, and when the server's own certificate is not trusted
        var request = HTTPRequest(url: fixture.server.url(), insecure: true)
        request.clientCertificate = ClientCertificate(certificate: fixture.trusted.certificate, key: fixture.trusted.key)
        let response = try await CurlTransport().send(request, context: RequestContext())
        request.insecure = false
        var verifying: APIError?
        do { _ = try await CurlTransport().send(request, context: RequestContext()) } catch { verifying = error }
        // Then the first reaches it, and the second is a tls failure that is not about the client certificate
        #expect(response.status == 200)
        #expect(String(decoding: try response.body.readAll(), as: UTF8.self).contains(ClientCertificateFiles.subject))
        #expect(verifying?.kind == .tls)
        #expect(verifying?.clientCertificateProblem == nil)
    }
}
