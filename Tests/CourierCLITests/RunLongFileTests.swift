import CourierDemo
import CourierTestSupport
import Foundation
import Synchronization
import Testing

/// `courier run` over a long file: its memory does not grow with the requests it has printed, and its output,
/// written in batches when standard output is not a terminal, keeps its order with standard error's lines.
@Suite("courier run over a long file")
struct RunLongFileTests {
    /// A file of `count` unnamed GETs (no response is kept for a later request to use).
    static func requests(_ count: Int, base: String) -> String {
        (0..<count).map { _ in "###\nGET \(base)/users/1\n" }.joined(separator: "\n")
    }

    @Test func memoryStaysFlatOverThousandsOfRequests() async throws {
        // Given the demo server and files of 300 and of 3,000 requests
        let server = try DemoServer.start()
        defer { server.stop() }
        let folder = try TemporaryFolder("run-long-file")
        let base = server.baseURL.absoluteString
        try folder.write("short.http", Self.requests(300, base: base))
        try folder.write("long.http", Self.requests(3_000, base: base))

        // When each runs
        let (short, shortPeak) = try await CourierCLI.runSamplingPeakMemory(
            ["run", folder.url.appendingPathComponent("short.http").path, "--summary"])
        let (long, longPeak) = try await CourierCLI.runSamplingPeakMemory(
            ["run", folder.url.appendingPathComponent("long.http").path, "--summary"])

        // Then both succeed, and 2,700 more requests cost little more than their parsed lines: nothing is kept
        // of a response once printed (4.5 KB a request were, 12 MB here)
        #expect(short.status == 0, "\(short.stderr)")
        #expect(long.status == 0, "\(long.stderr)")
        #expect(long.stderr.contains("3000 succeeded, 0 failed"), "\(long.stderr)")
        let growth = longPeak - shortPeak
        #expect(growth < 6 << 20, "peak \(shortPeak >> 10) KB for 300 requests, \(longPeak >> 10) KB for 3,000")
    }

    @Test func namedResponsesThatNoRequestReadsAreNotKept() async throws {
        // Given the demo server and files of 2 and of 30 named requests for 2 MB bodies, none read by another,
        // and a file whose last request reads the first's response
        let server = try DemoServer.start()
        defer { server.stop() }
        let folder = try TemporaryFolder("run-named-unread")
        let base = server.baseURL.absoluteString
        func named(_ count: Int) -> String {
            (0..<count).map { "### r\($0)\nGET \(base)/large?bytes=2000000\n" }.joined(separator: "\n")
        }
        try folder.write("short.http", named(2))
        try folder.write("long.http", named(30))
        try folder.write("chained.http", named(3) + "\n### reads\nGET \(base)/users/1?first={{r0.response.status}}\n")

        // When each runs
        let (short, shortPeak) = try await CourierCLI.runSamplingPeakMemory(
            ["run", folder.url.appendingPathComponent("short.http").path, "--summary"])
        let (long, longPeak) = try await CourierCLI.runSamplingPeakMemory(
            ["run", folder.url.appendingPathComponent("long.http").path, "--summary"])
        let chained = try await CourierCLI.run(["run", folder.url.appendingPathComponent("chained.http").path,
                                                "--summary"])

        // Then 28 more responses of 2 MB cost no more memory (each was kept, its body copied: 56 MB), and a
        // response that is read is still there to read
        #expect(short.status == 0 && long.status == 0, "\(short.stderr)\(long.stderr)")
        let growth = longPeak - shortPeak
        #expect(growth < 20 << 20, "peak \(shortPeak >> 10) KB for 2 requests, \(longPeak >> 10) KB for 30")
        #expect(chained.status == 0 && chained.stderr.contains("4 succeeded, 0 failed"), "\(chained.stderr)")
    }

