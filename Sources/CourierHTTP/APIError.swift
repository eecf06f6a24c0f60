import Foundation

/// Every failure of the client core, by what the caller does next.
public enum APIError: Error, Sendable {
    /// No connection could be made: nothing listens on the port, the name does not resolve, or there is
    /// no route to the address. Its kind says which (`connectionRefused`, `dnsFailure`, `unreachable`).
    case cannotConnect(ConnectFailure)
    /// The attempt or the overall deadline ran out: offer a retry.
    case timedOut(underlying: String)
    /// The server wants credentials, or the refresh itself was refused: sign in.
    case unauthorized(body: Data)
    /// The server answered with an error status; `message` is the server's own when it sent one.
    case http(status: Int, body: Data, message: String?)
    /// A certificate or handshake problem; never bypassed silently.
    case tls(underlying: String)
    /// The handshake failed over the client certificate: it could not be used, or the server wants one or
    /// refused the one presented. A TLS failure like `tls` (same kind, same message); `problem` says which.
    case clientCertificate(ClientCertificateProblem, underlying: String)
    /// The URL cannot be sent as written.
    case badURL(String)
    /// A 2xx body did not match the expected type: a contract bug. `path` is the decoder's coding path.
    case decoding(path: String, underlying: String)
    /// The body, or one record of a body read as a stream (`part`), exceeded its maximum size.
    case tooLarge(limit: Int, part: SizedPart = .body)
    /// The caller cancelled or a newer request superseded this one. Not an error for the user.
    case cancelled
    /// The connection broke before the answer was complete (a reset, an empty reply, a body shorter
    /// than promised): the server may answer next time, so idempotent requests are retried.
    case connectionLost(underlying: String)
    /// The server's answer breaks HTTP (a redirect loop, oversized headers, a status line or chunk
    /// encoding that is not HTTP), or the exchange failed locally: asking again gets the same answer.
    case protocolError(underlying: String)
    /// A redirect was not followed because following it would be unsafe: a scheme other than http or
    /// https, or https to plain http without `--allow-insecure-redirect`. Both URLs are already masked.
    case redirectRefused(from: String, to: String, reason: String)
    /// Writing the body on this machine failed (a full disk, a folder that cannot be written): not the
    /// server's fault, and asking again does not help until there is room.
    case disk(underlying: String)
    /// Getting a token for the request failed (OAuth 2.0: the token endpoint refused or answered something
    /// that is not a token, the user denied access, a redirect's state did not match). `configuration` names
    /// the auth configuration; `reason` never holds a secret.
    case signIn(configuration: String, reason: String)

    /// What a size limit bounded.
    public enum SizedPart: Sendable, Hashable {
        /// The whole body (a compressed one counted decoded).
        case body
        /// One server-sent event or NDJSON line of a body read as a stream.
        case streamRecord
    }

    /// What kind of failure this is: what the retry policy, the log and `--json` match on.
    public enum Kind: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// Nothing listens on the port: the server is not running there (or not yet).
        case connectionRefused
        /// The host name does not resolve: a typo, or no DNS.
        case dnsFailure
        /// No route to the address: this machine is offline, or the address is not reachable from it.
        case unreachable
        case timedOut, unauthorized, http, tls, badURL, decoding, tooLarge, cancelled, connectionLost
        /// Spelled `protocol` in output, as before the kinds were typed.
        case protocolError = "protocol"
        case redirectRefused, disk, signIn

        /// The stable name users see in `--json` output, the log and error lines.
        public var description: String { rawValue }
    }

    /// The kind of the case; its `rawValue` is the stable name used in `--json` output and the log.
    public var kind: Kind {
        switch self {
        case .cannotConnect(let failure):
            switch failure.reason {
            case .refused: .connectionRefused
            case .unresolved: .dnsFailure
            case .networkUnreachable, .hostUnreachable, .other: .unreachable
            }
        case .timedOut: .timedOut
        case .unauthorized: .unauthorized
        case .http: .http
        case .tls, .clientCertificate: .tls
        case .badURL: .badURL
        case .decoding: .decoding
        case .tooLarge: .tooLarge
        case .cancelled: .cancelled
        case .connectionLost: .connectionLost
        case .protocolError: .protocolError
        case .redirectRefused: .redirectRefused
        case .disk: .disk
        case .signIn: .signIn
        }
    }
}

extension APIError {
    /// What the client certificate had to do with this failure; nil for any failure not about it.
    public var clientCertificateProblem: ClientCertificateProblem? {
        if case .clientCertificate(let problem, _) = self { problem } else { nil }
    }
}

extension APIError: CustomStringConvertible {
    /// `16 MB`, or `1000-byte` for a limit that is no whole number of megabytes.
    private static func size(_ bytes: Int) -> String {
        bytes % (1 << 20) == 0 ? "\(bytes >> 20) MB" : "\(bytes)-byte"
    }

    public var description: String {
        switch self {
        case .cannotConnect(let failure): failure.description
        case .timedOut(let underlying): "timed out: \(underlying)"
        case .unauthorized: "unauthorized (401)"
        case .http(let status, _, let message): "HTTP \(status)" + (message.map { ": \($0)" } ?? "")
        case .tls(let underlying), .clientCertificate(_, let underlying): "TLS: \(underlying)"
        case .badURL(let url): "bad URL: \(url)"
        case .decoding(let path, let underlying): "decoding failed at \(path.isEmpty ? "<root>" : path): \(underlying)"
        case .tooLarge(let limit, .body):
            "response larger than the " + Self.size(limit) + " limit (a compressed body counts decoded)"
        case .tooLarge(let limit, .streamRecord):
            "a streamed event or line longer than the " + Self.size(limit) + " limit"
        case .cancelled: "cancelled"
        case .connectionLost(let underlying): "connection lost: \(underlying)"
        case .protocolError(let underlying): "protocol error: \(underlying)"
        case .redirectRefused(let from, let to, let reason): "redirect refused: \(from) → \(to): \(reason)"
        case .disk(let underlying): "disk error: \(underlying)"
        case .signIn(let configuration, let reason): "sign-in with '\(configuration)' failed: \(reason)"
        }
    }
}
