import Foundation

/// The kept entries, oldest first: appends are O(1) amortised, and the oldest entries fall out once
/// the count or the byte budget of the window is passed, so a fast stream never grows memory without
/// limit. Entries that fall out are counted in `dropped`.
public struct WebSocketEntryRing: Sendable, Hashable {
    public private(set) var window: WebSocketPaneWindow
    /// Entries kept at most (the window's message count).
    public var capacity: Int { window.messages }
    /// Entries that fell out of the window since the last `removeAll`.
    public private(set) var dropped = 0
    /// Payload bytes of the kept entries.
    public private(set) var bytes = 0
    private var storage: [WebSocketPaneEntry] = []
    /// Index in `storage` of the oldest kept entry; the slots before it are released placeholders.
    private var head = 0

    public init(capacity: Int) { self.init(window: WebSocketPaneWindow(messages: capacity)) }

    public init(window: WebSocketPaneWindow) { self.window = window }

    public var count: Int { storage.count - head }
    public var isEmpty: Bool { count == 0 }

    /// The entry at `index`, 0 being the oldest kept.
    public subscript(index: Int) -> WebSocketPaneEntry { storage[head + index] }

    public var first: WebSocketPaneEntry? { isEmpty ? nil : self[0] }
    public var last: WebSocketPaneEntry? { isEmpty ? nil : self[count - 1] }

    /// Appends, dropping the oldest entries while the window is exceeded (the newest always stays).
    public mutating func append(_ entry: WebSocketPaneEntry) {
        storage.append(entry)
        bytes += entry.weight
        while count > 1 && (count > window.messages || bytes > window.bytes) {
            bytes -= storage[head].weight
            if storage[head].kind != .status { dropped += 1 }
            storage[head] = WebSocketPaneEntry.released
            head += 1
        }
        // Compacts once the released slots outnumber the kept ones: amortised O(1) per append.
        if head > 64 && head >= count {
            storage.removeFirst(head)
            head = 0
        }
    }

    /// Counts messages dropped before they reached the ring.
    public mutating func countDropped(_ messages: Int) { dropped += messages }

    /// The index of the entry with `id`, if it is still kept (ids are consecutive).
    public func index(of id: Int) -> Int? {
        guard let first else { return nil }
        let index = id - first.id
        return index >= 0 && index < count ? index : nil
    }

    public mutating func removeAll() {
        storage.removeAll()
        head = 0
        bytes = 0
        dropped = 0
    }
}
