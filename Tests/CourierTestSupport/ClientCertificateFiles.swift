import Foundation

/// A throwaway client certificate for mutual-TLS tests (`CN=courier-client`, EC P-256, valid for a day) in
/// the forms a client may hold it: PEM certificate and key, the key locked with `passphrase`, and a PKCS #12
/// file under the same passphrase. Made by `openssl`; an `OpenSSLServer` given `certificate` as its
/// `clientCertificates` accepts only this one.
public struct ClientCertificateFiles: Sendable {
    /// What the server's status page shows once it received the certificate.
    public static let subject = "Subject: CN=courier-client"
    public static let passphrase = "pa55-Phrase-9"

    public let certificate: URL
    public let key: URL
    public let lockedKey: URL
    public let pkcs12: URL

    /// Writes `cert.pem`, `key.pem`, `key-locked.pem` and `client.p12` into `folder`.
    public static func make(in folder: URL) async throws -> ClientCertificateFiles {
        let files = ClientCertificateFiles(
            certificate: folder.appendingPathComponent("cert.pem"), key: folder.appendingPathComponent("key.pem"),
            lockedKey: folder.appendingPathComponent("key-locked.pem"), pkcs12: folder.appendingPathComponent("client.p12"))
        let pass = "pass:\(passphrase)"
        for arguments in [
            ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
             "-subj", "/CN=courier-client", "-days", "1", "-keyout", files.key.path, "-out", files.certificate.path],
            ["pkey", "-in", files.key.path, "-aes256", "-passout", pass, "-out", files.lockedKey.path],
            ["pkcs12", "-export", "-in", files.certificate.path, "-inkey", files.key.path, "-passout", pass,
             "-out", files.pkcs12.path],
        ] {
            let result = try await ChildProcess.run(SelfSignedCertificate.openssl, arguments, limit: .seconds(120))
            guard result.status == 0 else {
                throw POSIXError(.EIO, userInfo: [NSLocalizedDescriptionKey: "openssl \(arguments[0]): \(result.stderr)"])
            }
        }
        return files
    }
}
