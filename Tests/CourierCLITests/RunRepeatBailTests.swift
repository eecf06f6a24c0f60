import CourierTestSupport
import Foundation
import Synchronization
import Testing

/// `courier run --repeat`, `--delay`, `--bail`, `--test-only`, and the exit codes that tell a failed request
/// from bad input.
@Suite struct RunRepeatBailTests {
    @Test("--repeat 3 sends every request three times and a repeated JSON report numbers the rounds")
    func repeatRunsEverythingAgain() async throws {
        // Given a file of two requests
        let server = try LoopbackServer { _ in .json("{}") }
        defer { server.stop() }
        let folder = try TemporaryFolder("run-repeat")
        let file = try folder.write("t.http", "GET \(server.url("/a"))\n\n###\nGET \(server.url("/b"))\n")
        let report = folder.url.appendingPathComponent("r.json")

        // When it runs three times
        let result = try await CourierCLI.run(["run", file.path, "--repeat", "3", "--report", "json", report.path])

        // Then the server saw a, b three times in order, and the report numbers each round
        #expect(result.status == 0, "\(result.stderr)")
        #expect(server.requests.map(\.path) == ["/a", "/b", "/a", "/b", "/a", "/b"])
        #expect(result.stderr.contains("6 succeeded, 0 failed"), "\(result.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any]
        let rounds = (object?["requests"] as? [[String: Any]])?.map { $0["round"] as? Int }
        #expect(rounds == [1, 1, 2, 2, 3, 3])
    }

    @Test("--repeat 2 with --data of two rows runs every row twice: a, b, a, b")
    func repeatGoesThroughEveryDataRowEachRound() async throws {
        let server = try LoopbackServer { _ in .json("{}") }
        defer { server.stop() }
        let folder = try TemporaryFolder("run-repeat-data")
        let file = try folder.write("t.http", "GET \(server.url("/u"))?who={{who}}\n")
        let data = try folder.write("rows.csv", "who\nada\nbob\n")

        let result = try await CourierCLI.run(["run", file.path, "--data", data.path, "--repeat", "2"])

        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(server.requests.map(\.query) == ["who=ada", "who=bob", "who=ada", "who=bob"])
        #expect(result.stdout.contains("==> round 2 of 2 <==\n\n==> iteration 1 of 2 <=="), "\(result.stdout)")
    }

