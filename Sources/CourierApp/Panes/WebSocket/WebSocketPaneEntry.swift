import CourierWebSocket
import Foundation

/// One row of the WebSocket pane's history: a message in or out, or a connection event.
public struct WebSocketPaneEntry: Sendable, Hashable {
    /// What the row shows.
    public enum Kind: Sendable, Hashable {
        case incoming
        case outgoing
        /// Connected, closed, reconnecting, errors: drawn muted between the messages.
        case status
    }

    /// Increases by one per entry over the pane's life, so a paused view can hold its place.
    public var id: Int
    public var time: Date
    public var kind: Kind
    /// Payload bytes (messages) or 0 (status rows).
    public var size: Int
    /// The text, or the status line; empty for binary.
    public var text: String
    /// The first bytes of a binary message, for the hex view.
    public var binaryPrefix: [UInt8]
    public var isBinary: Bool
    /// A subscription message re-sent on (re)connect.
    public var isSubscription: Bool
    /// Status rows that report a failure are drawn in the error style.
    public var isError: Bool

    /// How many bytes of a binary message are kept for display; the rest is only counted.
    public static let binaryPrefixLimit = 256

    public init(id: Int, time: Date, kind: Kind, size: Int = 0, text: String = "", binaryPrefix: [UInt8] = [],
                isBinary: Bool = false, isSubscription: Bool = false, isError: Bool = false) {
        self.id = id
        self.time = time
        self.kind = kind
        self.size = size
        self.text = text
        self.binaryPrefix = binaryPrefix
        self.isBinary = isBinary
        self.isSubscription = isSubscription
        self.isError = isError
    }

    /// Whether the filter (lower-cased) matches: the text, or the hex of a binary message.
    func matches(_ lowercasedFilter: String) -> Bool {
        if lowercasedFilter.isEmpty { return true }
        if isBinary { return WebSocketPaneFormat.hex(binaryPrefix).contains(lowercasedFilter) }
        return text.lowercased().contains(lowercasedFilter)
    }
}

/// A fixed-capacity ring of entries: appends are O(1) and the oldest entry falls out when full, so
/// a fast stream never grows memory without limit.
public struct WebSocketEntryRing: Sendable, Hashable {
    public private(set) var capacity: Int
    private var storage: [WebSocketPaneEntry] = []
    private var head = 0

    public init(capacity: Int) { self.capacity = max(1, capacity) }

    public var count: Int { storage.count }
    public var isEmpty: Bool { storage.isEmpty }

    /// The entry at `index`, 0 being the oldest kept.
    public subscript(index: Int) -> WebSocketPaneEntry { storage[(head + index) % storage.count] }

    public var first: WebSocketPaneEntry? { isEmpty ? nil : self[0] }
    public var last: WebSocketPaneEntry? { isEmpty ? nil : self[count - 1] }

    /// Appends, dropping the oldest entry when full.
    public mutating func append(_ entry: WebSocketPaneEntry) {
        if storage.count < capacity {
            storage.append(entry)
        } else {
            storage[head] = entry
            head = (head + 1) % capacity
        }
    }

    /// The index of the entry with `id`, if it is still kept (ids are consecutive).
    public func index(of id: Int) -> Int? {
        guard let first else { return nil }
        let index = id - first.id
        return index >= 0 && index < count ? index : nil
    }

    public mutating func removeAll() {
        storage.removeAll()
        head = 0
    }
}