    @Test func inParallelOnlyTheRequestsInFlightHoldATaskAndACopyOfTheVariables() async throws {
        // Given the demo server and files of 300 and of 3,000 independent requests
        let server = try DemoServer.start()
        defer { server.stop() }
        let folder = try TemporaryFolder("run-long-jobs")
        let base = server.baseURL.absoluteString
        try folder.write("short.http", Self.requests(300, base: base))
        try folder.write("long.http", Self.requests(3_000, base: base))

        // When each runs eight at a time
        let (short, shortPeak) = try await CourierCLI.runSamplingPeakMemory(
            ["run", folder.url.appendingPathComponent("short.http").path, "--jobs", "8", "--quiet"])
        let (long, longPeak) = try await CourierCLI.runSamplingPeakMemory(
            ["run", folder.url.appendingPathComponent("long.http").path, "--jobs", "8", "--quiet"])

        // Then 2,700 more requests cost their outcomes (kept for a parallel run's reports), not a waiting task
        // each (a task was made for every ready request at once: 26 MB more here, 10 MB now)
        #expect(short.status == 0, "\(short.stderr)")
        #expect(long.status == 0 && long.stderr.contains("3000 succeeded, 0 failed"), "\(long.stderr)")
        let growth = longPeak - shortPeak
        #expect(growth < 18 << 20, "peak \(shortPeak >> 10) KB for 300 requests, \(longPeak >> 10) KB for 3,000")
    }

    @Test func batchedOutputKeepsItsOrderWithStandardError() async throws {
        // Given a file whose middle request cannot be built (its error goes to standard error)
        let server = try DemoServer.start()
        defer { server.stop() }
        let folder = try TemporaryFolder("run-output-order")
        let base = server.baseURL.absoluteString
        try folder.write("api.http", """
            # @name first
            GET \(base)/users/1

            ###
            # @name second
            GET \(base)/users/{{missing}}

            ###
            # @name third
            GET \(base)/users/2
            """)

        // When it runs with both streams into one file, as `courier run api.http > log 2>&1` does
        let result = try await ChildProcess.run(URL(fileURLWithPath: "/bin/sh"),
                                                ["-c", "\"$0\" run api.http > log.txt 2>&1", CourierCLI.executable.path],
                                                in: folder.url, environment: CourierCLI.baseEnvironment)

        // Then every line is there, in the order the requests ran, the summary last
        #expect(result.status == 3)
        let log = try String(contentsOf: folder.url.appendingPathComponent("log.txt"), encoding: .utf8)
        let marks = ["### first", "### second", "Error: ", "### third", "2 succeeded, 1 failed"]
        let places = marks.map { log.range(of: $0)?.lowerBound }
        #expect(places.allSatisfy { $0 != nil }, "\(log)")
        let found = places.compactMap { $0 }
        #expect(found == found.sorted(), "\(log)")
    }

