import CourierSecurity
import CourierTerminal
import CourierWebSocket
import Foundation

/// The WebSocket pane: the connection's state for the title, a bounded history of messages and
/// connection events, a filter, pause/follow, a send box with history and the request's saved
/// messages. A value: `apply` takes session events, `handle` takes keys and returns effects for
/// the app to run; `WebSocketPaneView` draws it. Where the filter matters, the app passes the masker of
/// what the screen shows (`AppState.screenMasker`): the filter matches messages as they are drawn.
public struct WebSocketPaneState: Sendable, Hashable {
    /// The connection as the title and status line show it.
    public enum Connection: Sendable, Hashable {
        case idle
        case connecting(attempt: Int)
        case open(protocol: String?)
        case reconnecting(at: Date, attempt: Int)
        case closed(code: UInt16, reason: String, byUser: Bool)
    }

    /// Where keys go.
    public enum Mode: Sendable, Hashable {
        case browse
        /// Keys edit the send box.
        case composing
        /// Keys edit the filter.
        case filtering
    }

    /// A message saved with the request (a `===` block), optionally re-sent on every reconnect.
    public struct SavedMessage: Sendable, Hashable {
        public var text: String
        public var isSubscription: Bool
        public init(text: String, isSubscription: Bool = false) {
            self.text = text
            self.isSubscription = isSubscription
        }
    }

    public var url: String
    /// What the pane shows: "WebSocket", or "gRPC" for a GRPC request's call.
    public var title = "WebSocket"
    public var connection: Connection = .idle
    /// The connection skips certificate checks (`# @insecure` on wss://): the status line says so loudly.
    public var unverifiedTLS = false
    /// Why the last connect opened nothing (the request could not be resolved); the status line shows it.
    public private(set) var problem: String?
    /// How the "not connected" message names the connect key; `AppState.useKeys` sets the user's.
    public var connectKey = "o"
    public private(set) var entries: WebSocketEntryRing
    var nextID = 0
    /// The open connection, from `connected` to its close (`WebSocketPaneState+Sessions`).
    var openConnection: ConnectionSpan?
    /// The connection that closed last, until the app takes it to keep in history.
    var endedConnection: EndedConnection?
    /// New messages move the view; false while paused.
    public internal(set) var following = true
    /// The newest entry shown at the bottom while paused.
    public internal(set) var anchorID: Int?
    /// Messages that arrived while paused (and match the filter).
    public internal(set) var unseenWhilePaused = 0
    public var mode: Mode = .browse
    public var filterEditor = LineEditor()
    public var sendBox = TextAreaEditor()
    public private(set) var history: [String] = []
    private var historyIndex: Int?
    public var savedMessages: [SavedMessage]
    /// The saved messages as the last connect's send path resolved them; nil until one did.
    private var wireTexts: [String]?
    public var selectedSaved = 0
    /// Every message expanded (pretty JSON, all lines, hex dumps); otherwise only the selected one.
    public var prettyJSON = false
    /// The clock the countdown is drawn against; `tick(now:)` and `apply` move it.
    public var now: Date
    /// Times are drawn in this zone (tests use UTC).
    public var timeZone: TimeZone
    public private(set) var lastRoundTrip: Double?
    public private(set) var receivedCount = 0
    public private(set) var sentCount = 0
    public private(set) var bytesReceived = 0
    /// Rows of messages at the last layout, for paging; the app may set it from its layout.
    public var pageSize = 10
    /// Lines of one pretty-printed JSON message at most, so one large message cannot fill the pane.
    public var maxLinesPerMessage = 12

    /// Messages kept by default; older ones fall out.
    public static let defaultCapacity = WebSocketPaneWindow.defaultMessages

    /// `capacity`, when given, overrides the window's message count.
    public init(url: String = "", savedMessages: [SavedMessage] = [], capacity: Int? = nil,
                window: WebSocketPaneWindow = .standard, now: Date = Date(), timeZone: TimeZone = .autoupdatingCurrent) {
        self.url = url
        self.savedMessages = savedMessages
        var window = window
        if let capacity { window.messages = max(1, capacity) }
        self.entries = WebSocketEntryRing(window: window)
        self.now = now
        self.timeZone = timeZone
    }

    /// The lower-cased filter text, empty when none.
    public var filter: String { filterEditor.text.lowercased() }

