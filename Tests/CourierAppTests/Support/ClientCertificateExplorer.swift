import CourierApp
import CourierHTTP
import CourierTerminal
import CourierTestSupport
import Foundation

/// The explorer against an `openssl s_server` that requires a client certificate, with a `dev` environment
/// whose `SSLConfiguration` names a client certificate and its passphrase-locked key (so the passphrase is
/// asked) and does not verify the server's self-signed certificate.
final class ClientCertificateExplorer: LiveExplorer {
    let folder: TemporaryFolder
    let server: OpenSSLServer

    /// `request` writes the collection's one request for the server. With `trustsAnother` the server trusts
    /// only a certificate of its own, so it refuses the one the environment presents.
    init(_ label: String, trustsAnother: Bool = false, request: (OpenSSLServer) -> String) async throws {
        folder = try TemporaryFolder(label)
        let serverFolder = folder.url.appendingPathComponent("server-files")
        let client = folder.url.appendingPathComponent("client")
        for url in [serverFolder, client] {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }
        let made = try await SelfSignedCertificate.make(in: serverFolder)
        var trusted = try await ClientCertificateFiles.make(in: client).certificate
        if trustsAnother {
            let other = folder.url.appendingPathComponent("other")
            try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
            trusted = try await ClientCertificateFiles.make(in: other).certificate
        }
        server = try await OpenSSLServer(certificate: made.certificate, key: made.key, clientCertificates: trusted)
        try folder.write("api.http", request(server))
        try folder.write("http-client.private.env.json", """
            {"dev": {"SSLConfiguration": {"clientCertificate": "client/cert.pem",
                     "clientCertificateKey": "client/key-locked.pem", "hasCertificatePassphrase": true,
                     "verifyHostCertificate": false}}}
            """)
        super.init(configuration: .init(transport: CurlTransport(), themeFolders: []),
                   state: AppState(size: Size(width: 160, height: 48),
                                   collectionPath: folder.url.appendingPathComponent("api.http").path,
                                   environment: "dev"))
    }

    func stop() {
        runner.shutdown()
        server.stop()
    }

    /// Whether the explorer is asking for the client certificate's passphrase.
    static func asking(_ state: AppState) -> Bool {
        if case .prompt(let prompt)? = state.modals.last { return prompt.purpose == .certificatePassphrase }
        return false
    }
}
