import Foundation

/// A throwaway self-signed certificate for loopback TLS servers in tests: an EC P-256 key, valid for a day,
/// naming 127.0.0.1 and localhost (so a client that trusts it can verify it). Made by `openssl`, awaited.
public struct SelfSignedCertificate: Sendable {
    public let certificate: URL
    public let key: URL

    /// Where Debian installs openssl; `make deps` installs it.
    public static let openssl = URL(fileURLWithPath: "/usr/bin/openssl")
    public static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: openssl.path) }

    /// Writes `cert.pem` and `key.pem` into `folder`.
    public static func make(in folder: URL) async throws -> SelfSignedCertificate {
        let certificate = folder.appendingPathComponent("cert.pem"), key = folder.appendingPathComponent("key.pem")
        let result = try await ChildProcess.run(openssl, [
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-subj", "/CN=localhost", "-days", "1", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
            "-keyout", key.path, "-out", certificate.path,
        ], limit: .seconds(120))
        guard result.status == 0 else {
            throw POSIXError(.EIO, userInfo: [NSLocalizedDescriptionKey: "openssl req failed: \(result.stderr)"])
        }
        return SelfSignedCertificate(certificate: certificate, key: key)
    }
}
