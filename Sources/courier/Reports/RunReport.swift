import CourierCollections
import CourierHTTP
import CourierSecurity
import Foundation

/// What `courier run` did, request by request, for the `--report` files (JUnit, TAP, JSON, HTML). Secrets are
/// masked as each request is added, so no writer can leak one; each writer only escapes for its format.
struct RunReport: Sendable {
    /// One request of the run, and its tests.
    struct Request: Sendable {
        /// How the request ended: `error` when it could not be built or sent, `failed` when the server answered
        /// but a status, test or script failed.
        enum Result: String, Sendable { case passed, failed, error, skipped }

        /// A `client.test` / `pm.test` / `??` assertion.
        struct Test: Sendable {
            var name: String
            var passed: Bool
            var message: String
        }

        var file: String
        var name: String
        var method: String?
        /// The URL as sent, its secrets masked.
        var url: String?
        var status: Int?
        var result: Result
        /// Why it did not pass (masked), or why it was skipped.
        var message: String?
        /// `status`, `tests`, `script`, `collection`, `websocket`, or the transport failure's kind (`timedOut`).
        var errorKind: String?
        /// When its first attempt started, when the client saw one.
        var started: Date?
        /// The whole exchange, attempts and waits included.
        var seconds: Double
        /// The last attempt's phases, in milliseconds: DNS, connect, TLS, first byte.
        var phases: [String: Double] = [:]
        var bytesReceived = 0
        var tests: [Test] = []
        /// Which repetition of the run (`--repeat`), from 1.
        var round = 1
    }

    private(set) var requests: [Request] = []
    var started = Date()
    var finished = Date()

    /// Adds the outcomes of one file; `secrets` are masked out of every text; `attempts` gives the client's
    /// records of a request (for its start time).
    mutating func add(_ outcomes: [RunOutcome], file: String, secrets: Set<String>, round: Int = 1,
                      attempts: (RequestID) -> [AttemptRecord] = { _ in [] }) {
        for outcome in outcomes {
            requests.append(Self.request(outcome, file: file, secrets: secrets, round: round,
                                         attempts: attempts(outcome.context.id)))
        }
    }

    static func request(_ outcome: RunOutcome, file: String, secrets: Set<String>, round: Int,
                        attempts: [AttemptRecord]) -> Request {
        func mask(_ text: String) -> String { SecretPolicy.masking(text, secrets: secrets) }
        let response = outcome.response
        var request = Request(file: file, name: mask(outcome.template.displayName), result: .passed, seconds: 0,
                              round: round)
        if let resolved = outcome.resolved {
            request.method = resolved.request.method.rawValue
            request.url = mask(SecretPolicy.maskedURL(resolved.request.url.absoluteString))
        }
        request.status = response?.status ?? outcome.webSocket.flatMap(\.status)
        request.started = attempts.first?.startedAt
        if let first = attempts.first?.startedAt, let last = attempts.last, let timing = last.timing {
            request.seconds = max(0, last.startedAt.timeIntervalSince(first)) + timing.total.seconds
        } else if let timing = response?.timing {
            request.seconds = timing.total.seconds
        }
        if let timing = response?.timing {
            let phases: [(String, Duration?)] = [("dns", timing.dns), ("connect", timing.connect),
                                                 ("tls", timing.tls), ("firstByte", timing.firstByte)]
            for (name, value) in phases { if let value { request.phases[name] = value.milliseconds } }
            request.bytesReceived = timing.bytesReceived
        }
        request.tests = outcome.scripts.tests.map {
            Request.Test(name: mask($0.name), passed: $0.passed, message: mask($0.message))
        }
        if let skipped = outcome.skipped {
            request.result = .skipped
            request.message = mask(skipped)
            return request
        }
        switch outcome.failure {
        case .none: break
        case .status(let status):
            (request.result, request.errorKind, request.message) = (.failed, "status", "status \(status)")
        case .tests(let failed):
            (request.result, request.errorKind) = (.failed, "tests")
            request.message = failed == 1 ? "1 test failed" : "\(failed) tests failed"
        case .script(let error):
            (request.result, request.errorKind, request.message) = (.failed, "script", mask("script error: \(error)"))
        case .collection(let error):
            (request.result, request.errorKind, request.message) = (.error, "collection", mask(error.description))
        case .transport(let error):
            (request.result, request.errorKind, request.message) = (.error, error.kind.rawValue,
                                                                     mask(error.description))
        case .webSocket(let failure):
            (request.result, request.errorKind, request.message) = (.error, "websocket", mask(failure.message))
        }
        return request
    }

    /// The requests in the order they ran, failures (then errors) first: what the HTML report leads with.
    var failuresFirst: [Request] {
        let rank: (Request.Result) -> Int = { [.error: 0, .failed: 1, .passed: 2, .skipped: 3][$0] ?? 3 }
        return requests.enumerated().sorted { a, b in
            rank(a.element.result) != rank(b.element.result) ? rank(a.element.result) < rank(b.element.result)
                : a.offset < b.offset
        }.map(\.element)
    }

    func count(_ result: Request.Result) -> Int { requests.filter { $0.result == result }.count }

    /// Writes the report in `format` to `url` (a temporary file renamed over it).
    func write(_ format: Format, to url: URL) throws {
        let text: String = switch format {
        case .junit: JUnitReport(self).xml()
        case .tap: TAPReport(self).text()
        case .json: JSONReport(self).text()
        case .html: HTMLReport(self).html()
        }
        try CollectionWriter.write(Data(text.utf8), to: url, displayPath: url.path)
    }

    /// The formats `--report` writes.
    enum Format: String, CaseIterable, Sendable { case junit, tap, json, html }
}
