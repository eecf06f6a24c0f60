import CourierHTTP
import Foundation
import Synchronization

/// One WebSocket connection running on its own thread: the thread connects, does the handshake and
/// then polls the socket and a wake-up pipe. Other threads talk to it only through the mailbox.
final class WebSocketConnection: Sendable {
    /// What other threads ask of the connection thread.
    enum Command: Sendable {
        case message(WebSocketMessage)
        case ping
        case close(code: WebSocketCloseCode, reason: String)
        /// Drop the connection at once, without a close handshake.
        case abort
    }

    /// Commands waiting for the connection thread, and whether the user already closed.
    struct Mailbox: Sendable {
        var commands: [Command] = []
        var userClosed = false
        var ended = false
    }

    let configuration: WebSocketConfiguration
    /// Sent first after every successful handshake (the session's subscriptions).
    let initialMessages: [WebSocketMessage]
    let mailbox = Mutex(Mailbox())
    let wakePipe = WakePipe()
    let cancelConnect = CancelFlag()
    let onEvent: @Sendable (WebSocketEvent) -> Void
    /// Takes the messages of one read at once, when set (otherwise `onEvent` gets them one by one).
    let onEvents: (@Sendable ([WebSocketEvent]) -> Void)?
    /// Called once, last, on the connection thread: how it ended and whether it had opened.
    let onEnd: @Sendable (WebSocketCloseInfo, Bool) -> Void
    /// What the consumer has not taken yet: past its high water the connection stops reading the socket.
    let backlog: DeliveryBacklog

    init(configuration: WebSocketConfiguration, initialMessages: [WebSocketMessage] = [],
         backlog: DeliveryBacklog = DeliveryBacklog(),
         onEvent: @escaping @Sendable (WebSocketEvent) -> Void,
         onEvents: (@Sendable ([WebSocketEvent]) -> Void)? = nil,
         onEnd: @escaping @Sendable (WebSocketCloseInfo, Bool) -> Void) {
        self.configuration = configuration
        self.initialMessages = initialMessages
        self.backlog = backlog
        self.onEvent = onEvent
        self.onEvents = onEvents
        self.onEnd = onEnd
    }

    /// Hands over the events of one read, in order.
    func deliver(_ events: [WebSocketEvent]) {
        guard !events.isEmpty else { return }
        if let onEvents { onEvents(events) } else { events.forEach(onEvent) }
    }

    /// Starts the connection thread.
    func start() {
        let thread = Thread { [self] in
            var loop = ConnectionLoop(connection: self)
            let (info, opened) = loop.run()
            mailbox.withLock { $0.ended = true }
            onEnd(info, opened)
        }
        thread.name = "courier.websocket"
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// Queues a message; false when the connection is closing or closed.
    @discardableResult
    func send(_ message: WebSocketMessage) -> Bool { post(.message(message)) }

    /// Queues a ping.
    func ping() { _ = post(.ping) }

    /// Starts the close handshake the user asked for; the session will not reconnect after it.
    func close(code: WebSocketCloseCode, reason: String) {
        let accepted = mailbox.withLock { box -> Bool in
            guard !box.ended && !box.userClosed else { return false }
            box.userClosed = true
            box.commands.append(.close(code: code, reason: reason))
            return true
        }
        if accepted {
            cancelConnect.set()
            wakePipe.wake()
        }
    }

    /// Drops the connection without a handshake (used when the consumer is cancelled mid-connect).
    func abort() {
        mailbox.withLock { box in
            box.userClosed = true
            box.commands.append(.abort)
        }
        cancelConnect.set()
        wakePipe.wake()
    }

    private func post(_ command: Command) -> Bool {
        let accepted = mailbox.withLock { box -> Bool in
            guard !box.ended && !box.userClosed else { return false }
            box.commands.append(command)
            return true
        }
        if accepted { wakePipe.wake() }
        return accepted
    }

    /// Takes every pending command.
    func takeCommands() -> [Command] {
        mailbox.withLock { box in
            let commands = box.commands
            box.commands = []
            return commands
        }
    }

    var userClosed: Bool { mailbox.withLock { $0.userClosed } }
}
