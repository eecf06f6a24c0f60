import CourierMessage
import CourierSecurity
import Foundation

/// What the logger may print.
public struct LogPolicy: Sendable, Hashable {
    /// Header names (lowercase) whose values are printed; every other header is left out.
    public var printableHeaders: Set<String>
    /// Whether to print the allowed request and response headers at all.
    public var includeHeaders: Bool
    /// Print the whole URL (port and query, secrets masked) where the attempt starts, rather than host and
    /// path; for `courier send -v`, which prints the request head as sent besides, so that line leaves out
    /// the request's headers.
    public var fullURL: Bool

    public init(printableHeaders: Set<String> = LogPolicy.defaultPrintableHeaders, includeHeaders: Bool = false,
                fullURL: Bool = false) {
        self.printableHeaders = printableHeaders
        self.includeHeaders = includeHeaders
        self.fullURL = fullURL
    }

    /// Headers that describe a message without carrying credentials or personal data.
    public static let defaultPrintableHeaders: Set<String> = [
        "accept", "content-type", "content-length", "cache-control", "etag", "last-modified", "age",
        "retry-after", "location", "idempotency-key", "x-request-id", "vary", "expires",
    ]
}

/// Writes one line per event: method, path, attempt, status, duration. It only observes; secrets
/// never reach it in printable form (an allow-list of headers, no query strings, no bodies).
public struct RedactingLogger: Sendable {
    public let policy: LogPolicy
    private let write: @Sendable (String) -> Void

    public init(policy: LogPolicy = LogPolicy(), write: @escaping @Sendable (String) -> Void) {
        self.policy = policy
        self.write = write
    }

    /// A sink to put in `HTTPClient.Configuration.events` or a request's context.
    public var sink: EventSink {
        EventSink { event in
            if let line = line(for: event) { write(line) }
        }
    }

    /// The log line for an event, or nil for events the log does not show.
    public func line(for event: ClientEvent) -> String? {
        switch event {
        case .attemptStarted(let id, let attempt, let method, let url, let headers, _):
            if policy.fullURL {
                return "\(id) → \(method) \(SecretPolicy.maskedURL(url.absoluteString)) attempt \(attempt)"
            }
            // The path only: query strings may carry tokens.
            let path = url.path.isEmpty ? "/" : url.path
            return "\(id) → \(method) \(url.host ?? "")\(path) attempt \(attempt)" + headerText(headers)
        case .attemptFinished(let id, let attempt, let outcome, let timing):
            let duration = timing.map { " " + DurationText.format($0.total) } ?? ""
            let reused = timing?.reusedConnection == true ? " (reused connection)" : ""
            switch outcome {
            case .response(let status, let headers):
                return "\(id) ← \(status) attempt \(attempt)\(duration)\(reused)" + headerText(headers)
            case .failure(let error):
                return "\(id) ✕ \(error.kind) attempt \(attempt)\(duration): \(error.logDescription)"
            }
        case .retryScheduled(let id, let attempt, let reason, let delay):
            return "\(id) ↻ retry after attempt \(attempt) in \(DurationText.format(delay)): \(reason)"
        case .retryDeclined(let id, let attempt, let declined):
            return "\(id) ⊘ no retry after attempt \(attempt): \(declined)"
        case .cancelled(let id, let superseded):
            return "\(id) ✕ \(superseded ? "superseded" : "cancelled")"
        case .cacheDecision(let id, let report):
            return "\(id) cache \(report.decision.rawValue)"
        case .tokenRefresh(let id, let succeeded):
            return "\(id) token refresh \(succeeded ? "succeeded" : "failed")"
        case .auth(let id, let event):
            return "\(id) auth: \(event.description())"
        }
    }

    private func headerText(_ headers: HTTPHeaders) -> String {
        guard policy.includeHeaders else { return "" }
        let shown = headers.filter { policy.printableHeaders.contains($0.name.lowercased())
            && !SecretPolicy.isSecretHeader($0.name) }
        return shown.isEmpty ? "" : " [" + shown.map { "\($0.name): \($0.value)" }.joined(separator: ", ") + "]"
    }
}

extension APIError {
    /// The description without bodies, safe for logs.
    public var logDescription: String {
        switch self {
        case .unauthorized: "unauthorized (401)"
        case .http(let status, _, let message): "HTTP \(status)" + (message.map { ": \($0)" } ?? "")
        default: description
        }
    }
}
