import CourierTestSupport
import Foundation
import Testing

/// Rows of the Compatibility matrix Courier does not support are errors at their line, never a request
/// sent without what it asked for; and httpyac's digest conditions, which it does support.
@Suite("Dialect rules Courier refuses, and digest tests")
struct DialectLimitsRunTests {
    @Test func unsupportedVariablesAreErrorsAtTheirLineAndNothingIsSent() async throws {
        // Given REST Client's $aadToken, JetBrains' $auth.token naming no Security.Auth configuration, and a
        // JetBrains streaming handler
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let result = try await CompatibilityMatrixTests.run("""
            GET BASE/aad?t={{$aadToken}}

            ###
            GET BASE/auth?t={{$auth.token("sso")}}

            ###
            GET BASE/lines

            > {% response.body.onEachLine((line) => client.log(line)); %}
            """, in: folder, server: server)
        // Then neither of the first two is sent, each error names its line; the handler fails at its line
        #expect(result.status == 1)
        #expect(server.requests.map(\.target) == ["/lines"])
        #expect(result.stderr.contains("api.http:1: bad dynamic variable '{{$aadToken}}'"), "\(result.stderr)")
        #expect(result.stderr.contains("api.http:4: bad dynamic variable '{{$auth.token(\"sso\")}}'"), "\(result.stderr)")
        #expect(result.stderr.contains("no Security.Auth configuration 'sso'"), "\(result.stderr)")
        #expect(result.stdout.contains("api.http:9:") || result.stderr.contains("api.http:9:"),
                "\(result.stdout)\(result.stderr)")
    }

    @Test func httpyacDigestConditionsCompareTheBase64DigestOfTheBody() async throws {
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let result = try await CompatibilityMatrixTests.run("""
            GET BASE/hashes
            ?? body sha256 JYdvUIB+ggdu4FUyf0AP/8YcRJymaAjL/LiHBa2jQAs=
            ?? body md5 vEKto90ZB/4v257MBFqqcQ==
            ?? body sha512 xr852rZ7PF/VM+/llf+g/5CWWxUNchq5/2G0toNfQMFcxbcqHjQVsIDtMgbqdNqNlp8I9F7UKEQGsIEh8esN1A==
            ?? body md5 wrong
            """, in: folder, server: server)
        #expect(result.status == 1)
        #expect(result.stdout.contains("✓ body sha256 JYdvUIB"), "\(result.stdout)")
        #expect(result.stdout.contains("✓ body md5 vEKto90Z"), "\(result.stdout)")
        #expect(result.stdout.contains("✓ body sha512 xr852rZ7"), "\(result.stdout)")
        #expect(result.stdout.contains("✗ body md5 wrong"), "\(result.stdout)")
    }
}
