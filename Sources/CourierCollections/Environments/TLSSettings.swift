import CourierBody
import CourierHTTP
import Foundation

/// The TLS settings environment files carry: a JetBrains environment's `SSLConfiguration`
/// (`clientCertificate`, `clientCertificateKey`, `hasCertificatePassphrase`, `verifyHostCertificate`) and the
/// REST Client's `rest-client.certificates` in `.vscode/settings.json` (`cert`, `key`, `pfx`, `passphrase`
/// by host). Paths are absolute once read: relative ones are taken from the file's folder (the workspace
/// folder for the REST Client's settings).
public struct TLSSettings: Sendable, Hashable {
    /// A client certificate an environment file names.
    public struct Certificate: Sendable, Hashable {
        public var certificate: URL
        public var format: ClientCertificate.Format?
        public var key: URL?
        public var keyFormat: ClientCertificate.Format?
        /// The REST Client's `passphrase`, written in its settings file. A secret.
        public var passphrase: String?
        /// JetBrains' `hasCertificatePassphrase`: the IDE keeps the passphrase elsewhere, Courier asks for it.
        public var needsPassphrase: Bool
        /// The file that named it, for errors.
        public var source: String

        public init(certificate: URL, format: ClientCertificate.Format? = nil, key: URL? = nil,
                    keyFormat: ClientCertificate.Format? = nil, passphrase: String? = nil,
                    needsPassphrase: Bool = false, source: String) {
            self.certificate = certificate
            self.format = format
            self.key = key
            self.keyFormat = keyFormat
            self.passphrase = passphrase
            self.needsPassphrase = needsPassphrase
            self.source = source
        }
    }

    /// JetBrains: the certificate every request of the environment presents.
    public var clientCertificate: Certificate?
    /// REST Client: certificates by `host` or `host:port`, lower-cased.
    public var hostCertificates: [String: Certificate] = [:]
    /// The environment file that turned certificate verification off (`"verifyHostCertificate": false`);
    /// nil while verification is on, as it is unless a file says otherwise.
    public var unverifiedBy: String?

    public init(clientCertificate: Certificate? = nil, hostCertificates: [String: Certificate] = [:],
                unverifiedBy: String? = nil) {
        self.clientCertificate = clientCertificate
        self.hostCertificates = hostCertificates
        self.unverifiedBy = unverifiedBy
    }

    /// No certificate, verification on.
    public static let none = TLSSettings()

    /// The certificate for `url`: the REST Client's entry for its `host:port`, then for its host, then the
    /// environment's own.
    public func certificate(for url: URL) -> Certificate? {
        // Reading `host` decodes IDNA: not done for every request of a run when no host has a certificate.
        if !hostCertificates.isEmpty, let host = url.host?.lowercased() {
            if let port = url.port, let match = hostCertificates["\(host):\(port)"] { return match }
            if let match = hostCertificates[host] { return match }
        }
        return clientCertificate
    }

    /// Sets `request`'s client certificate and verification from these settings. `passphrase` (`--pass`, or
    /// asked for) unlocks a JetBrains certificate that has one, and is used when a file names none;
    /// `replacement` (`--cert`) is presented instead of any certificate the files name.
    /// Returns the passphrase used, a secret the caller masks.
    func apply(to request: inout HTTPRequest, passphrase: String?, replacement: ClientCertificate? = nil,
               requestName: String) throws(CollectionError) -> String? {
        if unverifiedBy != nil { request.insecure = true }
        if let replacement {
            request.clientCertificate = replacement
            return replacement.passphrase
        }
        guard let found = certificate(for: request.url) else { return nil }
        let secret = found.passphrase ?? passphrase
        if found.needsPassphrase && secret == nil {
            throw .certificatePassphraseMissing(source: found.source, request: requestName)
        }
        request.clientCertificate = ClientCertificate(certificate: found.certificate, format: found.format,
                                                      key: found.key, keyFormat: found.keyFormat, passphrase: secret)
        return secret
    }
}

// MARK: Reading the files

extension TLSSettings {
    /// JetBrains' key for an environment's TLS settings.
    static let jetBrainsKey = "SSLConfiguration"
    /// The REST Client's setting for certificates by host.
    static let restClientKey = "rest-client.certificates"

    /// One environment's `SSLConfiguration` as written, each key optional so nearer and private files can
    /// override single keys of farther ones.
    struct Layer: Sendable, Hashable {
        var certificatePath: URL?
        var certificateFormat: ClientCertificate.Format?
        var keyPath: URL?
        var keyFormat: ClientCertificate.Format?
        var needsPassphrase: Bool?
        var verifyHost: Bool?
        var source: String
    }

