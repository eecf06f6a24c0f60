import CourierDemo
import CourierTestSupport
import Foundation
import Testing

/// Every duration `courier send` prints reads the same as the explorer's: `873 µs`, `12 ms`, `1.34 s`, never
/// `1201.3 ms` beside `1.34 s`.
@Suite("One duration format in the CLI")
struct DurationWordingTests {
    /// A duration as `DurationText` writes it, whole in a line.
    static let duration = #"(\d{1,3} µs|\d\.\d ms|\d{2,3} ms|\d{1,2}\.\d\d s|\d+ min \d\d s)"#

    @Test func attemptLinesTheTimingBreakdownAndTheVerboseLogUseOneFormat() async throws {
        // Given a server that answers after 1.2 s
        let server = try DemoServer.start()
        defer { server.stop() }

        // When courier sends to it with --timing and -v
        let result = try await CourierCLI.run(["send", "-v", "--timing", server.baseURL.absoluteString + "/slow?ms=1200"])

        // Then the attempt line, the total and the log line give the time in seconds, not as 1201.3 ms
        let lines = result.stdout.components(separatedBy: "\n")
        let attempt = try #require(lines.first { $0.hasPrefix("attempt 1") }, "\(result.stdout)")
        #expect(attempt.wholeMatch(of: try Regex(#"attempt 1  200  1\.\d\d s"#)) != nil, "\(attempt)")
        let total = try #require(lines.first { $0.hasPrefix("Total") })
        #expect(total.wholeMatch(of: try Regex(#"Total\s+1\.\d\d s"#)) != nil, "\(total)")
        for line in lines where line.hasPrefix("DNS lookup") || line.hasPrefix("TCP connect") {
            #expect(line.wholeMatch(of: try Regex(#"[A-Za-z ]+\s+(-|"# + Self.duration + ")")) != nil, "\(line)")
        }
        let finished = try #require(result.stderr.components(separatedBy: "\n").first { $0.contains("← 200") },
                                    "\(result.stderr)")
        #expect(finished.contains(try Regex(#"attempt 1 1\.\d\d s"#)), "\(finished)")
        #expect(!result.stdout.contains(try Regex(#"\d{4}\.\d ms"#)))
    }
}
