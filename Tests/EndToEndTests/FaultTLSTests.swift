import Foundation
import Testing

/// TLS failures from a local `openssl s_server` with certificates made at test time: a self-signed and
/// an expired one both end in `tls` (never retried, never bypassed silently); `--insecure` gets through.
@Suite(.serialized, .enabled(if: Reliability.hasOpenSSL && Reliability.hasCourier,
                             "openssl is not installed (make deps installs it) or courier is not built"))
struct FaultTLSTests {
    /// A running `openssl s_server -www` on 127.0.0.1 with one certificate; `stop()` ends it.
    final class TLSServer {
        let child: ReliabilityChild
        let port: UInt16

        init(certificate: URL, key: URL) throws {
            let port = Reliability.closedPort()
            self.port = port
            child = try ReliabilityChild(URL(fileURLWithPath: Reliability.tool("openssl") ?? "/usr/bin/openssl"),
                                         ["s_server", "-accept", "127.0.0.1:\(port)", "-cert", certificate.path,
                                          "-key", key.path, "-www", "-quiet"])
            Reliability.waitFor(limit: 10) { Self.accepts(port: port) }
        }

        func stop() { child.stop() }

        /// Whether something accepts TCP connections on the port yet.
        static func accepts(port: UInt16) -> Bool {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(fd) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = port.bigEndian
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                }
            }
        }
    }

    /// Makes a key, a self-signed certificate valid for a day and an expired one (notAfter yesterday).
    static func makeCertificates(in folder: URL) throws -> (key: URL, selfSigned: URL, expired: URL) {
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
            let result = try Reliability.run(openssl, step, limit: 60)
            try #require(result.status == 0, "openssl \(step[0]) failed: \(result.stderrText)")
        }
        return (key, good, expired)
    }

    @Test("Self-signed and expired certificates end in tls after one attempt; --insecure gets the page")
    func certificateFailuresAreTLSAndInsecureSucceeds() throws {
        // Given certificates made now, in a temporary folder
        let folder = try Reliability.temporaryFolder("tls")
        defer { try? FileManager.default.removeItem(at: folder) }
        let certificates = try Self.makeCertificates(in: folder)

        for certificate in [certificates.selfSigned, certificates.expired] {
            let server = try TLSServer(certificate: certificate, key: certificates.key)
            defer { server.stop() }
            let url = "https://127.0.0.1:\(server.port)/"

            // When courier sends to the server without and with --insecure
            let refused = try Reliability.runCourier(["send", "--json", "--timeout", "20", url])
            let insecure = try Reliability.runCourier(["send", "--json", "--insecure", "--timeout", "20", url])

            // Then verification fails as tls on the only attempt, and --insecure succeeds
            let outcome = ReliabilityOutcome(refused)
            #expect(refused.status == 1, "\(certificate.lastPathComponent)")
            #expect(outcome.errorKind == "tls", "\(certificate.lastPathComponent): \(refused.stdoutText.prefix(400))")
            #expect(outcome.attempts.count == 1, "\(certificate.lastPathComponent)")
            #expect(insecure.status == 0, "\(certificate.lastPathComponent): \(insecure.stdoutText.prefix(400))")
            #expect(ReliabilityOutcome(insecure).status == 200)
        }
    }
}