    /// Whether keys should reach `handle(key:)` as text rather than through the keymap.
    public var capturesText: Bool { mode != .browse }

    /// The subscription texts to send after every (re)connect.
    public var subscriptions: [String] { savedMessages.filter(\.isSubscription).map(\.text) }
    /// Where the subscriptions stand among the saved messages.
    public var subscriptionPositions: [Int] { savedMessages.indices.filter { savedMessages[$0].isSubscription } }

    // MARK: - Events

    /// Takes one session event; `time` stamps connection events (messages carry their own time).
    public mutating func apply(_ event: WebSocketEvent, at time: Date = Date(), masker: SecretMasker? = nil) {
        switch event {
        case .connecting(_, let attempt):
            now = time
            connection = .connecting(attempt: attempt)
            if attempt > 1 { addStatus("reconnecting (attempt \(attempt))", at: time) }
        case .connected(_, let chosen):
            now = time
            connection = .open(protocol: chosen)
            openConnection = ConnectionSpan(firstEntryID: nextID, opened: time, subprotocol: chosen)
            addStatus("connected" + (chosen.map { " (protocol \($0))" } ?? ""), at: time)
        case .message(let record):
            now = record.time
            add(record, masker: masker)
        case .ping:
            break
        case .pong(let roundTrip):
            if let roundTrip { lastRoundTrip = roundTrip }
        case .closed(let info):
            now = time
            connection = .closed(code: info.code.rawValue, reason: info.reason, byUser: info.byUser)
            var text = "closed \(info.code.rawValue)" + (info.reason.isEmpty ? "" : " \(info.reason)")
            if !info.wasClean && !info.byUser { text += " (no close handshake)" }
            if let error = info.error { text += ": \(error)" }
            addStatus(text, at: time, isError: !info.byUser && ![1000, 1001].contains(info.code.rawValue))
            if let span = openConnection {
                endedConnection = EndedConnection(span: span, closed: time, closeLine: text)
                openConnection = nil
            }
        case .reconnecting(let delay, let attempt):
            now = time
            connection = .reconnecting(at: time.addingTimeInterval(delay), attempt: attempt)
            addStatus(String(format: "reconnecting in %.1f s (attempt %d)", delay, attempt), at: time)
        case .error(let error):
            now = time
            if error != .cancelled { addStatus("Error: \(error)", at: time, isError: true) }
        }
    }

    /// Takes a batch of events (one frame's worth): no per-event work beyond appending.
    public mutating func apply(contentsOf events: some Sequence<WebSocketEvent>, at time: Date = Date(),
                               masker: SecretMasker? = nil) {
        // The batch arrives after its events happened: a connection event is stamped no later than the message
        // after it, so `connected` never reads later than the subscription sent on it.
        let events = Array(events)
        var stamps = [Date](repeating: time, count: events.count)
        var next = time
        for index in events.indices.reversed() {
            if case .message(let record) = events[index] { next = min(next, record.time) }
            stamps[index] = next
        }
        for (event, stamp) in zip(events, stamps) { apply(event, at: stamp, masker: masker) }
    }

    /// Takes the connector's batch: the messages it had to drop count as received and dropped.
    public mutating func apply(_ batch: WebSocketPaneBatch, at time: Date = Date(), masker: SecretMasker? = nil) {
        if batch.droppedMessages > 0 {
            receivedCount += batch.droppedMessages
            entries.countDropped(batch.droppedMessages)
        }
        apply(contentsOf: batch.events, at: time, masker: masker)
    }

    /// Older messages that fell out of the window (or were dropped before reaching it) and are gone.
    public var droppedCount: Int { entries.dropped }

    /// Moves the clock for the reconnect countdown.
    public mutating func tick(now: Date) { self.now = now }

    /// Loads another request: its URL and saved messages; the history starts afresh.
    public mutating func load(url: String, savedMessages: [String]) {
        load(url: url, savedMessages: savedMessages.map { SavedMessage(text: $0) })
    }

    /// Whether a connection is open or under way (connecting, reconnecting).
    public var isConnected: Bool {
        switch connection {
        case .connecting, .open, .reconnecting: true
        case .idle, .closed: false
        }
    }