    /// Reads the `SSLConfiguration` object of one environment in the file at `path`.
    static func layer(_ value: JSONValue, path: String) throws(CollectionError) -> Layer {
        guard let members = value.objectValue else {
            throw .badEnvironmentFile(path: path, reason: "'\(jetBrainsKey)' is not an object")
        }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        var layer = Layer(source: path)
        for (key, member) in members {
            switch key {
            case "clientCertificate":
                (layer.certificatePath, layer.certificateFormat) = try file(member, key: key, folder: folder, path: path)
            case "clientCertificateKey":
                (layer.keyPath, layer.keyFormat) = try file(member, key: key, folder: folder, path: path)
            case "hasCertificatePassphrase":
                layer.needsPassphrase = try flag(member, key: key, path: path)
            case "verifyHostCertificate":
                layer.verifyHost = try flag(member, key: key, path: path)
            default:
                throw .badEnvironmentFile(path: path, reason: "'\(jetBrainsKey)' has no setting '\(key)'; known: "
                    + "clientCertificate, clientCertificateKey, hasCertificatePassphrase, verifyHostCertificate")
            }
        }
        return layer
    }

    /// Merges `layers`, weakest first: each key of a later layer replaces the same key of earlier ones.
    static func merged(_ layers: [Layer]) -> TLSSettings {
        var settings = TLSSettings()
        var certificate: (URL, ClientCertificate.Format?, String)?
        var key: (URL, ClientCertificate.Format?)?
        var needsPassphrase = false
        for layer in layers {
            if let path = layer.certificatePath { certificate = (path, layer.certificateFormat, layer.source) }
            if let path = layer.keyPath { key = (path, layer.keyFormat) }
            if let flag = layer.needsPassphrase { needsPassphrase = flag }
            if let verify = layer.verifyHost { settings.unverifiedBy = verify ? nil : layer.source }
        }
        if let certificate {
            settings.clientCertificate = Certificate(certificate: certificate.0, format: certificate.1, key: key?.0,
                                                     keyFormat: key?.1, needsPassphrase: needsPassphrase,
                                                     source: certificate.2)
        }
        return settings
    }

    /// `"path"` or `{"path": …, "format": "PEM"|"DER"}`, made absolute against `folder`.
    private static func file(_ value: JSONValue, key: String, folder: URL,
                             path: String) throws(CollectionError) -> (URL, ClientCertificate.Format?) {
        let written = value.stringValue ?? value["path"]?.stringValue
        guard let written, !written.isEmpty else {
            throw .badEnvironmentFile(path: path, reason: "'\(key)' must be a path or {\"path\": …, \"format\": …}")
        }
        var format: ClientCertificate.Format?
        if let name = value["format"]?.stringValue {
            guard let known = ClientCertificate.Format(name: name) else {
                throw .badEnvironmentFile(path: path, reason: "'\(key)' has format '\(name)'; use PEM, DER or P12")
            }
            format = known
        }
        return (absolute(written, in: folder), format)
    }

    private static func flag(_ value: JSONValue, key: String, path: String) throws(CollectionError) -> Bool {
        guard let flag = value.boolValue else {
            throw .badEnvironmentFile(path: path, reason: "'\(key)' must be true or false")
        }
        return flag
    }

    /// `written` as an absolute file URL: `~/` is the home folder, a relative path starts in `folder`.
    static func absolute(_ written: String, in folder: URL) -> URL {
        if written.hasPrefix("/") { return URL(fileURLWithPath: written).standardizedFileURL }
        if written.hasPrefix("~/") {
            return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(String(written.dropFirst(2)))
        }
        return folder.appendingPathComponent(written).standardizedFileURL
    }

    /// The REST Client's `rest-client.certificates` object, `{"host[:port]": {"cert", "key", "pfx",
    /// "passphrase"}}`, with paths relative to `workspace`.
    static func hostCertificates(_ object: [String: Any], workspace: URL,
                                 path: String) throws(CollectionError) -> [String: Certificate] {
        var result: [String: Certificate] = [:]
        for (host, entry) in object {
            guard let fields = entry as? [String: Any] else {
                throw .badEnvironmentFile(path: path, reason: "'\(restClientKey)' entry '\(host)' is not an object")
            }
            let text = { (name: String) -> String? in (fields[name] as? String).flatMap { $0.isEmpty ? nil : $0 } }
            let passphrase = text("passphrase")
            if let pfx = text("pfx") {
                result[host.lowercased()] = Certificate(certificate: absolute(pfx, in: workspace), format: .p12,
                                                        passphrase: passphrase, source: path)
            } else if let cert = text("cert") {
                result[host.lowercased()] = Certificate(certificate: absolute(cert, in: workspace),
                                                        key: text("key").map { absolute($0, in: workspace) },
                                                        passphrase: passphrase, source: path)
            } else {
                throw .badEnvironmentFile(path: path, reason: "'\(restClientKey)' entry '\(host)' names no "
                                          + "'cert' or 'pfx' file")
            }
        }
        return result
    }
}
