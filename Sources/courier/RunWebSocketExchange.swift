import CourierCollections
import CourierHTTP
import CourierWebSocket
import Foundation

/// One `WEBSOCKET` request of `courier run`: connect, send the saved messages in file order, collect what
/// comes back, close politely, and say what happened in one `WebSocketRunResult`.
///
/// The rule for when to stop: once the server has sent at least as many messages as were sent to it
/// (each message has had its reply), or after `quietSeconds` without a message either way, or at the
/// request's `# @timeout` (else `defaultLimitSeconds`), whichever comes first. A `=== wait-for-server`
/// message goes out only after the server has said something since the message before it.
struct RunWebSocketExchange: Sendable {
    /// Seconds without a message, in or out, after which the exchange ends (`--ws-wait`).
    var quietSeconds: Double
    /// PEM certificates servers are verified against instead of the system's (`--cacert`).
    var trustedCertificates: URL?
    /// The run's cookie jars: the handshake carries the environment's cookies, as an HTTP request would.
    var cookies: CookieJarStore?
    /// The longest an exchange lasts when the request has no `# @timeout`: a server that never falls
    /// quiet (a ticker) still ends.
    static let defaultLimitSeconds = 30.0
    /// How often the clocks are looked at while nothing arrives.
    static let tickSeconds = 0.05
    /// The default of `--ws-wait`.
    static let defaultQuietSeconds = 2.0

    /// What the exchange loop reacts to: the session's events and the clock.
    private enum Input: Sendable {
        case event(WebSocketEvent)
        case tick
        case ended
    }

    /// Connects, exchanges and closes; never throws: every failure is in the result.
    func perform(_ resolved: ResolvedRequest) async -> WebSocketRunResult {
        let started = Monotonic.seconds
        let limit = resolved.request.timeout.map(Self.seconds) ?? Self.defaultLimitSeconds
        var configuration = Self.configuration(for: resolved.request)
        configuration.trustedCertificates = trustedCertificates
        if let cookies, let name = resolved.request.cookieJar {
            cookies.jar(name).addCookies(to: &configuration.headers, for: resolved.request.url)
        }
        // A short `# @timeout` also bounds the connection and the handshake, not only the exchange.
        configuration.connectTimeout = min(configuration.connectTimeout, limit)
        configuration.handshakeTimeout = min(configuration.handshakeTimeout, limit)
        let session = WebSocketSession(configuration: configuration, reconnect: nil)
        let (inputs, continuation) = AsyncStream<Input>.makeStream()
        let pump = Task {
            for await event in session.events { continuation.yield(.event(event)) }
            continuation.yield(.ended)
            continuation.finish()
        }
        let ticker = Task {
            while !Task.isCancelled {
                try? await Task.sleep(nanoseconds: UInt64(Self.tickSeconds * 1e9))
                continuation.yield(.tick)
            }
        }
        defer { ticker.cancel() }

        var progress = Progress(messages: resolved.messages.map(\.text),
                                waits: resolved.messages.map(\.waitForServer), quietSeconds: quietSeconds,
                                deadline: started + limit, now: started)
        var result = WebSocketRunResult(url: resolved.request.url)
        var ended = false
        session.start()
        for await input in inputs {
            let now = Monotonic.seconds
            switch input {
            case .ended:
                ended = true
            case .tick:
                break
            case .event(let event):
                record(event, into: &result, progress: &progress, now: now)
            }
            if ended { break }
            actions: for action in progress.step(now: now) {
                switch action {
                case .send(let text):
                    do {
                        try session.send(.text(text))
                        result.sent += 1
                    } catch {
                        progress.fail()
                        result.failure = result.failure
                            ?? .init(kind: .client(error.kind), message: error.description)
                        session.close(code: .normal)
                        break actions
                    }
                case .close:
                    session.close(code: .normal)
                case .giveUpWaiting(let index):
                    result.failure = .init(kind: .waitForServer, message: String(
                        format: "the server sent nothing for %.1f s before message %d ('=== wait-for-server')",
                        quietSeconds, index + 1))
                    session.close(code: .normal)
                }
            }
        }
        if !ended {
            // Cancelled (Ctrl-C): leave politely, and wait for the close so the socket is not left behind.
            session.close(code: .goingAway)
            await pump.value
            result.failure = .init(kind: .client(.cancelled), message: "cancelled")
        }
        result.seconds = Monotonic.seconds - started
        return result
    }

    /// Folds one session event into the result and the progress.
    private func record(_ event: WebSocketEvent, into result: inout WebSocketRunResult, progress: inout Progress,
                        now: Double) {
        switch event {
        case .connected:
            result.status = 101
            progress.opened(now: now)
        case .message(let record) where record.direction == .incoming:
            result.received += 1
            progress.heard(now: now)
        case .closed(let info):
            result.closeCode = Int(info.code.rawValue)
            progress.fail()
            guard result.failure == nil else { return }
            if let error = info.error {
                result.failure = .init(kind: .client(error.kind), message: error.description)
            } else if !info.byUser && !(info.wasClean && Self.cleanCloseCodes.contains(info.code)) {
                let reason = info.reason.isEmpty ? "" : " \(info.reason)"
                result.failure = .init(kind: .closed,
                                       message: "the server closed the connection with \(info.code.rawValue)\(reason)")
            }
        case .error(let error):
            progress.fail()
            if case .handshakeRejected(let status, _, _) = error { result.status = status }
            if result.failure == nil {
                result.failure = .init(kind: .client(error.kind), message: error.description)
            }
        case .connecting, .message, .ping, .pong, .reconnecting:
            break
        }
    }

    /// A `# @timeout` duration in seconds, the unit of the exchange's clock.
    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// Close codes with which a server may end an exchange without it counting as a failure.
    static let cleanCloseCodes: Set<WebSocketCloseCode> = [.normal, .goingAway]

    /// The connection settings from the resolved request (`WebSocketConfiguration(request:)`). No keepalive
    /// pings: an exchange is short.
    static func configuration(for request: HTTPRequest) -> WebSocketConfiguration {
        WebSocketConfiguration(request: request, pingInterval: nil)
    }
}