    /// Loads another request whose saved messages say which are subscriptions (`# @subscribe`).
    public mutating func load(url: String, savedMessages: [SavedMessage]) {
        self.url = url
        self.savedMessages = savedMessages
        wireTexts = nil
        selectedSaved = 0
        connection = .idle
        unverifiedTLS = false
        problem = nil
        entries.removeAll()
        openConnection = nil
        endedConnection = nil
        // The counters are this request's, like the messages.
        receivedCount = 0
        sentCount = 0
        bytesReceived = 0
        follow()
    }

    /// The request could not be resolved, so nothing was connected: the status line and the history say why.
    public mutating func unresolved(_ message: String, at time: Date = Date()) {
        problem = message
        addStatus("not connected: \(message)", at: time, isError: true)
    }

    /// The request was resolved and its connection is opening: a problem from an earlier try is gone.
    /// `messages` are the saved messages as the send path resolved them (a secret store's values included):
    /// what `s` and `S` send from then on, while the list keeps showing the preview.
    public mutating func resolved(unverifiedTLS: Bool, messages: [String]? = nil) {
        self.unverifiedTLS = unverifiedTLS
        problem = nil
        if let messages, messages.count == savedMessages.count { wireTexts = messages }
    }

    /// The saved message at `index` as it goes on the wire.
    private func wireText(_ index: Int) -> String { wireTexts?[index] ?? savedMessages[index].text }

    private mutating func add(_ record: WebSocketMessageEvent, masker: SecretMasker?) {
        var entry = WebSocketPaneEntry(id: nextID, time: record.time,
                                       kind: record.direction == .incoming ? .incoming : .outgoing,
                                       size: record.size, isSubscription: record.isSubscription)
        switch record.message {
        case .text(let text):
            // A huge message keeps only its start, so it cannot push every other message out of the window.
            let limit = entries.window.bytesPerMessage
            entry.text = text.utf8.count > limit ? String(decoding: text.utf8.prefix(limit), as: UTF8.self) : text
        case .binary(let data):
            entry.isBinary = true
            entry.binaryPrefix = Array(data.prefix(WebSocketPaneEntry.binaryPrefixLimit))
        }
        if record.direction == .incoming {
            receivedCount += 1
            bytesReceived += record.size
        } else {
            sentCount += 1
        }
        append(entry, masker: masker)
    }

    private mutating func addStatus(_ text: String, at time: Date, isError: Bool = false) {
        append(WebSocketPaneEntry(id: nextID, time: time, kind: .status, text: text, isError: isError))
    }

    private mutating func append(_ entry: WebSocketPaneEntry, masker: SecretMasker? = nil) {
        nextID += 1
        entries.append(entry)
        if !following && entry.matches(filter, masker: masker) { unseenWhilePaused += 1 }
    }

    // MARK: - Commands

    /// Applies a browsing command; returns what the app must do.
    public mutating func handle(_ command: WebSocketPaneCommand, masker: SecretMasker? = nil) -> [WebSocketPaneEffect] {
        switch command {
        case .connect:
            guard !url.isEmpty else { return [] }
            return [.connect(url: url, subscriptions: subscriptions)]
        case .disconnect: return [.disconnect]
        case .endStream: return [.endStream]
        case .compose: mode = .composing
        case .filter: mode = .filtering
        case .clearFilter: filterEditor = LineEditor()
        case .togglePause: if following { pause(masker: masker) } else { follow() }
        case .follow: follow()
        case .scrollUp: scroll(by: -1, masker: masker)
        case .scrollDown: if !following { scroll(by: 1, masker: masker) }
        case .pageUp: scroll(by: -max(1, pageSize - 1), masker: masker)
        case .pageDown: if !following { scroll(by: max(1, pageSize - 1), masker: masker) }
        case .oldest:
            pause(masker: masker)
            anchorID = oldestMatching(atOrAfter: 0, masker: masker).map { entries[$0].id }
        case .previousSaved: selectedSaved = max(0, selectedSaved - 1)
        case .nextSaved: selectedSaved = min(max(0, savedMessages.count - 1), selectedSaved + 1)
        case .sendSaved:
            guard savedMessages.indices.contains(selectedSaved) else { return [] }
            return sendIfOpen([wireText(selectedSaved)])
        case .sendAllSaved: return sendIfOpen(savedMessages.indices.map(wireText))
        case .toggleSubscription:
            guard savedMessages.indices.contains(selectedSaved) else { return [] }
            savedMessages[selectedSaved].isSubscription.toggle()
        case .togglePrettyJSON: prettyJSON.toggle()
        case .clearMessages:
            entries.removeAll()
            follow()
        case .saveMessages:
            return entries.isEmpty ? [] : [.saveMessages]
        }
        return []
    }

