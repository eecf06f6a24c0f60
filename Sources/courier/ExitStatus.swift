import CourierHTTP
import CourierWebSocket

/// How every `courier` command ends, as one table: 0 success, 1 a failed request, 2 a usage error, and a
/// number of its own for each failure whose cure lies outside the request (the server, the name, the network,
/// the certificate, the clock), so a script can react without reading the text. The numbers are curl's
/// where curl has one for the same failure.
enum ExitStatus {
    static let success: Int32 = 0
    /// A status of 400 or more, a failed test, or a failure without a number of its own.
    static let failed: Int32 = 1
    static let usage: Int32 = 2

    /// The failures with numbers of their own, by the kind name `--json` prints, in the order the help lists.
    static let byKind: [(kind: String, status: Int32, meaning: String)] = [
        (APIError.Kind.dnsFailure.rawValue, 6, "the host name does not resolve"),
        (APIError.Kind.connectionRefused.rawValue, 7, "nothing listens on the port"),
        (APIError.Kind.unreachable.rawValue, 8, "no route to the host (is this machine offline?)"),
        (APIError.Kind.timedOut.rawValue, 28, "timed out"),
        (APIError.Kind.tls.rawValue, 35, "TLS: a certificate or handshake failure"),
    ]

    /// The status a failure of the kind named `kind` ends with.
    static func of(kindNamed kind: String) -> Int32 {
        byKind.first { $0.kind == kind }?.status ?? failed
    }

    static func of(_ kind: APIError.Kind) -> Int32 { of(kindNamed: kind.rawValue) }
    static func of(_ kind: WebSocketError.Kind) -> Int32 { of(kindNamed: kind.rawValue) }

    /// The status of a command whose failures are `statuses` (one per failed request): their own number when
    /// they all share it, else 1.
    static func combining(_ statuses: [Int32]) -> Int32 {
        guard let first = statuses.first else { return success }
        return statuses.allSatisfy { $0 == first } ? first : failed
    }

    /// The EXIT CODES table of a command's help; `success` and `failure` say what 0 and 1 mean for it.
    /// `extra` rows (a command's own numbers) follow 2.
    static func notes(success: String, failure: String, extra: [(String, String)] = []) -> String {
        let rows = [("0", success), ("1", failure), ("2", "a usage error")] + extra
            + byKind.map { (String($0.status), "\($0.meaning) (\($0.kind))") }
        // Padded by hand: every command builds these notes at start, and Foundation's padding is slow to start.
        return (["EXIT CODES:"] + rows.map { "  " + $0.0 + String(repeating: " ", count: max(0, 4 - $0.0.count)) + $0.1 })
            .joined(separator: "\n")
    }
}
