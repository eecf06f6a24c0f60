import CourierBody
import CourierSecurity
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

    /// Whether the filter (lower-cased) matches what the pane shows: the text with known secret values
    /// masked (typing a secret into the filter must not tell which messages hold it), or the hex of a
    /// binary message.
    func matches(_ lowercasedFilter: String, masker: SecretMasker?) -> Bool {
        if lowercasedFilter.isEmpty { return true }
        if isBinary { return HexDump.pairs(binaryPrefix).contains(lowercasedFilter) }
        return (masker?.mask(text) ?? text).lowercased().contains(lowercasedFilter)
    }
}

extension WebSocketPaneEntry {
    /// What the entry costs against the window's byte budget: its kept payload and a fixed overhead.
    var weight: Int { text.utf8.count + binaryPrefix.count + 64 }

    /// The empty value that replaces an entry once it falls out, so its payload is freed at once.
    static let released = WebSocketPaneEntry(id: -1, time: Date(timeIntervalSince1970: 0), kind: .status)
}