    /// The kept messages as NDJSON, one `courier ws --json` message object a line, oldest first; a first
    /// line says how many older messages were dropped. Texts cut at `bytesPerMessage` and binary messages
    /// (only their first bytes are kept) carry their full `size`.
    public func transcript() -> Data { transcript(fromEntryID: Int.min) }

    /// The kept messages from entry `first` on, as `transcript()` writes them; the dropped line comes first
    /// when messages from there on fell out.
    func transcript(fromEntryID first: Int) -> Data {
        var out = Data()
        if droppedCount > 0, entries.count == 0 || entries[0].id > first {
            out.append(Data(#"{"type":"dropped","count":\#(droppedCount),"kept":\#(entries.count)}"#.utf8))
            out.append(0x0A)
        }
        for index in 0..<entries.count {
            let entry = entries[index]
            guard entry.kind != .status, entry.id >= first else { continue }
            let message: WebSocketMessage = entry.isBinary ? .binary(Data(entry.binaryPrefix)) : .text(entry.text)
            let record = WebSocketMessageEvent(direction: entry.kind == .incoming ? .incoming : .outgoing,
                                               message: message, time: entry.time, isSubscription: entry.isSubscription)
            var line = WebSocketEvent.message(record).jsonLine
            if record.size < entry.size {
                // Only the start was kept: the object says how large the message really was.
                line.removeLast()
                line += #","full_size":\#(entry.size)}"#
            }
            out.append(Data(line.utf8))
            out.append(0x0A)
        }
        return out
    }

    private mutating func sendIfOpen(_ texts: [String]) -> [WebSocketPaneEffect] {
        guard case .open = connection else {
            addStatus("not connected: press \(connectKey) to connect", at: now, isError: true)
            return []
        }
        return texts.map { .send($0) }
    }

    /// Takes a key: through the keymap while browsing, into the send box or filter otherwise.
    public mutating func handle(key: Key, keymap: [KeyBinding<WebSocketPaneCommand>] = Self.keymap,
                                masker: SecretMasker? = nil) -> [WebSocketPaneEffect] {
        switch mode {
        case .browse:
            guard let command: WebSocketPaneCommand = keymap.command(for: key) else { return [] }
            return handle(command, masker: masker)
        case .filtering:
            if key.code == .enter || key.code == .escape {
                if key.code == .escape { filterEditor = LineEditor() }
                mode = .browse
                return []
            }
            filterEditor.handle(key)
            if !following { unseenWhilePaused = 0 }
            return []
        case .composing:
            if let command: WebSocketPaneComposeCommand = Self.composeKeymap.command(for: key) {
                return handle(compose: command)
            }
            sendBox.handle(key)
            return []
        }
    }

    /// Takes pasted text into whichever editor has the keys.
    public mutating func paste(_ text: String) {
        switch mode {
        case .composing: sendBox.paste(text)
        case .filtering: filterEditor.paste(text.replacingOccurrences(of: "\n", with: " "))
        case .browse:
            mode = .composing
            sendBox.paste(text)
        }
    }

    private mutating func handle(compose command: WebSocketPaneComposeCommand) -> [WebSocketPaneEffect] {
        switch command {
        case .send:
            let text = sendBox.text
            guard !text.isEmpty else { return [] }
            let effects = sendIfOpen([text])
            guard !effects.isEmpty else { return [] }
            if history.last != text { history.append(text) }
            if history.count > 100 { history.removeFirst(history.count - 100) }
            historyIndex = nil
            sendBox = TextAreaEditor()
            return effects
        case .newline:
            sendBox.newline()
        case .historyPrevious:
            guard !history.isEmpty else { return [] }
            let index = max(0, (historyIndex ?? history.count) - 1)
            historyIndex = index
            sendBox = TextAreaEditor(history[index])
        case .historyNext:
            guard let index = historyIndex else { return [] }
            if index + 1 < history.count {
                historyIndex = index + 1
                sendBox = TextAreaEditor(history[index + 1])
            } else {
                historyIndex = nil
                sendBox = TextAreaEditor()
            }
        case .cancel:
            mode = .browse
        }
        return []
    }
}
