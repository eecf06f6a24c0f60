import Foundation

/// Writes events as `courier ws --json` lines (the form `WebSocketEvent.jsonLine` returns) straight
/// into a byte buffer. Keep one for a whole stream: it remembers the date and time of the last second it
/// wrote, so a stream of messages formats a calendar date once per second rather than once per message.
public struct WebSocketEventJSONEncoder: Sendable {
    /// The whole second (milliseconds / 1000) that `secondText` spells.
    private var second: Int64?
    /// `2025-11-29T18:13:20.` for `second`.
    private var secondText: [UInt8] = []

    public init() {}

    /// Appends `event` as one JSON object (no newline) to the end of `bytes`.
    public mutating func append(_ event: WebSocketEvent, to bytes: inout [UInt8]) {
        let payload = if case .message(let record) = event { record.size } else { 0 }
        var out = JSONLineWriter(taking: &bytes, capacity: 160 + payload * 4 / 3)
        switch event {
        case .connecting(let url, let attempt):
            out.key("type", raw: "\"connecting\"")
            out.key("url", string: url.absoluteString)
            out.key("attempt", number: attempt)
        case .connected(let url, let chosen):
            out.key("type", raw: "\"open\"")
            out.key("url", string: url.absoluteString)
            if let chosen { out.key("protocol", string: chosen) } else { out.key("protocol", raw: "null") }
        case .message(let record):
            out.key("type", raw: "\"message\"")
            out.key("dir", raw: record.direction == .incoming ? "\"in\"" : "\"out\"")
            switch record.message {
            case .text(let text): out.key("text", string: text)
            case .binary(let data): out.key("base64", string: data.base64EncodedString())
            }
            out.key("size", number: record.size)
            appendTimestamp(record.time, named: "time", to: &out)
            if record.isSubscription { out.key("subscription", raw: "true") }
        case .ping:
            out.key("type", raw: "\"ping\"")
        case .pong(let roundTrip):
            out.key("type", raw: "\"pong\"")
            if let roundTrip { out.key("rtt_ms", number: String(format: "%.3f", roundTrip * 1000)) }
        case .closed(let info):
            out.key("type", raw: "\"close\"")
            out.key("code", number: Int(info.code.rawValue))
            out.key("reason", string: info.reason)
            out.key("clean", raw: info.wasClean ? "true" : "false")
            out.key("by_user", raw: info.byUser ? "true" : "false")
            if let error = info.error { out.key("error", string: error.description) }
        case .reconnecting(let delay, let attempt):
            out.key("type", raw: "\"reconnecting\"")
            out.key("in", number: String(format: "%.3f", delay))
            out.key("attempt", number: attempt)
        case .error(let error):
            out.key("type", raw: "\"error\"")
            out.key("kind", string: error.kind.rawValue)
            out.key("message", string: error.description)
            if case .handshakeRejected(let status, _, _) = error { out.key("status", number: status) }
        }
        out.finish(into: &bytes)
    }

    /// An RFC 3339 UTC timestamp with milliseconds: the date and time to the second come from the
    /// cache while the second is the same, only the milliseconds are written each time.
    private mutating func appendTimestamp(_ date: Date, named name: StaticString, to out: inout JSONLineWriter) {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        let whole = milliseconds / 1000
        if second != whole {
            second = whole
            secondText = Self.secondText(whole)
        }
        out.key(name, timestamp: secondText, milliseconds: Int(milliseconds % 1000))
    }

    /// `YYYY-MM-DDTHH:MM:SS.` for a whole second since 1970 (UTC).
    private static func secondText(_ whole: Int64) -> [UInt8] {
        var seconds = time_t(whole)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        var text: [UInt8] = []
        text.reserveCapacity(24)
        let fields: [(Int32, Int, UInt8)] = [
            (parts.tm_year + 1900, 4, UInt8(ascii: "-")), (parts.tm_mon + 1, 2, UInt8(ascii: "-")),
            (parts.tm_mday, 2, UInt8(ascii: "T")), (parts.tm_hour, 2, UInt8(ascii: ":")),
            (parts.tm_min, 2, UInt8(ascii: ":")), (parts.tm_sec, 2, UInt8(ascii: ".")),
        ]
        for (value, width, separator) in fields {
            JSONLineWriter.appendDigits(UInt(max(0, value)), width: width, to: &text)
            text.append(separator)
        }
        return text
    }
}
