import CourierCollections
import CourierHTTP
import CourierSecurity
import Foundation
import Synchronization

/// `courier run`'s options for CI and repeated runs: reports, parallel requests, repeats, pacing, the
/// test-only output, and what the exit code says.
extension RunCommand {
    static let ciOptions: [OptionSpec] = [
        .flag("--bail", help: "Stop at the first request that fails (the same as --fail-fast)."),
        .option("--report", values: [ValueSpec("FORMAT", .choice(RunReport.Format.allCases.map(\.rawValue))),
                                     ValueSpec("FILE", .file)], repeatable: true,
                help: "Also write a report to FILE: JUnit XML or TAP 14 (a test case per request and per "
                    + "client.test / pm.test), versioned JSON, or one self-contained HTML page (failures first, "
                    + "a timing waterfall, the tests)."),
        .option("--jobs", short: "j", "N", .number, default: "1",
                help: "Run up to N requests at once, across files and within a file; a request waits for those "
                    + "whose responses or script variables it uses, and run blocks, @ref, @loop and @sleep "
                    + "requests run in file order. Rounds of --repeat and --data rows do not overlap: each starts "
                    + "from the named responses and globals the one before left."),
        .option("--repeat", "N", .number, default: "1",
                help: "Run everything N times (named responses and globals carry over to the next round)."),
        .option("--delay", "MS", .number, help: "Wait MS milliseconds before each request (HTTP or GRPC) after "
                    + "the first."),
        .flag("--test-only", help: "Print a line per request and per test (✓ or ✗), no responses; with "
                  + "--quiet, only the requests that failed."),
    ]

    /// The help's line for exit code 3 (`RunTally.exitCode`).
    static let badInputNote = "bad input: a file with errors, a request that could not be built, a report not "
        + "written"

    /// Reads `--report`, `--jobs`, `--repeat`, `--delay` and `--test-only`.
    static func parseCIOptions(_ args: ParsedArguments, into invocation: inout Invocation) throws(UsageError) {
        // The table allows only the formats there are.
        invocation.reports = args.occurrences(of: "--report").compactMap { values in
            RunReport.Format(rawValue: values[0]).map { ($0, URL(fileURLWithPath: values[1])) }
        }
        invocation.jobs = try wholeNumber(args, "--jobs", upTo: 1_000) ?? 1
        invocation.repeats = try wholeNumber(args, "--repeat", upTo: 1_000_000) ?? 1
        if let text = args.value("--delay") {
            guard let milliseconds = Double(text), milliseconds >= 0, milliseconds <= 3_600_000 else {
                throw UsageError("--delay takes milliseconds from 0 to 3600000, not '\(text)'", command: "run")
            }
            invocation.delay = .milliseconds(milliseconds)
        }
        invocation.testOnly = args.flag("--test-only")
        if invocation.testOnly && (invocation.json || invocation.summary) {
            throw UsageError("--test-only excludes --json and --summary", command: "run")
        }
    }

    private static func wholeNumber(_ args: ParsedArguments, _ name: String, upTo limit: Int) throws(UsageError)
        -> Int? {
        guard let text = args.value(name) else { return nil }
        guard let value = Int(text), value >= 1, value <= limit else {
            throw UsageError("\(name) takes a whole number from 1 to \(limit), not '\(text)'", command: "run")
        }
        return value
    }

    /// `--test-only`: `✓ name  200  12 ms`, or `✗ name: what failed`, then each test indented under it.
    static func printTestOnly(_ outcome: RunOutcome, secrets: Set<String>, showSecrets: Bool, file: String?) {
        defer { if let body = outcome.response?.body { TemporaryBodyFiles.release(body) } }
        let masked = showSecrets ? [] : secrets.union(outcome.secrets)
        let name = (file.map { $0 + " › " } ?? "") + outcome.template.displayName
        var lines: [String]
        if let skipped = outcome.skipped {
            lines = ["- \(name): skipped: \(skipped)"]
        } else if let failure = outcome.failure {
            let status = outcome.response.map { " \($0.status)" } ?? ""
            lines = ["✗ \(name)\(status): \(failure.summary)"]
        } else {
            let status = outcome.response.map { "  \($0.status)  " + DurationText.format($0.timing.total) }
            lines = ["✓ \(name)" + (status ?? "")]
        }
        for test in outcome.scripts.tests {
            lines.append("  \(test.passed ? "✓" : "✗") \(test.name)" + (test.passed || test.message.isEmpty ? ""
                                                                          : ": \(test.message)"))
        }
        Console.out(SecretPolicy.masking(lines.joined(separator: "\n"), secrets: masked))
    }
}

/// `--delay MS`: every request after the first, HTTP or GRPC, waits MS before it is sent (newman's
/// --delay-request).
final class RequestPacing: Sendable {
    let delay: Duration
    private let first = Mutex(true)

    init(delay: Duration) { self.delay = delay }

    func pacing(_ send: @escaping CollectionRunner.Send) -> CollectionRunner.Send {
        { [self] request, context async throws(APIError) -> HTTPResponse in
            try await wait()
            return try await send(request, context)
        }
    }

    func pacing(_ call: @escaping CollectionRunner.Call) -> CollectionRunner.Call {
        { [self] resolved async throws(APIError) -> HTTPResponse in
            try await wait()
            return try await call(resolved)
        }
    }

    /// Returns at once the first time, after `delay` every later time.
    private func wait() async throws(APIError) {
        let isFirst = first.withLock { value in
            defer { value = false }
            return value
        }
        if !isFirst {
            do { try await Task.sleep(for: delay) } catch { throw .cancelled }
        }
    }
}
