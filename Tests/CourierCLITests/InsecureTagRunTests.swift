import CourierTestSupport
import Foundation
import Testing

/// `# @insecure` turns TLS verification off for one request; `courier run` says so on standard error before
/// sending it, in the words `--insecure` and `verifyHostCertificate: false` use, against an `openssl s_server`
/// with a self-signed certificate.
@Suite("# @insecure in courier run", .serialized)
struct InsecureTagRunTests {
    static let warning = "Warning: TLS certificates are not verified"

    @Test("A request tagged # @insecure reaches the self-signed server, and the run warns that TLS is not verified")
    func insecureTagWarns() async throws {
        // Given a self-signed server, a request tagged # @insecure and one that is not
        let server = try await OpenSSLServer()
        defer { server.stop() }
        let folder = try TemporaryFolder("insecure-tag")
        try folder.write("api.http", """
            ### Unverified
            # @name unverified
            # @insecure
            GET \(server.url("/page?access_token=tok-S3CRET-1234").absoluteString)

            """)

        for extra in [[], ["--json"]] {
            // When it runs
            let result = try await CourierCLI.run(["run", "api.http"] + extra, in: folder.url)

            // Then it succeeds, and standard error warns, naming the tag and the request (its token masked)
            #expect(result.status == 0, "\(extra): \(result.stderr)")
            #expect(result.stderr.contains(Self.warning), "\(extra): \(result.stderr)")
            #expect(result.stderr.contains("# @insecure on GET https://127.0.0.1:\(server.port)/page"), "\(result.stderr)")
            #expect(!result.stderr.contains("tok-S3CRET"), "\(result.stderr)")
        }
    }

    @Test("A request without the tag is refused by the same server, and nothing warns")
    func verifiedRequestDoesNotWarn() async throws {
        let server = try await OpenSSLServer()
        defer { server.stop() }
        let folder = try TemporaryFolder("insecure-tag")
        try folder.write("api.http", "GET \(server.url().absoluteString)\n")

        let result = try await CourierCLI.run(["run", "api.http"], in: folder.url)

        #expect(result.status == 35, "\(result.stdout) \(result.stderr)")
        #expect(!result.stderr.contains(Self.warning), "\(result.stderr)")
    }

    @Test("An environment that turns verification off warns once for its file, not again for a tagged request")
    func environmentWarnsOnce() async throws {
        let server = try await OpenSSLServer()
        defer { server.stop() }
        let folder = try TemporaryFolder("insecure-tag")
        try folder.write("api.http", "# @insecure\nGET \(server.url().absoluteString)\n\n###\nGET \(server.url().absoluteString)\n")
        try folder.write("http-client.env.json", #"{"dev": {"SSLConfiguration": {"verifyHostCertificate": false}}}"#)

        let result = try await CourierCLI.run(["run", "api.http", "--env", "dev"], in: folder.url)

        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.components(separatedBy: Self.warning).count == 2, "\(result.stderr)")
    }
}
