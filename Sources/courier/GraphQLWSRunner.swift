import CourierSecurity
import CourierWebSocket
import Dispatch
import Foundation
import Synchronization

/// `courier ws URL --graphql DOCUMENT`: one GraphQL subscription over a WebSocket session. Each result
/// prints as it arrives (`--json`: `{"type": "next", "id", "payload"}`), server pings are answered, and the
/// command ends when the server completes the subscription (exit 0), sends an error (exit 1), after
/// `--count` results or `--timeout` (the subscription is stopped first), or on Ctrl-C.
final class GraphQLWSRunner: Sendable {
    let options: WSCommand.Options
    let subscription: GraphQLSubscription
    let session: WebSocketSession
    private let output = LineOutput()
    private let state = Mutex(State())

    private struct State {
        var results = 0
        var completed = false
        var failed = false
        var stopping = false
        var timedOut = false
    }

    init(options: WSCommand.Options) {
        self.options = options
        // `parse` makes a runner only with a subscription.
        subscription = options.graphql!
        // connection_init and the subscription go out on every connect: a reconnect subscribes again.
        session = WebSocketSession(configuration: options.configuration,
                                   subscriptions: [.text(subscription.connectionInit), .text(subscription.subscribe)],
                                   reconnect: options.reconnect ? .standard : nil)
    }

    func run() -> Int32 {
        if options.configuration.insecure { Console.warnUnverified(because: "--insecure") }
        signal(SIGPIPE, SIG_IGN)
        let done = DispatchSemaphore(value: 0)
        let consumer = Task { [self] in
            for await batch in session.batches {
                for event in batch { handle(event) }
            }
            done.signal()
        }
        let interrupts = InterruptWatch { [self] in stop() }
        if let timeout = options.timeout {
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { [self] in
                state.withLock { $0.timedOut = true }
                stop()
            }
        }
        session.start()
        done.wait()
        _ = consumer
        interrupts.stop()
        output.stop()
        return state.withLock { state in
            if state.failed { return 1 }
            return state.completed || state.stopping ? 0 : 1
        }
    }

    private func handle(_ event: WebSocketEvent) {
        switch event {
        case .connected(let url, let chosen):
            if !options.json {
                Console.error("connected to \(url.absoluteString)" + (chosen.map { " (protocol \($0))" } ?? ""))
            }
        case .message(let record) where record.direction == .incoming:
            guard case .text(let text) = record.message else { return }
            receive(subscription.interpret(text), raw: text)
        case .closed(let info):
            let expected = state.withLock { $0.completed || $0.stopping }
            if !expected {
                state.withLock { $0.failed = true }
                output.flush()
                Console.fail("the connection closed before the subscription completed: \(info.code.rawValue)"
                             + (info.reason.isEmpty ? "" : " \(Sanitizer.escaped(info.reason, keepingLayout: false))"))
            }
        case .error(let error):
            state.withLock { $0.failed = true }
            output.flush()
            Console.fail("\(error)")
        case .reconnecting(let delay, let attempt):
            if !options.json { Console.error(String(format: "reconnecting in %.1f s (attempt %d)", delay, attempt)) }
        default:
            break
        }
    }

    private func receive(_ message: GraphQLSubscription.ServerMessage, raw: String) {
        switch message {
        case .next(let id, let payload):
            // A result may carry errors (a resolver that failed): printed as it came, and the exit status says so.
            let failed = Self.hasErrors(payload)
            let reached = state.withLock { state -> Bool in
                state.results += 1
                if failed { state.failed = true }
                return options.count.map { state.results >= $0 } ?? false
            }
            if options.json {
                output.line(Sanitizer.escapedJSON(#"{"type":"next","id":\#(Self.quoted(id)),"payload":\#(payload)}"#))
            } else {
                output.line(Sanitizer.escaped(payload))
            }
            if reached { stop() }
        case .error(_, let payload):
            state.withLock { $0.failed = true }
            output.flush()
            Console.fail("the subscription failed: \(Sanitizer.escaped(payload, keepingLayout: false))")
            close()
        case .connectionError(let payload):
            state.withLock { $0.failed = true }
            output.flush()
            Console.fail("the server refused the connection: \(Sanitizer.escaped(payload, keepingLayout: false))")
            close()
        case .complete:
            state.withLock { $0.completed = true }
            if options.json { output.line(#"{"type":"complete"}"#) }
            close()
        case .ping:
            try? session.send(.text(subscription.pong))
        case .ack, .pong, .keepAlive, .unknown:
            break
        }
    }

    /// Stops the subscription politely (complete / stop), then closes.
    private func stop() {
        let first = state.withLock { state -> Bool in
            defer { state.stopping = true }
            return !state.stopping
        }
        guard first else {
            output.flush()
            exit(130)
        }
        try? session.send(.text(subscription.stop))
        session.close(code: .normal)
    }

    private func close() {
        state.withLock { $0.stopping = true }
        session.close(code: .normal)
    }

    private static func hasErrors(_ payload: String) -> Bool {
        let object = (try? JSONSerialization.jsonObject(with: Data(payload.utf8))) as? [String: Any]
        return ((object?["errors"] as? [Any])?.isEmpty == false)
    }

    private static func quoted(_ text: String) -> String {
        let data = try? JSONSerialization.data(withJSONObject: text, options: .fragmentsAllowed)
        return data.map { String(decoding: $0, as: UTF8.self) } ?? "\"\""
    }
}
