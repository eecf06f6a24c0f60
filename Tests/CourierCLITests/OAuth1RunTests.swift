import CourierTestSupport
import Foundation
import Testing

/// OAuth 1.0a (RFC 5849): `Authorization: OAuth1 KEY SECRET token:T tokenSecret:S` in a `.http` file, and a
/// Postman `oauth1` auth imported, signed when sent and checked by a server that verifies the signature with
/// Authlib's own code (`Tests/Servers/oauth1_verifier.py`, section 3.4): a query, a form body, each method.
@Suite struct OAuth1RunTests {
    static let consumerSecret = "kd94hf93k423kf44"
    static let tokenSecret = "pfkkdhi9sl3r4s00"

    static func verifier() async throws -> PythonServer {
        try await PythonServer("oauth1_verifier", environment: [
            "OAUTH1_CONSUMER_KEY": "dpf43f3p2l4k3l03", "OAUTH1_CONSUMER_SECRET": consumerSecret,
            "OAUTH1_TOKEN_SECRET": tokenSecret,
        ])
    }

    @Test func eachMethodSignsAQueryAndAFormBodyAsTheRFCSays() async throws {
        if let missing = try await PythonServer.missing(["authlib"]) { Issue.record("\(missing)"); return }
        // Given a server that checks signatures with Authlib, and requests signed with each method
        let server = try await Self.verifier()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        try folder.write("http-client.private.env.json", """
            {"dev": {"consumerSecret": "\(Self.consumerSecret)", "tokenSecret": "\(Self.tokenSecret)"}}
            """)
        try folder.write("api.http", """
            @auth = OAuth1 dpf43f3p2l4k3l03 {{consumerSecret}} token:nnch734d00sl2jdk tokenSecret:{{tokenSecret}}
            ### sha1
            GET \(server.base)/photos?size=original&file=vacation%20pic.jpg&b5=%3D%253D&a3=a&c%40=
            Authorization: {{auth}} realm:Photos

            ### sha256
            POST \(server.base)/request?b5=%3D%253D&a3=a
            Authorization: {{auth}} method:HMAC-SHA256
            Content-Type: application/x-www-form-urlencoded

            c2=&a3=2+q&name=Ada Lovelace

            ### plaintext
            # @max-attempts 1
            DELETE \(server.base)/photos/1
            Authorization: {{auth}} method:PLAINTEXT
            """)
        // When they run
        let run = try await CourierCLI.run(["run", "api.http", "--all", "--env", "dev", "--json"], in: folder.url)
        // Then the server verified each signature, and no secret is printed
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.components(separatedBy: #"\"verified\":true"#).count - 1 == 3
                    || run.stdout.components(separatedBy: #"\"verified\": true"#).count - 1 == 3, "\(run.stdout)")
        for secret in [Self.consumerSecret, Self.tokenSecret] {
            #expect(!(run.stdout + run.stderr).contains(secret), "\(secret) printed")
        }
    }

    @Test func aWrongSecretIsRefusedAndABadOptionIsAnErrorAtTheRequest() async throws {
        if let missing = try await PythonServer.missing(["authlib"]) { Issue.record("\(missing)"); return }
        let server = try await Self.verifier()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        try folder.write("api.http", """
            ### wrong
            # @max-attempts 1
            GET \(server.base)/x
            Authorization: OAuth1 dpf43f3p2l4k3l03 not-the-secret token:nnch734d00sl2jdk tokenSecret:\(Self.tokenSecret)

            ### rsa
            GET \(server.base)/y
            Authorization: OAuth1 dpf43f3p2l4k3l03 s method:RSA-SHA1
            """)
        let run = try await CourierCLI.run(["run", "api.http", "--all"], in: folder.url)
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("401"), "\(run.stdout)")
        #expect((run.stdout + run.stderr).contains("OAuth 1.0a's method 'RSA-SHA1' is not one Courier signs with"),
                "\(run.stdout)\(run.stderr)")
    }

    @Test func aPostmanOAuth1AuthIsImportedWithItsSecretsPrivateAndVerifiesWhenRun() async throws {
        if let missing = try await PythonServer.missing(["authlib"]) { Issue.record("\(missing)"); return }
        // Given a Postman collection whose request signs with OAuth 1.0a, and one with a Hawk auth
        let server = try await Self.verifier()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        func auth(_ type: String, _ fields: [(String, String)]) -> String {
            let entries = fields.map { #"{"key": "\#($0.0)", "value": "\#($0.1)", "type": "string"}"# }
            return #"{"type": "\#(type)", "\#(type)": [\#(entries.joined(separator: ", "))]}"#
        }
        let oauth1 = auth("oauth1", [("consumerKey", "dpf43f3p2l4k3l03"), ("consumerSecret", Self.consumerSecret),
                                     ("token", "nnch734d00sl2jdk"), ("tokenSecret", Self.tokenSecret),
                                     ("signatureMethod", "HMAC-SHA256"), ("addParamsToHeader", "true")])
        let hawk = auth("hawk", [("authId", "id"), ("authKey", "key")])
        try folder.write("shop.json", """
            {"info": {"name": "Shop", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
             "item": [
               {"name": "Signed", "request": {"method": "GET", "url": "\(server.base)/signed?q=1", "auth": \(oauth1)}},
               {"name": "Hawk", "request": {"method": "GET", "url": "\(server.base)/hawk", "auth": \(hawk)}}
             ]}
            """)
        // When it is imported and the signed request runs
        let imported = try await CourierCLI.run(["import", "postman", "shop.json", "-o", "out"], in: folder.url)
        #expect(imported.status == 0, "\(imported.stdout)\(imported.stderr)")
        let written = try folder.read("out/Shop.http")
        #expect(written.contains("Authorization: OAuth1 dpf43f3p2l4k3l03 {{oauth1-consumer-secret}}"), "\(written)")
        #expect(!written.contains(Self.consumerSecret) && !written.contains(Self.tokenSecret), "\(written)")
        #expect(imported.stderr.contains("Hawk: hawk auth not converted: the request goes without it; compute the Hawk"),
                "\(imported.stderr)")
        let run = try await CourierCLI.run(["run", "out/Shop.http", "--name", "Signed"], in: folder.url)
        // Then the server verified it
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("\"verified\": true"), "\(run.stdout)")
        // And exported back to Postman, it is an oauth1 auth again, its secrets still variables
        let exported = try await CourierCLI.run(["export", "postman", "out/Shop.http", "-o", "back.json"], in: folder.url)
        #expect(exported.status == 0, "\(exported.stdout)\(exported.stderr)")
        let back = try folder.read("back.json")
        #expect(back.contains(#""type": "oauth1""#) || back.contains(#""type":"oauth1""#), "\(back)")
        #expect(back.contains("{{oauth1-consumer-secret}}") && back.contains("HMAC-SHA256"), "\(back)")
        #expect(!back.contains(Self.consumerSecret), "\(back)")
    }
}
