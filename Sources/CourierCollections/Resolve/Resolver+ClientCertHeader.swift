import CourierHTTP
import CourierMessage
import Foundation

/// httpyac's client certificate header: `ClientCert: cert: ./client.crt key: ./client.key` or
/// `X-ClientCert: pfx: ./client.p12 passphrase: secret` presents that certificate and is never sent itself.
extension Resolver {
    /// Takes the header (any name ending in `ClientCert`) off `request` and presents its certificate instead of
    /// one the environment names; the files are read under the collection's file policy, relative to the
    /// `.http` file. Returns the passphrase, a secret. A header naming neither `cert:` nor `pfx:` is an error
    /// rather than a header carrying a passphrase to the server.
    func applyClientCertHeader(to request: inout HTTPRequest,
                               template: RequestTemplate) throws(CollectionError) -> Set<String> {
        let fields = request.headers.filter { $0.name.lowercased().hasSuffix("clientcert") }
        guard let field = fields.last else { return [] }
        for each in fields { request.headers.remove(each.name) }
        let options = Self.clientCertOptions(field.value)
        let passphrase = options["passphrase"]
        let secrets: Set<String> = passphrase.map { [$0] } ?? []
        func file(_ written: String) throws(CollectionError) -> URL {
            try permitted(written, expanded: written, request: template, streamed: true)
        }
        if let pfx = options["pfx"] {
            request.clientCertificate = ClientCertificate(certificate: try file(pfx), format: .p12,
                                                          passphrase: passphrase)
        } else if let cert = options["cert"] {
            let key = try options["key"].map(file)
            request.clientCertificate = ClientCertificate(certificate: try file(cert), key: key, passphrase: passphrase)
        } else {
            throw .unsupported(request: template.displayName, reason: "'\(field.name):' should say 'cert: "
                + "./client.crt key: ./client.key' or 'pfx: ./client.p12 passphrase: …'; the request is not sent")
        }
        return secrets
    }

    /// `cert: A key: B pfx: C passphrase: D` as a dictionary, in any order.
    static func clientCertOptions(_ value: String) -> [String: String] {
        var options: [String: String] = [:]
        var key: String?
        for word in value.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init) {
            if word.hasSuffix(":"), ["cert:", "key:", "pfx:", "passphrase:"].contains(word.lowercased()) {
                key = String(word.dropLast()).lowercased()
            } else if let current = key {
                options[current] = options[current].map { $0 + " " + word } ?? word
            }
        }
        return options
    }
}
