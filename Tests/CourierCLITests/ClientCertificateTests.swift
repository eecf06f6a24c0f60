import CourierTestSupport
import Foundation
import Testing

/// Client certificates (mutual TLS) end to end: `openssl s_server` asks for a client certificate, trusts only
/// the test's own, and its status page shows the subject of the one it received. Certificates come from the
/// JetBrains `SSLConfiguration`, the REST Client's `rest-client.certificates` or `--cert`.
@Suite("Client certificates", .enabled(if: SelfSignedCertificate.isAvailable))
struct ClientCertificateTests {
    static let passphrase = ClientCertificateFiles.passphrase

    /// A server that requires a client certificate, and the files a client needs, in one folder:
    /// `server.pem` (to trust the server), `client/cert.pem`, `client/key.pem`, `client/key-locked.pem`
    /// (under `passphrase`), `client/client.p12`.
    struct Fixture {
        let folder: TemporaryFolder
        let server: OpenSSLServer
        var url: String { server.url("/").absoluteString }

        init() async throws {
            folder = try TemporaryFolder("mtls")
            let serverFolder = folder.url.appendingPathComponent("server-files")
            let client = folder.url.appendingPathComponent("client")
            for url in [serverFolder, client] {
                try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            }
            let made = try await SelfSignedCertificate.make(in: serverFolder)
            try FileManager.default.copyItem(at: made.certificate, to: folder.url.appendingPathComponent("server.pem"))
            let files = try await ClientCertificateFiles.make(in: client)
            server = try await OpenSSLServer(certificate: made.certificate, key: made.key,
                                             clientCertificates: files.certificate)
        }

        /// `courier run api.http --all ARGUMENTS` in the folder, with `files` written first.
        func run(_ files: [String: String], _ arguments: [String]) async throws -> ChildResult {
            try folder.write("api.http", "GET \(url)\n")
            for (path, text) in files { try folder.write(path, text) }
            return try await CourierCLI.run(["run", "api.http", "--all"] + arguments, in: folder.url)
        }
    }

    /// What the server's page says when it received the test's certificate.
    static let receivedClientCertificate = ClientCertificateFiles.subject

