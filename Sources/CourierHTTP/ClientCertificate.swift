import Foundation

/// The certificate a request presents when the server asks who the client is (mutual TLS): curl's
/// `--cert`, `--key`, `--cert-type` and `--pass`, or an environment file's client certificate settings.
/// Building one reads nothing; the transport hands the files to TLS when it connects.
public struct ClientCertificate: Sendable, Hashable, CustomStringConvertible {
    /// How a certificate or key file is encoded.
    public enum Format: String, Sendable, Hashable, CaseIterable {
        /// Base64 text between `-----BEGIN …-----` lines; may hold the key too.
        case pem = "PEM"
        /// The same, as binary ASN.1.
        case der = "DER"
        /// PKCS #12 (`.p12`, `.pfx`): certificate and key in one file, usually under a passphrase.
        case p12 = "P12"

        /// The format a file's name suggests: `.p12`/`.pfx` are PKCS #12, `.der`/`.cer` binary, the rest PEM.
        public static func guessed(from path: String) -> Format {
            switch URL(fileURLWithPath: path).pathExtension.lowercased() {
            case "p12", "pfx": .p12
            case "der", "cer": .der
            default: .pem
            }
        }

        /// Reads `PEM`, `DER`, `P12` (`PKCS12`, `PFX`), in any case; nil for anything else.
        public init?(name: String) {
            switch name.uppercased() {
            case "PEM": self = .pem
            case "DER": self = .der
            case "P12", "PKCS12", "PFX": self = .p12
            default: return nil
            }
        }
    }

    public var certificate: URL
    public var certificateFormat: Format
    /// The private key's file when it is not inside `certificate`.
    public var key: URL?
    public var keyFormat: Format
    /// Unlocks an encrypted key or PKCS #12 file. A secret: never printed (see `description`).
    public var passphrase: String?

    public init(certificate: URL, format: Format? = nil, key: URL? = nil, keyFormat: Format? = nil,
                passphrase: String? = nil) {
        self.certificate = certificate
        self.certificateFormat = format ?? Format.guessed(from: certificate.path)
        self.key = key
        self.keyFormat = keyFormat ?? key.map { Format.guessed(from: $0.path) } ?? .pem
        self.passphrase = passphrase
    }

    /// The files and formats, never the passphrase: this is what a log or an error may show.
    public var description: String {
        var text = "\(certificate.path) (\(certificateFormat.rawValue))"
        if let key { text += ", key \(key.path) (\(keyFormat.rawValue))" }
        if passphrase != nil { text += ", with a passphrase" }
        return text
    }
}
