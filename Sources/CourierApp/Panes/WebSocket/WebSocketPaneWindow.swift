import CourierWebSocket
import Foundation

/// How much of a WebSocket stream the explorer keeps in memory: the newest messages up to a count and
/// a byte budget, whichever is reached first. Older messages are dropped and counted, never kept, so a
/// fast stream cannot grow the explorer's memory without limit.
public struct WebSocketPaneWindow: Sendable, Hashable {
    /// Messages kept at most.
    public var messages: Int
    /// Payload bytes kept at most, over every kept message.
    public var bytes: Int

    public static let defaultMessages = 5_000
    public static let defaultBytes = 16 << 20

    public init(messages: Int = Self.defaultMessages, bytes: Int = Self.defaultBytes) {
        self.messages = max(1, messages)
        self.bytes = max(1024, bytes)
    }

    /// Text kept of one message at most (its full size is still counted and shown): a sixteenth of the
    /// budget, so one huge message cannot push every other one out.
    public var bytesPerMessage: Int { max(512, bytes / 16) }

    /// The window the explorer uses: `COURIER_WS_KEEP_MESSAGES` and `COURIER_WS_KEEP_BYTES` (a number,
    /// optionally with K, M or G) when set, the defaults otherwise.
    public static let standard = fromEnvironment(ProcessInfo.processInfo.environment)

    /// The window from these environment variables; values that are not numbers keep the defaults.
    public static func fromEnvironment(_ environment: [String: String]) -> Self {
        let messages = environment["COURIER_WS_KEEP_MESSAGES"].flatMap(Self.size) ?? defaultMessages
        let bytes = environment["COURIER_WS_KEEP_BYTES"].flatMap(Self.size) ?? defaultBytes
        return Self(messages: messages, bytes: bytes)
    }

    /// "5000", "64K", "16M", "1G".
    static func size(_ text: String) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).uppercased()
        let multipliers: [Character: Int] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
        if let last = trimmed.last, let multiplier = multipliers[last] {
            return Int(trimmed.dropLast()).flatMap { $0 >= 0 && $0 <= Int.max / multiplier ? $0 * multiplier : nil }
        }
        return Int(trimmed).flatMap { $0 >= 0 ? $0 : nil }
    }
}
