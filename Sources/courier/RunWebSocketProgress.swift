/// Where a `courier run` WebSocket exchange stands, and what it should do next: the stop rule of
/// `RunWebSocketExchange` as a value, free of sockets and clocks (the caller passes the time in).
extension RunWebSocketExchange {
    struct Progress {
        /// What the exchange should do now.
        enum Action: Equatable {
            /// Send this text message.
            case send(String)
            /// Start the close handshake: the exchange is over.
            case close
            /// Message `index` waits for the server, which stayed quiet too long: fail and close.
            case giveUpWaiting(index: Int)
        }

        let messages: [String]
        /// Per message: whether it waits for the server to say something first.
        let waits: [Bool]
        let quietSeconds: Double
        let deadline: Double
        private(set) var next = 0
        private(set) var sent = 0
        private(set) var received = 0
        private var isOpen = false
        private var isOver = false
        private var lastActivity: Double
        /// Whether the server has said something since our last message (or since the handshake).
        private var heardSinceSend = false

        init(messages: [String], waits: [Bool], quietSeconds: Double, deadline: Double, now: Double) {
            self.messages = messages
            self.waits = waits
            self.quietSeconds = quietSeconds
            self.deadline = deadline
            lastActivity = now
        }

        /// The handshake succeeded.
        mutating func opened(now: Double) {
            isOpen = true
            lastActivity = now
        }

        /// A data message came in.
        mutating func heard(now: Double) {
            received += 1
            heardSinceSend = true
            lastActivity = now
        }

        /// The connection ended or failed: nothing more to do.
        mutating func fail() { isOver = true }

        /// The actions due at `now`; after `.close` or `.giveUpWaiting` the exchange asks for nothing more.
        mutating func step(now: Double) -> [Action] {
            guard isOpen && !isOver else { return [] }
            var actions: [Action] = []
            while next < messages.count {
                if waits.indices.contains(next) && waits[next] && !heardSinceSend {
                    guard now - lastActivity < quietSeconds && now < deadline else {
                        isOver = true
                        return actions + [.giveUpWaiting(index: next)]
                    }
                    return actions
                }
                actions.append(.send(messages[next]))
                next += 1
                sent += 1
                heardSinceSend = false
                lastActivity = now
            }
            let answered = sent > 0 && received >= sent
            if answered || now - lastActivity >= quietSeconds || now >= deadline {
                isOver = true
                actions.append(.close)
            }
            return actions
        }
    }
}