    @Test func aReaderThatFallsBehindGetsEveryResponseInOrder() async throws {
        // Given 40 requests whose answers (12 KB of JSON each) come faster than a slow reader takes them
        let row = String(repeating: "\"field\": \"value\", ", count: 600)
        let server = try LoopbackServer { request in
            LoopbackServer.Reply.json("{\(row)\"path\": \"\(request.path)\"}")
        }
        defer { server.stop() }
        let folder = try TemporaryFolder("run-output-slow-reader")
        let requests = (0..<40).map { "### r\($0)\nGET \(server.url("/item/\($0)").absoluteString)\n" }
        try folder.write("api.http", requests.joined(separator: "\n"))

        // When the run's output goes through a pipe whose reader starts only after a second (the pipe's 64 KB
        // fill long before: the printing waits, and the requests with it)
        let result = try await ChildProcess.run(URL(fileURLWithPath: "/bin/sh"),
                                                ["-c", "\"$0\" run api.http 2>&1 | (sleep 1; cat > log.txt)",
                                                 CourierCLI.executable.path],
                                                in: folder.url, environment: CourierCLI.baseEnvironment)

        // Then every response is in the log whole, in the order the requests ran, the summary last
        #expect(result.status == 0)
        let log = try String(contentsOf: folder.url.appendingPathComponent("log.txt"), encoding: .utf8)
        let marks = (0..<40).map { "### r\($0)\n" } + ["40 succeeded, 0 failed"]
        let places = marks.map { log.range(of: $0)?.lowerBound }
        #expect(places.allSatisfy { $0 != nil }, "\(log.suffix(2000))")
        let found = places.compactMap { $0 }
        #expect(found == found.sorted())
        for index in 0..<40 { #expect(log.contains("\"path\": \"/item/\(index)\"")) }
        #expect(server.requestCount(path: "/item/39") == 1)
    }

    @Test func aRunConfinedToOneCorePrintsEveryResponseInOrder() async throws {
        // Given 700 requests, one in the middle failing, and a run confined to one core: there the output lane's
        // thread only takes turns with the sender, and the lane soon has the sender print on the spot, in turn
        let server = try LoopbackServer { request in
            request.path == "/item/350" ? LoopbackServer.Reply(status: 500, body: Data("broken".utf8))
                : LoopbackServer.Reply.json("{\"path\": \"\(request.path)\"}")
        }
        defer { server.stop() }
        let folder = try TemporaryFolder("run-output-one-core")
        let requests = (0..<700).map { "### r\($0)\nGET \(server.url("/item/\($0)").absoluteString)\n" }
        try folder.write("api.http", requests.joined(separator: "\n"))

        // When it runs on one core, and again on every core, both streams in one file each
        let confined = try await ChildProcess.run(URL(fileURLWithPath: "/bin/sh"),
                                                  ["-c", "taskset -c 0 \"$0\" run api.http > one.txt 2>&1",
                                                   CourierCLI.executable.path],
                                                  in: folder.url, environment: CourierCLI.baseEnvironment)
        let free = try await ChildProcess.run(URL(fileURLWithPath: "/bin/sh"),
                                              ["-c", "\"$0\" run api.http > all.txt 2>&1", CourierCLI.executable.path],
                                              in: folder.url, environment: CourierCLI.baseEnvironment)

        // Then every response is there, in the order the requests ran, the failure in its place, the summary
        // last, and the two runs printed the same but for times and dates
        #expect(confined.status == free.status)
        let log = try String(contentsOf: folder.url.appendingPathComponent("one.txt"), encoding: .utf8)
        let marks = (0..<700).map { "### r\($0)\n" } + ["699 succeeded, 1 failed"]
        let places = marks.map { log.range(of: $0)?.lowerBound }
        #expect(places.allSatisfy { $0 != nil }, "\(log.suffix(2000))")
        let found = places.compactMap { $0 }
        #expect(found == found.sorted())
        for index in [0, 349, 351, 699] { #expect(log.contains("\"path\": \"/item/\(index)\"")) }
        #expect(log.contains("broken"))
        let all = try String(contentsOf: folder.url.appendingPathComponent("all.txt"), encoding: .utf8)
        #expect(Self.withoutTimes(all) == Self.withoutTimes(log))
        #expect(server.requestCount(path: "/item/699") == 2)
    }

    /// `text` with what differs from one run to the next (times, dates) taken out.
    static func withoutTimes(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("attempt ") && !$0.hasPrefix("Date: ") }
            .joined(separator: "\n")
    }

    @Test func aResponseReachesTheLogWhileTheNextRequestIsStillAwaited() async throws {
        // Given a server whose second URL answers only when the test lets it
        let gate = DispatchSemaphore(value: 0)
        let server = try LoopbackServer { request in
            if request.path == "/slow" { _ = gate.wait(timeout: .now() + 120) }
            return LoopbackServer.Reply(body: Data("answer of \(request.path)".utf8))
        }
        defer { server.stop() }
        let folder = try TemporaryFolder("run-output-slow")
        try folder.write("api.http", """
            GET \(server.url("/fast").absoluteString)

            ###
            GET \(server.url("/slow").absoluteString)
            """)
        let log = folder.url.appendingPathComponent("log.txt")
        let seen = Mutex(false)

        // When it runs into a file, as `courier run api.http > log 2>&1` in CI does, and the second request waits
        let result = try await ChildProcess.run(URL(fileURLWithPath: "/bin/sh"),
                                                ["-c", "\"$0\" run api.http > log.txt 2>&1", CourierCLI.executable.path],
                                                in: folder.url, environment: CourierCLI.baseEnvironment) { _ in
            // (batches wait at most 50 ms; 20 s is for a loaded machine, and ends before a transfer with no byte
            // for 30 s times out and would flush the file anyway)
            let deadline = ContinuousClock.now + .seconds(20)
            while ContinuousClock.now < deadline {
                let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
                if text.contains("answer of /fast") {
                    seen.withLock { $0 = true }
                    break
                }
                try await Task.sleep(for: .milliseconds(50))
            }
            gate.signal()
        }

        // Then the first response was in the file while the second was still awaited, and the run ends whole
        #expect(seen.withLock { $0 })
        #expect(result.status == 0)
        let text = try String(contentsOf: log, encoding: .utf8)
        #expect(text.contains("answer of /fast") && text.contains("answer of /slow"))
    }
}
