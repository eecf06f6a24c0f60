import CourierTestSupport
import Foundation
import Testing
@testable import CourierHTTP

/// CurlTransport over TLS against `openssl s_server` on loopback with a throwaway self-signed certificate.
@Suite(.enabled(if: SelfSignedCertificate.isAvailable))
struct CurlTLSTests {
    @Test func aSelfSignedCertificateIsATLSErrorWithCurlsMessage() async throws {
        let server = try await OpenSSLServer()
        defer { server.stop() }
        let transport = CurlTransport()
        await #expect {
            _ = try await transport.send(HTTPRequest(url: server.url()), context: RequestContext())
        } throws: { error in
            guard case .tls(let message) = error as? APIError else { return false }
            return message.contains("certificate")
        }
    }

    @Test func insecureSkipsVerificationAndTheHandshakeIsTimed() async throws {
        let server = try await OpenSSLServer()
        defer { server.stop() }
        let fresh = CurlTransport()
        let response = try await fresh.send(HTTPRequest(url: server.url(), insecure: true), context: RequestContext())
        #expect(response.status == 200)
        #expect(response.timing.tls != nil)
        if let tls = response.timing.tls, let connect = response.timing.connect { #expect(tls >= connect) }
    }

    @Test func aTLSFailureIsNotRetried() async throws {
        let server = try await OpenSSLServer()
        defer { server.stop() }
        let transport = CurlTransport()
        let events = EventLog()
        let client = HTTPClient(configuration: .init(transport: transport, sleeper: InstantSleeper(), events: events.sink))
        await #expect(throws: APIError.self) { _ = try await client.send(HTTPRequest(url: server.url())) }
        #expect(events.attemptsStarted == 1)
    }
}
