import CourierTestSupport
import Foundation
import Testing

/// TLS failures from a local `openssl s_server` with certificates made at test time: a self-signed and
/// an expired one both end in `tls` (never retried, never bypassed silently); `--insecure` gets through.
@Suite(.serialized, .enabled(if: Reliability.hasOpenSSL && Reliability.hasCourier,
                             "openssl is not installed (make deps installs it) or courier is not built"))
struct FaultTLSTests {
    /// Makes a key, a self-signed certificate valid for a day and an expired one (notAfter yesterday).
    static func makeCertificates(in folder: URL) async throws -> (key: URL, selfSigned: URL, expired: URL) {
        let openssl = URL(fileURLWithPath: Reliability.tool("openssl") ?? "/usr/bin/openssl")
        let key = folder.appendingPathComponent("key.pem"), good = folder.appendingPathComponent("self-signed.pem")
        let request = folder.appendingPathComponent("request.csr"), expired = folder.appendingPathComponent("expired.pem")
        let steps: [[String]] = [
            ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key.path, "-out", good.path, "-days", "1",
             "-subj", "/CN=127.0.0.1"],
            ["req", "-new", "-key", key.path, "-out", request.path, "-subj", "/CN=127.0.0.1"],
            ["x509", "-req", "-in", request.path, "-signkey", key.path, "-out", expired.path, "-days", "-1"],
        ]
        for step in steps {
            let result = try await Reliability.run(openssl, step, limit: 60)
            try #require(result.status == 0, "openssl \(step[0]) failed: \(result.stderrText)")
        }
        return (key, good, expired)
    }

    @Test("Self-signed and expired certificates end in tls after one attempt; --insecure gets the page")
    func certificateFailuresAreTLSAndInsecureSucceeds() async throws {
        // Given certificates made now, in a temporary folder
        let folder = try Reliability.temporaryFolder("tls")
        defer { try? FileManager.default.removeItem(at: folder) }
        let certificates = try await Self.makeCertificates(in: folder)

        for certificate in [certificates.selfSigned, certificates.expired] {
            let server = try await OpenSSLServer(certificate: certificate, key: certificates.key)
            defer { server.stop() }
            let url = "https://127.0.0.1:\(server.port)/"

            // When courier sends to the server without and with --insecure
            let refused = try await Reliability.runCourier(["send", "--json", "--timeout", "120", url])
            let insecure = try await Reliability.runCourier(["send", "--json", "--insecure", "--timeout", "120", url])

            // Then verification fails as tls on the only attempt, and --insecure succeeds
            let outcome = ReliabilityOutcome(refused)
            #expect(refused.status == 35, "\(certificate.lastPathComponent)")
            #expect(outcome.errorKind == "tls", "\(certificate.lastPathComponent): \(refused.stdoutText.prefix(400))")
            #expect(outcome.attempts.count == 1, "\(certificate.lastPathComponent)")
            #expect(insecure.status == 0, "\(certificate.lastPathComponent): \(insecure.stdoutText.prefix(400))")
            #expect(ReliabilityOutcome(insecure).status == 200)
        }
    }
}
