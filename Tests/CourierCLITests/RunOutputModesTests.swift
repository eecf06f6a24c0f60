import CourierDemo
import CourierTestSupport
import Foundation
import Testing

/// What `courier run` prints: bodies cut past 64 KB unless `--full-bodies`, `--quiet` for the failures only,
/// `--summary` for one line per request.
@Suite("courier run output modes")
struct RunOutputModesTests {
    /// A file of a small request, a 1 MB body and a 404 the file does not expect.
    static func collection(_ server: DemoServer) throws -> TemporaryFolder {
        let folder = try TemporaryFolder("run-output-modes")
        let base = server.baseURL.absoluteString
        try folder.write("api.http", """
            # @name small
            GET \(base)/users/1

            ###
            # @name big
            GET \(base)/large?mb=1

            ###
            # @name missing
            GET \(base)/users/999999
            """)
        return folder
    }

    @Test func aLargeBodyIsCutWithANoteAndFullBodiesPrintsItWhole() async throws {
        // Given the demo server and the file
        let server = try DemoServer.start()
        defer { server.stop() }
        let folder = try Self.collection(server)

        // When it runs by default, and with --full-bodies
        let cut = try await CourierCLI.run(["run", "api.http", "--name", "big"], in: folder.url)
        let whole = try await CourierCLI.run(["run", "api.http", "--name", "big", "--full-bodies"], in: folder.url)

        // Then the default output stops after 64 KB and says how much more there was; --full-bodies has it all
        #expect(cut.status == 0)
        let note = try #require(cut.stdout.components(separatedBy: "\n").first { $0.hasSuffix("more; --full-bodies prints all") },
                                "\(cut.stdout.suffix(400))")
        #expect(note == "… 960.0 KB more; --full-bodies prints all")
        #expect(cut.stdout.utf8.count < 100_000, "\(cut.stdout.utf8.count) bytes")
        #expect(whole.stdout.utf8.count > 1_000_000)
        #expect(!whole.stdout.contains("--full-bodies prints all"))
    }

    @Test func quietPrintsOnlyTheFailedRequestAndTheSummary() async throws {
        // Given the demo server and the file
        let server = try DemoServer.start()
        defer { server.stop() }
        let folder = try Self.collection(server)

        // When it runs with --quiet
        let result = try await CourierCLI.run(["run", "api.http", "--quiet"], in: folder.url)

        // Then only the 404 is printed, and the summary counts all three
        #expect(result.status == 1)
        #expect(result.stdout.contains("### missing"), "\(result.stdout)")
        #expect(!result.stdout.contains("### small") && !result.stdout.contains("### big"))
        #expect(result.stderr.contains("2 succeeded, 1 failed"), "\(result.stderr)")
    }

    @Test func summaryPrintsOneLinePerRequest() async throws {
        // Given the demo server and the file
        let server = try DemoServer.start()
        defer { server.stop() }
        let folder = try Self.collection(server)

        // When it runs with --summary
        let result = try await CourierCLI.run(["run", "api.http", "--summary"], in: folder.url)

        // Then there is one line per request, marked, with status, name, time and size, and no body
        let lines = result.stdout.components(separatedBy: "\n").filter { !$0.isEmpty }
        #expect(lines.count == 3, "\(result.stdout)")
        #expect(lines.first?.wholeMatch(of: try Regex(#"✓ 200  small  .+  \d+ B"#)) != nil, "\(lines)")
        #expect(lines.dropFirst().first?.hasPrefix("✓ 200  big  ") == true)
        #expect(lines.dropFirst().first?.hasSuffix("  1.0 MB") == true, "\(lines)")
        #expect(lines.last?.hasPrefix("✗ 404  missing  ") == true, "\(lines)")
        #expect(lines.last?.hasSuffix("status 404") == true, "\(lines)")
        #expect(result.status == 1)
    }

    @Test func summaryAndQuietExcludeEachOther() async throws {
        let result = try await CourierCLI.run(["run", "x.http", "--summary", "--quiet"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("Error: --quiet and --summary exclude each other"))
    }
}