    @Test func jetBrainsSSLConfigurationPresentsTheCertificateWithPathsRelativeToTheEnvironmentFile() async throws {
        // Given a private environment naming the certificate and its key (one as an object with a format)
        let fixture = try await Fixture()
        let environment = """
            {"dev": {"SSLConfiguration": {"clientCertificate": "client/cert.pem",
                                          "clientCertificateKey": {"path": "client/key.pem", "format": "PEM"}}},
             "bare": {}}
            """
        // When the request runs with that environment, and with one that has no certificate
        let with = try await fixture.run(["http-client.private.env.json": environment],
                                         ["--env", "dev", "--cacert", "server.pem"])
        let without = try await fixture.run([:], ["--env", "bare", "--cacert", "server.pem"])
        // Then the server received the certificate; without it the failure says a certificate is required
        #expect(with.status == 0, "\(with.stderr)")
        #expect(with.stdout.contains(Self.receivedClientCertificate), "\(with.stdout.prefix(600))")
        #expect(without.status == 35)
        #expect((without.stdout + without.stderr).contains("requires a client certificate"),
                "\(without.stdout)\(without.stderr)")
    }

    @Test func aCertificatePassphraseIsAskedForIsCheckedAndNeverPrinted() async throws {
        // Given an environment whose key is locked (hasCertificatePassphrase)
        let fixture = try await Fixture()
        let environment = """
            {"dev": {"SSLConfiguration": {"clientCertificate": "client/cert.pem",
                     "clientCertificateKey": "client/key-locked.pem", "hasCertificatePassphrase": true}}}
            """
        let files = ["http-client.private.env.json": environment]
        let base = ["--env", "dev", "--cacert", "server.pem"]
        // When it runs without --pass, with a wrong one, and with the right one (and is checked without one)
        let missing = try await fixture.run(files, base)
        let checked = try await CourierCLI.run(["check", "api.http", "--env", "dev"], in: fixture.folder.url)
        let wrong = try await fixture.run(files, base + ["--pass", "not-the-one"])
        let right = try await fixture.run(files, base + ["--pass", Self.passphrase, "--json"])
        let replaced = try await fixture.run(files, base + ["--cert", "client/cert.pem", "--key", "client/key.pem"])
        // Then the first says a passphrase is needed, the second that the certificate could not be used
        #expect(checked.status == 0, "a check takes the passphrase as given: \(checked.stdout)\(checked.stderr)")
        #expect(missing.status == 3)
        #expect((missing.stdout + missing.stderr).contains("needs its passphrase"), "\(missing.stdout)\(missing.stderr)")
        #expect(wrong.status == 35)
        #expect((wrong.stdout + wrong.stderr).contains("could not be used: a wrong or missing passphrase"),
                "\(wrong.stdout)\(wrong.stderr)")
        #expect(!(wrong.stdout + wrong.stderr).contains("not-the-one"))
        // And the right one gets through, with the passphrase nowhere in the output
        #expect(right.status == 0, "\(right.stderr)")
        #expect(right.stdout.contains(Self.receivedClientCertificate), "\(right.stdout.prefix(600))")
        #expect(!(right.stdout + right.stderr).contains(Self.passphrase))
        // And --cert replaces the environment's certificate, so its passphrase is not needed
        #expect(replaced.status == 0, "\(replaced.stdout)\(replaced.stderr)")
        #expect(replaced.stdout.contains(Self.receivedClientCertificate))
    }

    @Test func restClientCertificatesByHostAndPortPresentAPKCS12FileRelativeToTheWorkspace() async throws {
        // Given REST Client settings with a PKCS #12 file and its passphrase for this host and port
        let fixture = try await Fixture()
        let settings = """
            {
                // per host, as the REST Client reads them
                "rest-client.certificates": {
                    "127.0.0.1:\(fixture.server.port)": {"pfx": "client/client.p12", "passphrase": "\(Self.passphrase)"},
                    "example.com": {"cert": "nowhere.pem"},
                },
            }
            """
        // When the request runs (no environment selected)
        let result = try await fixture.run([".vscode/settings.json": settings], ["--cacert", "server.pem"])
        // Then the server received the certificate
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(Self.receivedClientCertificate), "\(result.stdout.prefix(600))")
        #expect(!(result.stdout + result.stderr).contains(Self.passphrase))
    }

    @Test func httpyacsClientCertificatesByHostInItsJavaScriptConfigurationArePresented() async throws {
        // Given httpyac.config.js naming a certificate and key for this host and port, relative to the project
        let fixture = try await Fixture()
        let config = """
            module.exports = {
              clientCertificates: {
                '127.0.0.1:\(fixture.server.port)': { cert: 'client/cert.pem', key: 'client/key.pem' },
              },
            };
            """
        // When the request runs (no environment selected)
        let result = try await fixture.run(["httpyac.config.js": config], ["--cacert", "server.pem"])
        // Then the server received the certificate
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(Self.receivedClientCertificate), "\(result.stdout.prefix(600))")
    }

    @Test func verifyHostCertificateFalseSkipsVerificationAndWarnsAsInsecureDoes() async throws {
        // Given an environment that turns verification off, and no --cacert for the self-signed server
        let fixture = try await Fixture()
        let environment = """
            {"dev": {"SSLConfiguration": {"clientCertificate": "client/cert.pem", "clientCertificateKey": "client/key.pem",
                                          "verifyHostCertificate": false}},
             "strict": {"SSLConfiguration": {"clientCertificate": "client/cert.pem",
                                             "clientCertificateKey": "client/key.pem"}}}
            """
        let files = ["http-client.private.env.json": environment]
        // When it runs with that environment, with a verifying one, and `courier send --insecure`
        let unverified = try await fixture.run(files, ["--env", "dev"])
        let verified = try await fixture.run(files, ["--env", "strict"])
        let insecure = try await CourierCLI.run(["send", fixture.url, "--insecure", "--cert", "client/cert.pem",
                                                 "--key", "client/key.pem"], in: fixture.folder.url)
        // Then the first gets through with the warning --insecure gives; verification is otherwise on
        #expect(unverified.status == 0, "\(unverified.stderr)")
        #expect(unverified.stderr.contains("Warning: TLS certificates are not verified (verifyHostCertificate: false in "),
                "\(unverified.stderr)")
        #expect(verified.status == 35)
        #expect(!verified.stderr.contains("Warning:"))
        #expect(insecure.status == 0, "\(insecure.stderr)")
        #expect(insecure.stderr.contains("Warning: TLS certificates are not verified (--insecure)"), "\(insecure.stderr)")
    }

    @Test func sendPresentsCertAndKeyAndFailsClearlyWithoutThem() async throws {
        // Given the server and curl's options
        let fixture = try await Fixture()
        let folder = fixture.folder.url
        // When courier send presents a PEM pair, a PKCS #12 file, and nothing
        let pair = try await CourierCLI.run(["send", fixture.url, "--cacert", "server.pem", "-E", "client/cert.pem",
                                             "--key", "client/key.pem"], in: folder)
        let p12 = try await CourierCLI.run(["send", fixture.url, "--cacert", "server.pem", "--cert", "client/client.p12",
                                            "--cert-type", "P12", "--pass", Self.passphrase], in: folder)
        let none = try await CourierCLI.run(["send", fixture.url, "--cacert", "server.pem", "--retry", "0"], in: folder)
        let typo = try await CourierCLI.run(["send", fixture.url, "--cert", "client/missing.pem"], in: folder)
        // Then both certificates reach the server; without one the error says why, after one attempt
        #expect(pair.status == 0, "\(pair.stderr)")
        #expect(pair.stdout.contains(Self.receivedClientCertificate))
        #expect(p12.status == 0, "\(p12.stderr)")
        #expect(p12.stdout.contains(Self.receivedClientCertificate))
        #expect(!(p12.stdout + p12.stderr).contains(Self.passphrase))
        #expect(none.status == 35)
        #expect(none.stderr.contains("requires a client certificate"), "\(none.stderr)")
        #expect(typo.status == 2)
        #expect(typo.stderr.contains("--cert: cannot read the file 'client/missing.pem'"), "\(typo.stderr)")
    }
    @Test func aWebSocketRequestPresentsTheEnvironmentsCertificateToo() async throws {
        // Given a WEBSOCKET request and an environment with a client certificate
        let fixture = try await Fixture()
        let environment = """
            {"dev": {"SSLConfiguration": {"clientCertificate": "client/cert.pem",
                                          "clientCertificateKey": "client/key.pem"}},
             "bare": {}}
            """
        try fixture.folder.write("ws.http", "WEBSOCKET wss://127.0.0.1:\(fixture.server.port)/ws\n\nhello\n")
        try fixture.folder.write("http-client.private.env.json", environment)
        // When it runs with and without the certificate
        let with = try await CourierCLI.run(["run", "ws.http", "--env", "dev", "--cacert", "server.pem"],
                                            in: fixture.folder.url)
        let without = try await CourierCLI.run(["run", "ws.http", "--env", "bare", "--cacert", "server.pem"],
                                               in: fixture.folder.url)
        // Then with it the upgrade request reached the server over mutual TLS (s_server answers its page, 200,
        // not 101); without it the connection broke before any answer
        #expect(with.stdout.contains("WebSocket 200"), "\(with.stdout)\(with.stderr)")
        #expect(!without.stdout.contains("WebSocket 200") && without.status == 35, "\(without.stdout)")
    }

    @Test func httpyacsClientCertHeaderPresentsTheCertificateAndIsNotSent() async throws {
        // Given httpyac's header forms: cert and key, and a PKCS #12 file with its passphrase
        let fixture = try await Fixture()
        try fixture.folder.write("yac.http", """
            GET \(fixture.url)
            ClientCert: cert: ./client/cert.pem key: ./client/key.pem

            ###
            GET \(fixture.url)
            X-ClientCert: pfx: ./client/client.p12 passphrase: \(Self.passphrase)

            ###
            GET \(fixture.url)
            X-ClientCert: passphrase: \(Self.passphrase)
            """)
        // When they run
        let result = try await CourierCLI.run(["run", "yac.http", "--all", "--cacert", "server.pem"],
                                              in: fixture.folder.url)
        // Then the first two reach the server over mutual TLS, without the header (s_server's page echoes the
        // request it got); the third, naming no certificate, is refused and its passphrase is never printed
        let output = result.stdout + result.stderr
        #expect(output.components(separatedBy: Self.receivedClientCertificate).count == 3, "\(output.prefix(2000))")
        #expect(!output.lowercased().contains("clientcert: "), "\(output.prefix(2000))")
        #expect(output.contains("should say 'cert: ./client.crt key: ./client.key'"), "\(output.suffix(800))")
        #expect(!output.contains(Self.passphrase))
    }
}
