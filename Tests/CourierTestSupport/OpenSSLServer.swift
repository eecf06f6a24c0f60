import Foundation

/// `openssl s_server -www` on 127.0.0.1, on a port the system chose (read back from its ACCEPT line, so
/// parallel tests never race for a port), answering every request with an HTML status page. `stop()`
/// kills it; `deinit` too.
public final class OpenSSLServer: Sendable {
    public let port: UInt16
    /// The certificate it presents, and its key.
    public let certificate: URL
    public let key: URL
    private let child: ChildProcess
    private let folder: TemporaryFolder?

    /// Serves `certificate` with `key`. With `clientCertificates` (a PEM file of trusted client certificates
    /// or CAs) the handshake fails unless the client presents one of them, and the status page shows the
    /// client certificate's subject (`Subject: CN=…`).
    public init(certificate: URL, key: URL, clientCertificates: URL? = nil) async throws {
        (self.certificate, self.key, folder) = (certificate, key, nil)
        (child, port) = try await Self.start(certificate: certificate, key: key, clientCertificates: clientCertificates)
    }

    /// Serves a fresh self-signed certificate for 127.0.0.1 (see `SelfSignedCertificate`).
    public init() async throws {
        let folder = try TemporaryFolder("tls")
        let made = try await SelfSignedCertificate.make(in: folder.url)
        (certificate, key, self.folder) = (made.certificate, made.key, folder)
        (child, port) = try await Self.start(certificate: made.certificate, key: made.key)
    }

    deinit { stop() }

    /// The https URL of `path` on this server.
    public func url(_ path: String = "/") -> URL { URL(string: "https://127.0.0.1:\(port)\(path)")! }

    /// Kills the server (s_server ignores SIGTERM while it waits for a connection).
    public func stop() {
        child.signalGroup(SIGKILL)
        child.closeInput()
    }

    /// The port of s_server's `ACCEPT 127.0.0.1:PORT` line, once it is complete.
    static func acceptedPort(in text: String) -> UInt16? {
        guard let line = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            .first(where: { $0.hasPrefix("ACCEPT 127.0.0.1:") }) else { return nil }
        return UInt16(line.dropFirst("ACCEPT 127.0.0.1:".count))
    }

    private static func start(certificate: URL, key: URL,
                              clientCertificates: URL? = nil) async throws -> (ChildProcess, UInt16) {
        // `-verify_return_error`: without it s_server only logs a certificate it cannot verify and goes on.
        let verify = clientCertificates.map { ["-CAfile", $0.path, "-Verify", "1", "-verify_return_error"] } ?? []
        let child = try ChildProcess(SelfSignedCertificate.openssl, [
            "s_server", "-accept", "127.0.0.1:0", "-cert", certificate.path, "-key", key.path, "-www",
        ] + verify, input: .open)
        _ = await child.stdout.wait(limit: .seconds(120)) { acceptedPort(in: $0) != nil }
        guard let port = acceptedPort(in: child.stdout.text) else {
            child.signalGroup(SIGKILL)
            throw POSIXError(.EADDRNOTAVAIL, userInfo: [NSLocalizedDescriptionKey:
                "openssl s_server did not start: \(child.stdout.text) \(child.stderr.text)"])
        }
        return (child, port)
    }
}
