@testable import CourierCollections
import CourierHTTP
import Foundation
import Testing

/// Reading client certificates and verification from environment files, before anything is sent.
@Suite struct TLSSettingsTests {
    @Test func sslConfigurationKeysMergeByPrecedenceAndPathsAreRelativeToTheirFile() throws {
        // Given a public $shared certificate and a private dev file overriding the key and verification
        let shared = #"{"$shared": {"SSLConfiguration": {"clientCertificate": "certs/a.p12"}}, "dev": {"x": "1"}}"#
        let dev = #"{"dev": {"SSLConfiguration": {"clientCertificateKey": {"path": "/keys/k.der", "format": "der"}, "#
            + #""verifyHostCertificate": false}}}"#
        let set = try EnvironmentSet.from(publicJSON: shared, privateJSON: dev)
        // When dev is selected
        let environment = try set.environment(named: "dev")
        let certificate = try #require(environment.tls.clientCertificate)
        // Then each key comes from the file that says it last, and SSLConfiguration is not a variable
        #expect(certificate.certificate.path.hasSuffix("/certs/a.p12"))
        #expect(certificate.key?.path == "/keys/k.der" && certificate.keyFormat == .der)
        #expect(environment.tls.unverifiedBy == EnvironmentSet.privateFileName)
        #expect(environment.values["SSLConfiguration"] == nil && environment.values["x"]?.value == "1")
        // And a request gets the certificate (format from the name) and goes unverified
        var request = HTTPRequest(url: URL(string: "https://api.example/x")!)
        let used = try environment.tls.apply(to: &request, passphrase: "hunter-22", requestName: "r")
        #expect(request.clientCertificate?.certificateFormat == .p12)
        #expect(request.clientCertificate?.passphrase == "hunter-22" && used == "hunter-22")
        #expect(request.insecure)
        let shown = "\(try #require(request.clientCertificate))"
        #expect(!shown.contains("hunter-22") && shown.contains("with a passphrase"), "\(shown)")
    }

    @Test func anUnknownKeyOrAWrongTypeIsAnErrorNamingTheFile() {
        for body in [#"{"SSLConfiguration": {"clientCertficate": "a.pem"}}"#,
                     #"{"SSLConfiguration": {"verifyHostCertificate": "no"}}"#,
                     #"{"SSLConfiguration": {"clientCertificate": {"path": "a", "format": "JKS"}}}"#] {
            #expect(throws: CollectionError.self, "\(body)") {
                try EnvironmentSet.from(publicJSON: #"{"dev": \#(body)}"#)
            }
        }
    }

    @Test func restClientCertificatesMatchHostAndPortBeforeHost() throws {
        let workspace = URL(fileURLWithPath: "/work/space")
        let hosts = try TLSSettings.hostCertificates([
            "api.example:8443": ["pfx": "a.p12", "passphrase": "pw"],
            "API.example": ["cert": "b.pem", "key": "b.key"],
        ], workspace: workspace, path: "/work/space/.vscode/settings.json")
        let settings = TLSSettings(hostCertificates: hosts)
        let exact = settings.certificate(for: URL(string: "https://api.example:8443/")!)
        #expect(exact?.certificate.path == "/work/space/a.p12")
        #expect(settings.certificate(for: URL(string: "https://api.example/")!)?.key?.path == "/work/space/b.key")
        #expect(settings.certificate(for: URL(string: "https://other.example/")!) == nil)
    }

    @Test func aResolvedRequestCarriesTheCertificateAndCopyAsCurlNamesTheFilesButNotThePassphrase() throws {
        // Given a request resolved in an environment with a locked certificate, and the passphrase given
        let environments = try EnvironmentSet.from(publicJSON: nil, privateJSON: """
            {"dev": {"SSLConfiguration": {"clientCertificate": "/certs/c.pem", "clientCertificateKey": "/certs/k.pem",
                                          "hasCertificatePassphrase": true}}}
            """)
        let file = HTTPFile(path: "a.http", text: "GET https://api.example/me\n")
        var context = VariableContext(environment: try environments.environment(named: "dev"), processEnvironment: [:])
        let template = try #require(file.requests.first)
        // When resolved without and with the passphrase
        #expect(throws: CollectionError.self) {
            try Resolver(file: file, baseFolder: URL(fileURLWithPath: "/"), context: context).resolve(template)
        }
        context.certificatePassphrase = "hunter-22"
        let resolved = try Resolver(file: file, baseFolder: URL(fileURLWithPath: "/"), context: context).resolve(template)
        // Then the request presents it, the passphrase is a secret, and the curl command has the files only
        #expect(resolved.request.clientCertificate?.key?.path == "/certs/k.pem")
        #expect(resolved.secrets.contains("hunter-22"))
        let command = CurlExporter.command(for: resolved, showSecrets: true)
        #expect(command.contains("--cert /certs/c.pem --cert-type PEM"), "\(command)")
        #expect(command.contains("--key /certs/k.pem"), "\(command)")
        #expect(!command.contains("hunter-22"))
    }
}
