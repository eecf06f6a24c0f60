import CourierTestSupport
import Foundation
import Testing

/// `courier send` against `nghttpd`, an HTTP/2-only server: what a user sees of HTTP/2.
@Suite("courier send over HTTP/2", .serialized)
struct HTTP2SendCommandTests {
    private func withServer(_ body: (HTTP2Server) async throws -> Void) async throws {
        let server = try await HTTP2Server()
        defer { server.stop() }
        try await body(server)
    }

    @Test("courier send prints the status line HTTP/2 200 with no trailing space and exits 0")
    func humanOutputShowsHTTP2() async throws {
        try await withServer { server in
            // Given an HTTP/2 server with a self-signed certificate
            let url = server.url(HTTP2Server.smallPath).absoluteString

            // When courier sends to it, trusting the server's certificate
            let result = try await CourierCLI.run(["send", url, "--cacert", server.certificate.path])

            // Then the first line is exactly "HTTP/2 200", the lower-case headers follow and the body is shown
            #expect(result.status == 0)
            let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.first == "HTTP/2 200")
            #expect(lines.contains("content-type: application/json"))
            #expect(result.stdout.contains("\"protocol\""))
            #expect(!result.stdout.contains("(null)"))
        }
    }

    @Test("courier send --json reports http_version HTTP/2 with status, headers and body")
    func jsonOutputShowsHTTP2() async throws {
        try await withServer { server in
            // Given an HTTP/2 server
            let url = server.url(HTTP2Server.smallPath).absoluteString

            // When courier sends to it with --json, without verifying the certificate
            let result = try await CourierCLI.run(["send", url, "--insecure", "--json"])

            // Then the object names the version, the status, the body and a timed TLS handshake
            #expect(result.status == 0)
            let object = try CourierCLI.json(result.stdout)
            #expect(object["http_version"] as? String == "HTTP/2")
            #expect(object["status"] as? Int == 200)
            #expect(object["body"] as? String == String(decoding: HTTP2Server.smallBody, as: UTF8.self))
            let headers = object["headers"] as? [[String]] ?? []
            #expect(headers.contains(["content-type", "application/json"]))
            let attempts = object["attempts"] as? [[String: Any]] ?? []
            let timing = attempts.last?["timing"] as? [String: Any]
            #expect((timing?["tls_ms"] as? Double ?? 0) > 0)
        }
    }

    @Test("courier send -o writes a 5 MB HTTP/2 body to the file byte for byte")
    func largeBodyToFile() async throws {
        try await withServer { server in
            // Given an HTTP/2 server and a destination in a temporary folder
            let folder = try HTTP2Server.temporaryFolder("courier-h2-out")
            defer { try? FileManager.default.removeItem(at: folder) }
            let destination = folder.appendingPathComponent("large.bin")
            let url = server.url(HTTP2Server.largePath).absoluteString

            // When courier writes the 5 MB document there
            let result = try await CourierCLI.run(["send", url, "--cacert", server.certificate.path,
                                                       "-o", destination.path])

            // Then it exits 0 and the file holds exactly the served bytes
            #expect(result.status == 0)
            #expect(result.stdout.hasPrefix("HTTP/2 200\n"))
            #expect(try Data(contentsOf: destination) == HTTP2Server.largeBody)
        }
    }

    @Test("courier send without --insecure fails on the self-signed certificate with a tls error")
    func untrustedCertificateFails() async throws {
        try await withServer { server in
            // Given an HTTP/2 server whose certificate nothing trusts
            let url = server.url(HTTP2Server.smallPath).absoluteString

            // When courier sends to it, verifying certificates
            let result = try await CourierCLI.run(["send", url, "--json", "--retry", "0"])

            // Then it exits 35 and the error kind is tls
            #expect(result.status == 35)
            let object = try CourierCLI.json(result.stdout)
            let error = object["error"] as? [String: Any]
            #expect(error?["kind"] as? String == "tls")
        }
    }

    @Test("courier send --cacert with a file that cannot be read is a usage error that names the file")
    func unreadableCertificateFileIsAUsageError() async throws {
        // Given a certificate path that does not exist
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("courier-no-\(UUID().uuidString).pem").path

        // When courier is asked to trust it
        let result = try await CourierCLI.run(["send", "https://127.0.0.1:9/", "--cacert", path])

        // Then it exits 2 before sending and says which file
        #expect(result.status == 2)
        #expect(result.stderr.contains("--cacert: cannot read the certificate file '\(path)'"))
    }
}

/// `courier run --cacert`: a collection against a server with a self-signed certificate, verified.
@Suite("courier run --cacert against an HTTPS server", .serialized)
struct RunCACertTests {
    @Test("courier run verifies a self-signed server with --cacert and fails with tls without it")
    func runTrustsTheGivenCertificate() async throws {
        // Given an HTTPS server with a self-signed certificate and a collection that asks it for JSON
        let server = try await HTTP2Server()
        defer { server.stop() }
        let folder = try HTTP2Server.temporaryFolder("courier-run-cacert")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("tls.http")
        try Data("# @name small\nGET \(server.url(HTTP2Server.smallPath).absoluteString)\n".utf8).write(to: file)

        // When it runs trusting the server's certificate
        let trusted = try await CourierCLI.run(["run", file.path, "--cacert", server.certificate.path, "--json"])
        // Then the request succeeds over HTTP/2
        #expect(trusted.status == 0, "\(trusted.stdout)\(trusted.stderr)")
        let object = try CourierCLI.json(trusted.stdout.split(separator: "\n").first.map(String.init) ?? "")
        #expect(object["status"] as? Int == 200)
        #expect(object["http_version"] as? String == "HTTP/2")

        // When it runs without the certificate, Then verification fails as a tls error
        let untrusted = try await CourierCLI.run(["run", file.path, "--json"])
        #expect(untrusted.status == 35)
        #expect(untrusted.stdout.contains("\"tls\""))

        // And an unreadable certificate file is a usage error naming it
        let missing = try await CourierCLI.run(["run", file.path, "--cacert", "/nonexistent/ca.pem"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("/nonexistent/ca.pem"))
    }
}
