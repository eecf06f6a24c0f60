import CourierTestSupport
import Foundation
import Testing

/// httpyac's sign-in headers through `courier run`: `Authorization: oauth2 client_credentials` configured by
/// `oauth2_*` variables, and `Authorization: AWS ID KEY region:R service:S` verified by botocore.
@Suite struct HttpyacSignInRunTests {
    @Test func oauth2ClientCredentialsFromVariablesGetsATokenAndSendsIt() async throws {
        // Given a token endpoint and a file configuring httpyac's oauth2 variables
        let server = try LoopbackServer { request in
            request.path == "/token" ? .json(#"{"access_token": "yac-token-1111", "expires_in": 600}"#)
                                     : .json(#"{"ok": true}"#)
        }
        defer { server.stop() }
        let base = server.baseURL.absoluteString
        let folder = try TemporaryFolder("httpyac-oauth")
        try folder.write("api.http", """
            @oauth2_tokenEndpoint = \(base)/token
            @oauth2_clientId = yac
            @oauth2_clientSecret = yac-secret-2222
            @oauth2_scope = read write

            GET \(base)/api/me
            Authorization: oauth2 client_credentials

            ###
            GET \(base)/api/again
            Authorization: oauth2
            """)
        // When it runs
        let result = try await CourierCLI.run(["run", "api.http"], in: folder.url,
                                              environment: ["XDG_STATE_HOME": folder.url.appendingPathComponent("state").path])
        // Then one token request carried the client's Basic credentials and the scope, and both requests the token
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let tokenRequests = server.requests.filter { $0.path == "/token" }
        #expect(tokenRequests.count == 1)
        #expect(String(decoding: tokenRequests.first?.body ?? Data(), as: UTF8.self)
                    == "grant_type=client_credentials&scope=read%20write")
        let sent = server.requests.filter { $0.path.hasPrefix("/api/") }.map { $0.headers["Authorization"] ?? $0.headers["authorization"] }
        #expect(sent == ["Bearer yac-token-1111", "Bearer yac-token-1111"], "\(sent)")
        #expect(!(result.stdout + result.stderr).contains("yac-token-1111"))
        #expect(!(result.stdout + result.stderr).contains("yac-secret-2222"))
    }

    @Test func theAWSHeaderSignsTheRequestAsBotocoreChecksIt() async throws {
        if let missing = try await PythonServer.missing(["botocore"]) { Issue.record("\(missing)"); return }
        let server = try await AWSSigV4SendTests.verifier()
        defer { server.stop() }
        let folder = try TemporaryFolder("httpyac-aws")
        try folder.write("api.http", """
            @accessId = AKIDEXAMPLE
            @accessKey = \(AWSSigV4SendTests.secret)

            POST \(server.base)/prod/items?z=1&a=2
            Authorization: AWS {{accessId}} {{accessKey}} region:eu-west-1 service:execute-api
            Content-Type: application/json

            {"name": "widget"}
            """)
        let result = try await CourierCLI.run(["run", "api.http"], in: folder.url)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("\"verified\": true"), "\(result.stdout)")
        #expect(!(result.stdout + result.stderr).contains(AWSSigV4SendTests.secret))
    }
}
