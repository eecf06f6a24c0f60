import CourierTestSupport
import Foundation
import Testing

/// A private environment file kept encrypted in the repository (git-crypt) or otherwise not JSON: a warning
/// naming it, the requests that need none of its values sent, the others failing as unknown variables that
/// say which file could not be read.
@Suite("An unreadable private environment file")
struct UnreadablePrivateEnvironmentTests {
    @Test func anEncryptedPrivateFileIsAWarningAndRequestsWithoutItsValuesStillRun() async throws {
        // Given a public environment and a private file as git-crypt leaves it before 'git-crypt unlock'
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        try folder.write("http-client.env.json", "{\"dev\": {\"base\": \"\(server.base)\"}}")
        var encrypted = Data("\0GITCRYPT\0".utf8)
        encrypted.append(contentsOf: (0..<64).map { UInt8(($0 * 37 + 11) % 256) })
        try encrypted.write(to: folder.url.appendingPathComponent("http-client.private.env.json"))
        try folder.write("api.http", """
            ### open
            GET {{base}}/open

            ### secret
            GET {{base}}/secret
            Authorization: Bearer {{apiToken}}
            """)
        // When the file runs
        let run = try await CourierCLI.run(["run", "api.http", "--all", "--env", "dev"], in: folder.url)
        // Then the open request went, the other failed naming the variable and the unread file
        // (3: a request could not be built from the file)
        #expect(run.status == 3, "\(run.stdout)\(run.stderr)")
        #expect(server.requests.map(\.target) == ["/open"])
        #expect(run.stderr.contains("http-client.private.env.json:1: warning: not read: it is encrypted with "
                                    + "git-crypt (run 'git-crypt unlock')"), "\(run.stderr)")
        let output = run.stdout + run.stderr
        #expect(output.contains("unknown variable 'apiToken'"), "\(output)")
        #expect(output.contains("http-client.private.env.json was not read: it is encrypted with git-crypt"),
                "\(output)")
        // And courier check says the same, without stopping
        let check = try await CourierCLI.run(["check", "api.http", "--env", "dev"], in: folder.url)
        #expect(check.status == 1, "\(check.stdout)")
        #expect(check.stdout.contains("warning: not read: it is encrypted with git-crypt"), "\(check.stdout)")
        #expect(check.stdout.contains("unknown variable 'apiToken'"), "\(check.stdout)")
    }

    @Test func aPrivateFileThatIsNotJSONIsAWarningNamingIt() async throws {
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        try folder.write("http-client.private.env.json", "dev:\n  token: abc\n")
        try folder.write("api.http", "GET \(server.base)/plain\n")
        let run = try await CourierCLI.run(["run", "api.http", "--all"], in: folder.url)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(server.requests.map(\.target) == ["/plain"])
        #expect(run.stderr.contains("http-client.private.env.json:1: warning: not read: it is not JSON"), "\(run.stderr)")
    }

    @Test func aPublicFileThatIsNotJSONStillStopsTheRun() async throws {
        let folder = try TemporaryFolder()
        try folder.write("http-client.env.json", "dev:\n  base: x\n")
        try folder.write("api.http", "GET http://127.0.0.1:9/x\n")
        let run = try await CourierCLI.run(["run", "api.http", "--all"], in: folder.url)
        #expect(run.status == 2, "\(run.stdout)\(run.stderr)")
        #expect(run.stderr.contains("http-client.env.json: not valid JSON"), "\(run.stderr)")
    }
}
