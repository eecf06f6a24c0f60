import CourierTestSupport
import Foundation
import Testing

/// Postman `auth` objects imported with `courier import postman` and run with `courier run`: Digest and NTLM
/// answer their server's challenge, OAuth 2.0 client credentials get a token from the token endpoint, and
/// AWS Signature V4 signs the request.
@Suite struct PostmanAuthImportTests {
    static func collection(_ items: String, base: String) -> String {
        """
        {"info": {"name": "Auth", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
         "variable": [{"key": "base", "value": "\(base)"}],
         "item": [\(items)]}
        """
    }

    static func importAndRun(_ json: String, in folder: TemporaryFolder) async throws -> (ChildResult, String) {
        try folder.write("auth.postman_collection.json", json)
        let imported = try await CourierCLI.run(["import", "postman", "auth.postman_collection.json", "-o", "out"],
                                                in: folder.url)
        #expect(imported.status == 0, "\(imported.stdout)\(imported.stderr)")
        #expect(!imported.stdout.contains("auth not converted"), "\(imported.stdout)")
        let file = try #require(try FileManager.default.contentsOfDirectory(atPath: folder.url.appendingPathComponent("out").path)
            .first { $0.hasSuffix(".http") })
        let run = try await CourierCLI.run(["run", "out/\(file)"], in: folder.url,
                                           environment: ["XDG_STATE_HOME": folder.url.appendingPathComponent("state").path])
        return (run, try folder.read("out/\(file)"))
    }

    @Test func digestAndNTLMAnswerTheirChallenges() async throws {
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder("postman-auth")
        let (run, text) = try await Self.importAndRun(Self.collection("""
            {"name": "digest", "request": {"method": "GET", "url": "{{base}}/digest/a", "auth": {"type": "digest",
              "digest": [{"key": "username", "value": "ada"}, {"key": "password", "value": "pm-secret-1"}]}}},
            {"name": "ntlm", "request": {"method": "GET", "url": "{{base}}/ntlm/b", "auth": {"type": "ntlm",
              "ntlm": [{"key": "username", "value": "ada"}, {"key": "password", "value": "pm-secret-2"},
                       {"key": "domain", "value": "CORP"}]}}}
            """, base: server.base), in: folder)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)\n\(text)")
        let digest = server.requests.filter { $0.target == "/digest/a" }.compactMap { $0.header("Authorization") }
        #expect(digest.count == 1 && digest[0].hasPrefix("Digest username=\"ada\""), "\(digest)")
        let ntlm = server.requests.filter { $0.target == "/ntlm/b" }.compactMap { $0.header("Authorization") }
        #expect(ntlm.count == 2 && ntlm[1].hasPrefix("NTLM TlRMTVNTUAAD"), "\(ntlm)")
        #expect(!(run.stdout + run.stderr).contains("pm-secret"))
    }

    @Test func oauth2ClientCredentialsAndAWSv4SignIn() async throws {
        let server = try LoopbackServer { request in
            request.path == "/token" ? .json(#"{"access_token": "pm-token-3333", "expires_in": 600}"#) : .json("{}")
        }
        defer { server.stop() }
        let folder = try TemporaryFolder("postman-oauth")
        let (run, text) = try await Self.importAndRun(Self.collection("""
            {"name": "oauth", "request": {"method": "GET", "url": "{{base}}/api/me", "auth": {"type": "oauth2",
              "oauth2": [{"key": "grant_type", "value": "client_credentials"},
                         {"key": "accessTokenUrl", "value": "{{base}}/token"},
                         {"key": "clientId", "value": "pm-client"}, {"key": "clientSecret", "value": "pm-secret-4"}]}}},
            {"name": "aws", "request": {"method": "GET", "url": "{{base}}/api/aws", "auth": {"type": "awsv4",
              "awsv4": [{"key": "accessKey", "value": "AKIDEXAMPLE"}, {"key": "secretKey", "value": "pm-secret-5"},
                        {"key": "region", "value": "eu-west-1"}, {"key": "service", "value": "execute-api"}]}}}
            """, base: server.baseURL.absoluteString), in: folder)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)\n\(text)")
        let me = try #require(server.requests.first { $0.path == "/api/me" })
        #expect((me.headers["Authorization"] ?? me.headers["authorization"]) == "Bearer pm-token-3333")
        let aws = try #require(server.requests.first { $0.path == "/api/aws" })
        let signature = aws.headers["Authorization"] ?? aws.headers["authorization"] ?? ""
        #expect(signature.hasPrefix("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/") && signature.contains("/eu-west-1/execute-api/"),
                "\(signature)")
        #expect(!(run.stdout + run.stderr).contains("pm-secret") && !(run.stdout + run.stderr).contains("pm-token-3333"))
    }

    @Test func anItemWhoseAuthSaysInheritSendsItsParentsAuth() async throws {
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder("postman-inherit")
        // A folder and a request that say `inherit` (as Postman writes them), under a collection's bearer token,
        // and a v2.0 bearer object beside them
        let (run, text) = try await Self.importAndRun("""
            {"info": {"name": "Auth", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
             "auth": {"type": "bearer", "bearer": [{"key": "token", "value": "coll-token"}]},
             "item": [{"name": "Folder", "auth": {"type": "inherit"}, "item": [
               {"name": "inherits", "request": {"method": "GET", "url": "\(server.base)/a", "auth": {"type": "inherit"}}},
               {"name": "none", "request": {"method": "GET", "url": "\(server.base)/b", "auth": {"type": "noauth"}}},
               {"name": "v20", "request": {"method": "GET", "url": "\(server.base)/c",
                                           "auth": {"type": "bearer", "bearer": {"token": "v20-token"}}}}]}]}
            """, in: folder)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)\n\(text)")
        let sent = server.requests.map { "\($0.target) \($0.header("Authorization") ?? "-")" }
        #expect(sent == ["/a Bearer coll-token", "/b -", "/c Bearer v20-token"])
    }
}
