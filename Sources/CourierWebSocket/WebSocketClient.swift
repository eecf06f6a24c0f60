import Foundation
import Synchronization

/// One WebSocket connection with its incoming messages as an AsyncThrowingStream. The stream ends
/// normally after a close handshake and throws when the connection broke; cancelling the task that
/// consumes it closes the socket (1001, going away). `WebSocketSession` adds reconnecting.
public final class WebSocketClient: Sendable {
    /// Incoming data messages, in order.
    public let messages: AsyncThrowingStream<WebSocketMessage, any Error>
    /// The subprotocol the server chose, if any.
    public let negotiatedProtocol: String?
    private let connection: WebSocketConnection
    private let ending: Ending

    /// Where the end of the connection is recorded, and who waits for it.
    private final class Ending: Sendable {
        struct State {
            var info: WebSocketCloseInfo?
            var waiters: [CheckedContinuation<WebSocketCloseInfo, Never>] = []
            var opening: CheckedContinuation<Result<String?, WebSocketError>, Never>?
            var opened = false
        }
        let state = Mutex(State())
    }

    private init(messages: AsyncThrowingStream<WebSocketMessage, any Error>, negotiatedProtocol: String?,
                 connection: WebSocketConnection, ending: Ending) {
        self.messages = messages
        self.negotiatedProtocol = negotiatedProtocol
        self.connection = connection
        self.ending = ending
    }

    /// Connects and completes the handshake; `onEvent` sees every event (messages, pings, close).
    public static func connect(_ configuration: WebSocketConfiguration,
                               onEvent: @escaping @Sendable (WebSocketEvent) -> Void = { _ in })
        async throws(WebSocketError) -> WebSocketClient {
        let (messages, continuation) = AsyncThrowingStream<WebSocketMessage, any Error>.makeStream()
        let ending = Ending()
        let connection = WebSocketConnection(configuration: configuration, onEvent: { event in
            switch event {
            case .connected(_, let chosen):
                let opening = ending.state.withLock { state in
                    state.opened = true
                    defer { state.opening = nil }
                    return state.opening
                }
                opening?.resume(returning: .success(chosen))
            case .message(let record) where record.direction == .incoming:
                continuation.yield(record.message)
            default: break
            }
            onEvent(event)
        }, onEnd: { info, opened in
            let (opening, waiters) = ending.state.withLock { state in
                state.info = info
                defer { state.opening = nil; state.waiters = [] }
                return (state.opening, state.waiters)
            }
            if opened {
                onEvent(.closed(info))
            } else {
                opening?.resume(returning: .failure(info.error ?? .cancelled))
            }
            if let error = info.error { continuation.finish(throwing: error) } else { continuation.finish() }
            for waiter in waiters { waiter.resume(returning: info) }
        })
        continuation.onTermination = { termination in
            if case .cancelled = termination { connection.close(code: .goingAway, reason: "") }
        }
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (opening: CheckedContinuation<Result<String?, WebSocketError>, Never>) in
                ending.state.withLock { $0.opening = opening }
                connection.start()
            }
        } onCancel: {
            connection.abort()
        }
        switch result {
        case .success(let chosen):
            return WebSocketClient(messages: messages, negotiatedProtocol: chosen, connection: connection,
                                   ending: ending)
        case .failure(let error):
            throw error
        }
    }

    /// Sends a message; throws `notConnected` once the connection is closing or closed.
    public func send(_ message: WebSocketMessage) throws(WebSocketError) {
        guard connection.send(message) else { throw .notConnected }
    }

    /// Sends a text message.
    public func send(text: String) throws(WebSocketError) { try send(.text(text)) }

    /// Sends a binary message.
    public func send(data: Data) throws(WebSocketError) { try send(.binary(data)) }

    /// Sends a ping; the round trip is reported as a `pong` event.
    public func ping() { connection.ping() }

    /// Starts the close handshake; the message stream ends when the server answers or the timeout passes.
    public func close(code: WebSocketCloseCode = .normal, reason: String = "") {
        connection.close(code: code, reason: reason)
    }

    /// Waits for the connection to end and says how it ended.
    public func closed() async -> WebSocketCloseInfo {
        await withCheckedContinuation { waiter in
            let done = ending.state.withLock { state -> WebSocketCloseInfo? in
                if let info = state.info { return info }
                state.waiters.append(waiter)
                return nil
            }
            if let done { waiter.resume(returning: done) }
        }
    }
}
