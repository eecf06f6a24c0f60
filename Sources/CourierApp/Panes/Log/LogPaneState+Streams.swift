import CourierHTTP
import CourierWebSocket
import Foundation

/// The live pane's WebSocket connection in the log: every connect is an attempt of one request (the
/// handshake's 101 or why it failed), and every automatic reconnect a retry scheduled after the attempt before
/// it, with its delay, as the HTTP client's retries show. The session's events reach the app in frames, so
/// no phase times are claimed for a handshake.
extension LogPaneState {
    /// The connection's request in the log and its current attempt.
    struct StreamConnection: Sendable, Hashable {
        var id: RequestID
        var attempt: Int
        /// Whether the current attempt's handshake succeeded.
        var opened = false
        /// Why the last attempt ended, for the reason of the reconnect after it.
        var ended = "connect failed"
    }

    /// Folds one event of the pane's connection into the log; `method` names it (`WS`).
    public mutating func apply(stream event: WebSocketEvent, method: String, at time: Date) {
        switch event {
        case .connecting(let url, let attempt):
            if attempt == 1 || stream == nil {
                stream = StreamConnection(id: .next(), attempt: attempt)
            } else {
                stream?.attempt = attempt
                stream?.opened = false
                stream?.ended = "connect failed"
            }
            guard let stream else { return }
            apply(.attemptStarted(stream.id, attempt: attempt, method: HTTPMethod(method), url: url, headers: [], at: time),
                  now: time)
        case .connected:
            finish(.response(status: 101, headers: []))
            stream?.opened = true
        case .error(let error):
            finish(error == .cancelled ? .cancelled(superseded: false)
                                       : .failure(kind: Self.kind(of: error), message: "\(error)"))
        case .closed(let info):
            // A connection that never opened ends its attempt here; an open one's close is the pane's to show.
            if let error = info.error {
                finish(.failure(kind: Self.kind(of: error), message: "\(error)"))
            } else {
                finish(info.byUser ? .cancelled(superseded: false)
                                   : .failure(kind: .connectionLost, message: "closed \(info.code.rawValue) \(info.reason)"))
            }
            if stream?.opened == true { stream?.ended = "closed \(info.code.rawValue)" }
        case .reconnecting(let delay, _):
            guard let stream else { return }
            apply(.retryScheduled(stream.id, attempt: stream.attempt, reason: "reconnect after \(stream.ended)",
                                  delay: .milliseconds(Int64((delay * 1000).rounded()))), now: time)
        case .message, .ping, .pong:
            break
        }
    }

    /// Ends the current attempt, once.
    private mutating func finish(_ outcome: LogAttempt.Outcome) {
        guard let stream,
              let index = attempts.lastIndex(where: { $0.key == LogAttempt.Key(request: stream.id, attempt: stream.attempt) }),
              attempts[index].outcome == .inFlight else { return }
        attempts[index].outcome = outcome
    }

    /// The client's kind for a WebSocket failure, so the log colours and filters it as any other.
    static func kind(of error: WebSocketError) -> APIError.Kind {
        if let same = APIError.Kind(rawValue: error.kind.rawValue) { return same }
        return switch error.kind {
        case .handshakeRejected: .http
        case .pongTimeout: .timedOut
        case .notConnected: .connectionLost
        default: .protocolError
        }
    }
}
