import CourierTestSupport
import Foundation
import Testing

/// `courier send --aws-sigv4 aws:amz:REGION:SERVICE --user KEY:SECRET`, checked by a server that verifies the
/// signature with botocore, AWS's own signer (`Tests/Servers/sigv4_verifier.py`): an unsorted query, a body,
/// a path that needs encoding and a session token; a wrong secret is refused; no secret is printed.
@Suite struct AWSSigV4SendTests {
    static let secret = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"
    static let token = "FQoGZXIvYXdzEXAMPLEsessionTOKEN/with+slashes=="

    static func verifier(token: String? = nil) async throws -> PythonServer {
        var environment = ["AWS_ACCESS_KEY_ID": "AKIDEXAMPLE", "AWS_SECRET_ACCESS_KEY": secret,
                           "SIGV4_REGION": "eu-west-1", "SIGV4_SERVICE": "execute-api"]
        environment["AWS_SESSION_TOKEN"] = token
        return try await PythonServer("sigv4_verifier", environment: environment)
    }

    @Test func aSignedRequestWithAnUnsortedQueryAndABodyIsVerifiedByBotocore() async throws {
        if let missing = try await PythonServer.missing(["botocore"]) { Issue.record("\(missing)"); return }
        // Given a server that checks signatures with botocore
        let server = try await Self.verifier()
        defer { server.stop() }
        // When courier sends a POST with a query out of order, a path with a space and a JSON body
        let result = try await CourierCLI.run([
            "send", "POST", server.base + "/prod/items/a%20b?b=2&a=1&a=0&empty=", "--json-body",
            "-d", #"{"name": "widget"}"#, "-H", "X-Custom:   spaced    value ",
            "--aws-sigv4", "aws:amz:eu-west-1:execute-api", "--user", "AKIDEXAMPLE:\(Self.secret)", "--json",
        ])
        // Then botocore computes the same signature, and the secret key is printed nowhere
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let json = try CourierCLI.json(result.stdout)
        let body = try JSONSerialization.jsonObject(with: Data((json["body"] as? String ?? "").utf8)) as? [String: Any]
        #expect(body?["verified"] as? Bool == true, "\(result.stdout)")
        #expect((body?["canonical"] as? String)?.contains("\na=0&a=1&b=2&empty=\n") == true, "\(result.stdout)")
        #expect(!(result.stdout + result.stderr).contains(Self.secret))
        #expect(!(result.stdout + result.stderr).contains("Signature="), "the signature is masked with its header")
    }

    @Test func aSessionTokenIsSentAndSigned() async throws {
        if let missing = try await PythonServer.missing(["botocore"]) { Issue.record("\(missing)"); return }
        // Given temporary credentials, whose session token the server requires signed
        let server = try await Self.verifier(token: Self.token)
        defer { server.stop() }
        // When courier sends with the token as curl takes it, in a header
        let result = try await CourierCLI.run([
            "send", server.base + "/prod/me", "--aws-sigv4", "aws:amz:eu-west-1:execute-api",
            "--user", "AKIDEXAMPLE:\(Self.secret)", "-H", "X-Amz-Security-Token: \(Self.token)", "-v",
        ])
        // Then it is verified, and neither the token nor the secret is shown
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("\"verified\": true"), "\(result.stdout)")
        #expect(!(result.stdout + result.stderr).contains(Self.token))
        #expect(!(result.stdout + result.stderr).contains(Self.secret))
    }

    @Test func aWrongSecretIsRefusedByTheServer() async throws {
        if let missing = try await PythonServer.missing(["botocore"]) { Issue.record("\(missing)"); return }
        let server = try await Self.verifier()
        defer { server.stop() }
        let result = try await CourierCLI.run([
            "send", server.base + "/prod/me", "--aws-sigv4", "aws:amz:eu-west-1:execute-api",
            "--user", "AKIDEXAMPLE:not-the-secret",
        ])
        #expect(result.status == 1)
        #expect(result.stdout.contains("the signature does not match botocore's"), "\(result.stdout)")
    }

    @Test func aRegionlessSpellingOrAMissingKeyIsAUsageError() async throws {
        let short = try await CourierCLI.run(["send", "http://127.0.0.1:9/", "--aws-sigv4", "aws:amz", "--user", "a:b"])
        #expect(short.status == 2)
        #expect(short.stderr.contains("--aws-sigv4 takes aws:amz:REGION:SERVICE"), "\(short.stderr)")
        let keyless = try await CourierCLI.run(["send", "http://127.0.0.1:9/", "--aws-sigv4", "aws:amz:us-east-1:s3"])
        #expect(keyless.status == 2)
        #expect(keyless.stderr.contains("--aws-sigv4 needs --user ACCESS_KEY:SECRET_KEY"), "\(keyless.stderr)")
    }
}
