import Foundation
import Testing
import CourierTestSupport

/// A token a response handler stores in a global named like a secret (or named like a private environment
/// value) is masked wherever it appears afterwards: `courier run` text and `--json`, the handlers' log lines,
/// echoed bodies and the JUnit report. The server issues the token, so nothing but the run knows it.
@Suite("Secret script globals", .serialized)
struct SecretGlobalRunTests {
    /// Logs in, stores the issued token in three secret globals (named like a secret, named like a private
/// environment value, set through Postman's `pm`), then sends them back.
    static let collection = """
        ### Login
        # @name login
        POST BASE/login
        Content-Type: application/json

        {"user": "ada"}

        > {%
          client.global.set("accessToken", response.body.token);
          client.global.set("upstream", response.body.token.toUpperCase());
          pm.environment.set("sessionSecret", response.body.token.split("").reverse().join(""));
          client.log("stored " + response.body.token);
        %}

        ### Me
        GET BASE/me
        Authorization: Bearer {{accessToken}}
        X-Upstream: {{upstream}}
        X-Session: {{sessionSecret}}

        > {% client.log("sent " + client.global.get("accessToken")); %}

        ### Unrelated
        GET BASE/other

        """

    /// Runs the collection in a fresh folder whose private environment names `upstream`; returns the run's
    /// output, the report it wrote and what the server received.
    private func run(_ extra: [String], token: String) async throws
        -> (result: ChildResult, report: String, received: [CaptureServer.Received]) {
        let server = try CaptureServer(issuing: token)
        defer { server.stop() }
        let folder = try TemporaryFolder()
        try folder.write("api.http", Self.collection.replacingOccurrences(of: "BASE", with: server.base))
        try folder.write("http-client.env.json", #"{"dev": {"region": "eu"}}"#)
        try folder.write("http-client.private.env.json", #"{"dev": {"upstream": "set-by-the-login"}}"#)
        let reportFile = folder.url.appendingPathComponent("report.xml")
        let result = try await CourierCLI.run(["run", "api.http", "--env", "dev", "--report", "junit", reportFile.path]
                                           + extra, in: folder.url)
        let report = (try? String(contentsOf: reportFile, encoding: .utf8)) ?? ""
        return (result, report, server.requests)
    }

    @Test("A token stored in a secret global is sent, and masked in text and JSON output, logs and the report")
    func secretGlobalIsMaskedEverywhereAfterwards() async throws {
        for extra in [[], ["--json"], ["--timing"]] {
            // Given a server that issues a token nobody else knows, and echoes every request's headers
            let token = "tok-GL0BAL-\(UUID().uuidString.prefix(8))"

            // When the collection logs in, stores the token and sends it back
            let (result, report, received) = try await run(extra, token: token)

            // Then the three values really went on the wire
            #expect(result.status == 0, "\(extra): \(result.stderr)")
            let me = try #require(received.first { $0.target == "/me" })
            #expect(me.header("Authorization") == "Bearer \(token)")
            let upper = token.uppercased()
            let reversed = String(token.reversed())
            #expect(me.header("X-Upstream") == upper)
            #expect(me.header("X-Session") == reversed)

            // And no output holds it: not the login's body, the handlers' logs, the echo, or the unrelated answer
            #expect(!result.stdout.contains(token), "\(extra) stdout: \(result.stdout)")
            for value in [upper, reversed] {
                #expect(!result.stdout.contains(value), "\(extra) stdout: \(result.stdout)")
                #expect(!report.contains(value), "report: \(report)")
            }
            #expect(!result.stderr.contains(token), "\(extra) stderr: \(result.stderr)")
            #expect(!report.contains(token), "report: \(report)")
            #expect(result.stdout.contains("stored REDACTED"), "\(extra): \(result.stdout)")
        }
    }

    @Test("--show-secrets prints the stored token, so the scan above is able to see it")
    func showSecretsPrintsTheToken() async throws {
        let token = "tok-GL0BAL-\(UUID().uuidString.prefix(8))"
        let (result, _, _) = try await run(["--show-secrets"], token: token)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("sent \(token)"), "\(result.stdout)")
    }
}
