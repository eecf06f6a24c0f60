import CourierTestSupport
import Foundation
import Testing

/// Committed environment files often declare names with `null` for each user to fill in their private file.
@Suite("A null in an environment file")
struct NullEnvironmentValueTests {
    @Test func aNullIsNotSentAsTheWordNullAndThePrivateFileFillsIt() async throws {
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        try folder.write("bugs.http", "### bugs\nGET {{host}}/bugs\nX-Bug: {{bugId}}\n")
        try folder.write("http-client.env.json", #"{"local": {"host": null, "bugId": null}}"#)
        // When run with the placeholders unfilled, nothing is sent and the error names the variable and line
        let unfilled = try await CourierCLI.run(["run", "bugs.http", "--env", "local"], in: folder.url)
        #expect(unfilled.status != 0)
        #expect(unfilled.stderr.contains("bugs.http:2: unknown variable 'host'"), "\(unfilled.stderr)")
        #expect(!unfilled.stderr.contains("cannot resolve null"), "\(unfilled.stderr)")
        #expect(server.requests.isEmpty)
        // When the private file fills the host, that is where the request goes
        try folder.write("http-client.private.env.json", #"{"local": {"host": "\#(server.base)", "bugId": "7"}}"#)
        let filled = try await CourierCLI.run(["run", "bugs.http", "--env", "local"], in: folder.url)
        #expect(filled.status == 0, "\(filled.stderr)")
        #expect(server.requests.first?.path == "/bugs")
        #expect(server.requests.first?.header("X-Bug") == "7")
    }
}
