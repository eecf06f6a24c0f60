import CourierHTTP
import Foundation

/// curl's client-certificate options, declared once for every command that sends over TLS: `--cert`,
/// `--key`, `--cert-type`, `--key-type`, `--pass`.
enum ClientCertificateOptions {
    /// The names curl users know; `PKCS12` and `PFX` are read as `P12` too.
    static let formats = ClientCertificate.Format.allCases.map(\.rawValue)

    /// The options, for a command's table.
    static let specs: [OptionSpec] = [
        .option("--cert", short: "E", "FILE", .file, help: "Present the client certificate in FILE when the "
                    + "server asks for one (PEM with or without its key, DER, or PKCS #12)."),
        .option("--key", "FILE", .file, help: "The client certificate's private key, when it is not in the --cert file."),
        .option("--cert-type", "TYPE", .choice(formats),
                help: "The --cert file's format (default: from its name; .p12/.pfx are P12, .der/.cer DER, else PEM)."),
        .option("--key-type", "TYPE", .choice(formats), help: "The --key file's format (default: from its name)."),
        .option("--pass", "PHRASE", help: "The passphrase of the client certificate's key, or of an "
                    + "environment's certificate (hasCertificatePassphrase). Never printed or stored."),
    ]
}

extension ParsedArguments {
    /// `--cert`, `--key`, `--cert-type`, `--key-type` and `--pass` as a client certificate; nil without
    /// `--cert`. Files are checked readable now, so a typo is a usage error rather than a TLS failure later.
    func clientCertificate() throws(UsageError) -> ClientCertificate? {
        guard let path = value("--cert") else {
            if value("--key") != nil {
                throw UsageError("--key needs --cert FILE, the certificate it belongs to", command: command)
            }
            return nil
        }
        let key = value("--key")
        for (option, file) in [("--cert", path), ("--key", key)] {
            guard let file, !FileManager.default.isReadableFile(atPath: file) else { continue }
            throw UsageError("\(option): cannot read the file '\(file)'", command: command)
        }
        return ClientCertificate(certificate: URL(fileURLWithPath: path),
                                 format: value("--cert-type").flatMap(ClientCertificate.Format.init(name:)),
                                 key: key.map { URL(fileURLWithPath: $0) },
                                 keyFormat: value("--key-type").flatMap(ClientCertificate.Format.init(name:)),
                                 passphrase: value("--pass"))
    }
}
