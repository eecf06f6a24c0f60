import CourierMessage
import Foundation
import CourierHTTP

/// Every failure of a WebSocket connection, each with the context a user or a log needs.
public enum WebSocketError: Error, Sendable, Hashable {
    /// The URL is not a ws:// or wss:// URL Courier can open.
    case badURL(String)
    /// No connection could be made: nothing listens on the port, the name does not resolve, or no route.
    case connectFailed(ConnectFailure)
    /// The TLS handshake or certificate check failed; never bypassed unless the user asked.
    case tls(message: String)
    /// The connection, handshake or close took longer than allowed.
    case timedOut(phase: Phase)
    /// The server answered the upgrade with something other than 101.
    case handshakeRejected(status: Int, headers: HTTPHeaders, body: Data)
    /// The server answered 101 but the answer breaks RFC 6455 (wrong accept key, missing upgrade…).
    case handshakeInvalid(reason: String)
    /// The peer broke the protocol; the connection was closed with `code` (1002, 1007, 1009).
    case protocolViolation(code: WebSocketCloseCode, reason: String)
    /// The connection broke without a close handshake (1006).
    case connectionLost(message: String)
    /// A keepalive ping went unanswered for longer than the pong deadline.
    case pongTimeout(seconds: Double)
    /// The message was given after the connection had closed or before it opened.
    case notConnected
    /// The caller cancelled. Not an error for the user.
    case cancelled

    /// Where a timeout happened.
    public enum Phase: String, Sendable, Hashable {
        case connect, handshake, close
    }

    /// What kind of failure this is. Where a case means what an `APIError` kind means (`connectionRefused`,
    /// `dnsFailure`, `unreachable`, `tls`, `timedOut`, `protocol`, `connectionLost`, `badURL`, `cancelled`) it
    /// is spelled the same.
    public enum Kind: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        case badURL, connectionRefused, dnsFailure, unreachable, tls, timedOut, handshakeRejected, handshakeInvalid
        case protocolViolation = "protocol"
        case connectionLost, pongTimeout, notConnected, cancelled

        /// The stable name users see in `--json` output and the pane.
        public var description: String { rawValue }
    }

    /// The kind of the case; its `rawValue` is the stable name used in `--json` output and the pane.
    public var kind: Kind {
        switch self {
        case .badURL: .badURL
        case .connectFailed(let failure):
            switch APIError.cannotConnect(failure).kind {
            case .connectionRefused: .connectionRefused
            case .dnsFailure: .dnsFailure
            default: .unreachable
            }
        case .tls: .tls
        case .timedOut: .timedOut
        case .handshakeRejected: .handshakeRejected
        case .handshakeInvalid: .handshakeInvalid
        case .protocolViolation: .protocolViolation
        case .connectionLost: .connectionLost
        case .pongTimeout: .pongTimeout
        case .notConnected: .notConnected
        case .cancelled: .cancelled
        }
    }
}

extension WebSocketError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .badURL(let url): "bad WebSocket URL: \(url)"
        case .connectFailed(let failure): failure.description
        case .tls(let message): "TLS: \(message)"
        case .timedOut(let phase): "timed out during the \(phase.rawValue)"
        case .handshakeRejected(let status, _, let body):
            "the server refused the upgrade with HTTP \(status)"
                + (body.isEmpty ? "" : ": " + String(decoding: body.prefix(200), as: UTF8.self))
        case .handshakeInvalid(let reason): "invalid handshake answer: \(reason)"
        case .protocolViolation(let code, let reason): "protocol error (\(code)): \(reason)"
        case .connectionLost(let message): "connection lost: \(message)"
        case .pongTimeout(let seconds): "no pong within \(seconds) s"
        case .notConnected: "not connected"
        case .cancelled: "cancelled"
        }
    }
}
