import CourierTestSupport
import Foundation
import Testing

/// A private value that is also part of a file's path (`/labels` and `api/labels-list.http`) is masked in what a
/// message says, never in the path the message names: `apiREDACTED-list.http:3` names no file.
@Suite struct MaskedPathMessageTests {
    static func project() throws -> TemporaryFolder {
        let folder = try TemporaryFolder("masked-path")
        try folder.write("api/http-client.env.json", #"{"dev": {"base": "http://127.0.0.1:9"}}"#)
        try folder.write("api/http-client.private.env.json", #"{"dev": {"segment": "/labels"}}"#)
        try folder.write("api/labels-list.http", """
            # @name list
            GET {{base}}{{segment}}?page={{missing}}
            """)
        return folder
    }

    @Test func checkNamesTheFileWholeAndStillMasksTheValue() async throws {
        // Given a request whose file path holds a private value, and a variable nothing defines
        let folder = try Self.project()
        // When it is checked
        let result = try await CourierCLI.run(["check", "api/labels-list.http", "--env", "dev"], in: folder.url)
        // Then the message names the file as it is, and the value is masked where the message shows it
        let text = result.stdout + result.stderr
        #expect(result.status != 0)
        #expect(text.contains("api/labels-list.http:2"), "\(text)")
        #expect(!text.contains("apiREDACTED"), "\(text)")
        #expect(text.contains("missing"))
    }

    @Test func runNamesTheFileWholeInItsError() async throws {
        // Given the same request
        let folder = try Self.project()
        // When it runs
        let result = try await CourierCLI.run(["run", "api/labels-list.http", "--env", "dev"], in: folder.url)
        // Then its error names the file as it is
        #expect(result.status != 0)
        #expect(result.stderr.contains("labels-list.http:2"), "\(result.stderr)")
        #expect(!result.stderr.contains("apiREDACTED") && !result.stderr.contains("REDACTED-list"), "\(result.stderr)")
    }

    @Test func runJSONNamesTheFileWholeInItsErrorMemberAndStillMasksTheValue() async throws {
        // Given the same request, and a folder run (whose objects carry a "file" member too)
        let folder = try Self.project()
        // When it runs with --json, on the file and on its folder
        let one = try await CourierCLI.run(["run", "api/labels-list.http", "--env", "dev", "--json"], in: folder.url)
        let all = try await CourierCLI.run(["run", "api", "--all", "--env", "dev", "--json"], in: folder.url)
        // Then the error member names the file as it is, and no value leaks
        for result in [one, all] {
            #expect(result.status != 0)
            #expect(result.stdout.contains("labels-list.http:2"), "\(result.stdout)")
            #expect(!result.stdout.contains("apiREDACTED") && !result.stdout.contains("REDACTED-list"), "\(result.stdout)")
        }
    }
}