    @Test("--delay 300 leaves at least 300 ms between one request's answer and the next request")
    func delaySpacesRequests() async throws {
        let arrivals = ArrivalClock()
        let server = try LoopbackServer { _ in arrivals.note(); return .json("{}") }
        defer { server.stop() }
        let folder = try TemporaryFolder("run-delay")
        let file = try folder.write("t.http", "GET \(server.url("/a"))\n\n###\nGET \(server.url("/b"))\n")

        let result = try await CourierCLI.run(["run", file.path, "--delay", "300"])

        #expect(result.status == 0, "\(result.stderr)")
        let times = arrivals.times
        #expect(times.count == 2)
        if times.count == 2 { #expect(times[1].timeIntervalSince(times[0]) >= 0.3) }
    }

    @Test("--bail stops at the first failed request, as --fail-fast does, and exits 1")
    func bailStopsAtTheFirstFailure() async throws {
        let server = try LoopbackServer { request in
            request.path == "/b" ? LoopbackServer.Reply(status: 500) : .json("{}")
        }
        defer { server.stop() }
        let folder = try TemporaryFolder("run-bail")
        let file = try folder.write("t.http", """
            GET \(server.url("/a"))

            ###
            GET \(server.url("/b"))

            ###
            GET \(server.url("/c"))
            """)

        let result = try await CourierCLI.run(["run", file.path, "--bail"])

        #expect(result.status == 1, "\(result.stderr)")
        #expect(server.requests.map(\.path).first == "/a" && !server.requests.map(\.path).contains("/c"))
        #expect(result.stderr.contains("1 succeeded, 1 failed, 1 not run"), "\(result.stderr)")
    }

    @Test("--test-only prints a line per request and per test, and no response")
    func testOnlyPrintsResultsNotResponses() async throws {
        let server = try LoopbackServer { _ in .json(#"{"secret-looking":"body text"}"#) }
        defer { server.stop() }
        let folder = try TemporaryFolder("run-test-only")
        let file = try folder.write("t.http", """
            # @name first
            GET \(server.url("/a"))

            > {%
                client.test("is 200", function () { client.assert(response.status === 200); });
                client.test("is 201", function () { client.assert(response.status === 201, "was 200"); });
            %}
            """)

        let result = try await CourierCLI.run(["run", file.path, "--test-only"])

        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("✗ first 200: ") == true, "\(result.stdout)")
        #expect(lines.dropFirst() == ["  ✓ is 200", "  ✗ is 201: was 200"], "\(result.stdout)")
        #expect(!result.stdout.contains("body text"))
    }

    @Test("--quiet --test-only prints only the requests that failed, with their tests")
    func quietTestOnlyPrintsOnlyFailures() async throws {
        let server = try LoopbackServer { request in
            request.path == "/bad" ? LoopbackServer.Reply(status: 404) : .json("{}")
        }
        defer { server.stop() }
        let folder = try TemporaryFolder("run-quiet-test-only")
        let file = try folder.write("t.http", """
            # @name good
            GET \(server.url("/good"))

            ###
            # @name bad
            GET \(server.url("/bad"))

            ###
            # @name fine
            GET \(server.url("/fine"))
            """)

        let result = try await CourierCLI.run(["run", file.path, "--quiet", "--test-only"])

        // Then all three were sent, and only the failed one is printed
        #expect(result.status == 1)
        #expect(server.requests.map(\.path) == ["/good", "/bad", "/fine"])
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 1 && lines.first?.hasPrefix("✗ bad 404: ") == true, "\(result.stdout)")
        #expect(result.stderr.contains("2 succeeded, 1 failed"), "\(result.stderr)")
    }

    @Test("--jobs runs the requests of a round at once, but rounds of --repeat one after another, as the help says")
    func jobsDoNotOverlapRounds() async throws {
        let server = try LoopbackServer { _ in .json("{}") }
        defer { server.stop() }
        let folder = try TemporaryFolder("run-jobs-rounds")
        let file = try folder.write("t.http", """
            GET \(server.url("/a"))

            ###
            GET \(server.url("/b"))

            ###
            GET \(server.url("/c"))
            """)

        let result = try await CourierCLI.run(["run", file.path, "--jobs", "3", "--repeat", "2", "--quiet"])
        let help = try await CourierCLI.run(["run", "--help"])

        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let paths = server.requests.map(\.path)
        #expect(paths.count == 6)
        #expect(Set(paths.prefix(3)) == ["/a", "/b", "/c"] && Set(paths.dropFirst(3)) == ["/a", "/b", "/c"])
        let words = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("Rounds of --repeat and --data rows do not overlap: each starts from the named "
                               + "responses and globals the one before left"), "\(help.stdout)")
    }

    @Test("a request that cannot be built exits 3 (bad input), a failed status 1; the help lists the codes")
    func exitCodesTellBadInputFromFailure() async throws {
        let server = try LoopbackServer { _ in LoopbackServer.Reply(status: 404) }
        defer { server.stop() }
        let folder = try TemporaryFolder("run-exit-codes")
        let unknown = try folder.write("u.http", "GET \(server.url("/a"))?q={{nowhere}}\n")
        let missing = try folder.write("m.http", "GET \(server.url("/a"))\n")

        let badInput = try await CourierCLI.run(["run", unknown.path])
        let failed = try await CourierCLI.run(["run", missing.path])
        let help = try await CourierCLI.run(["run", "--help"])

        #expect(badInput.status == 3, "\(badInput.stdout)\(badInput.stderr)")
        #expect(failed.status == 1, "\(failed.stdout)\(failed.stderr)")
        #expect(help.stdout.contains("\n  3   bad input"), "\(help.stdout)")
    }
}

/// When each request reached the server.
final class ArrivalClock: Sendable {
    private let record = Mutex<[Date]>([])
    func note() { record.withLock { $0.append(Date()) } }
    var times: [Date] { record.withLock { $0 } }
}
