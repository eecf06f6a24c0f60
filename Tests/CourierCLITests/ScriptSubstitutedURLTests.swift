import CourierTestSupport
import CourierDemo
import Foundation
import Testing

/// JetBrains pre-request scripts read the request as it will be sent (`request.url.tryGetSubstituted()`,
/// `request.body.tryGetSubstituted()`), also while a header still waits for the value the script is about to
/// set: the common signing script signs what the server receives.
@Suite("A pre-request script reads the substituted request")
struct ScriptSubstitutedURLTests {
    @Test func aScriptSignsTheURLAndBodyTheServerReceives() async throws {
        // Given a request whose signature header waits for the script, which reads the URL and body substituted
        // (one variable from the file, one the script itself sets first)
        let server = try DemoServer.start()
        defer { server.stop() }
        let base = server.baseURL.absoluteString.hasSuffix("/")
            ? String(server.baseURL.absoluteString.dropLast()) : server.baseURL.absoluteString
        let folder = try TemporaryFolder()
        try folder.write("api.http", """
            @base = \(base)
            @tenant = acme

            ### signed
            < {%
                request.variables.set("version", "v2");
                request.variables.set("signedUrl", request.url.tryGetSubstituted());
                request.variables.set("signedBody", btoa(request.body.tryGetSubstituted()));
            %}
            POST {{base}}/echo?version={{version}}&tenant={{tenant}}
            Content-Type: application/json
            X-Signed-Url: {{signedUrl}}
            X-Signed-Body: {{signedBody}}

            {"tenant": "{{tenant}}", "version": "{{version}}"}
            """)
        // When it runs
        let result = try await CourierCLI.run(["run", folder.url.appendingPathComponent("api.http").path])
        // Then the server received the URL and body the script read, every variable substituted
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        let sent = try #require(server.log.first { $0.path.hasPrefix("/echo") })
        #expect(sent.header("X-Signed-Url") == "\(base)/echo?version=v2&tenant=acme", "\(String(describing: sent.header("X-Signed-Url")))")
        let body = #"{"tenant": "acme", "version": "v2"}"#
        #expect(sent.header("X-Signed-Body") == Data(body.utf8).base64EncodedString(),
                "\(String(describing: sent.header("X-Signed-Body")))")
    }
}
