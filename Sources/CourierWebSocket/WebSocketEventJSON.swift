import Foundation

/// The stable one-line JSON form of each event, as `courier ws --json` prints it. Written by hand
/// (fixed key order, no Foundation encoder) because it runs once per message at full stream speed.
extension WebSocketEvent {
    /// The event as one JSON object without a trailing newline.
    public var jsonLine: String {
        var out = JSONLineWriter()
        switch self {
        case .connecting(let url, let attempt):
            out.key("type", string: "connecting")
            out.key("url", string: url.absoluteString)
            out.key("attempt", number: String(attempt))
        case .connected(let url, let chosen):
            out.key("type", string: "open")
            out.key("url", string: url.absoluteString)
            if let chosen { out.key("protocol", string: chosen) } else { out.key("protocol", raw: "null") }
        case .message(let record):
            out.key("type", string: "message")
            out.key("dir", string: record.direction.rawValue)
            switch record.message {
            case .text(let text): out.key("text", string: text)
            case .binary(let data): out.key("base64", string: data.base64EncodedString())
            }
            out.key("size", number: String(record.size))
            out.key("time", string: JSONLineWriter.timestamp(record.time))
            if record.isSubscription { out.key("subscription", raw: "true") }
        case .ping:
            out.key("type", string: "ping")
        case .pong(let roundTrip):
            out.key("type", string: "pong")
            if let roundTrip { out.key("rtt_ms", number: String(format: "%.3f", roundTrip * 1000)) }
        case .closed(let info):
            out.key("type", string: "close")
            out.key("code", number: String(info.code.rawValue))
            out.key("reason", string: info.reason)
            out.key("clean", raw: info.wasClean ? "true" : "false")
            out.key("by_user", raw: info.byUser ? "true" : "false")
            if let error = info.error { out.key("error", string: error.description) }
        case .reconnecting(let delay, let attempt):
            out.key("type", string: "reconnecting")
            out.key("in", number: String(format: "%.3f", delay))
            out.key("attempt", number: String(attempt))
        case .error(let error):
            out.key("type", string: "error")
            out.key("kind", string: error.kind)
            out.key("message", string: error.description)
            if case .handshakeRejected(let status, _, _) = error { out.key("status", number: String(status)) }
        }
        return out.finish()
    }
}

/// Builds one JSON object key by key.
struct JSONLineWriter {
    private var bytes: [UInt8] = [UInt8(ascii: "{")]

    mutating func key(_ name: String, string value: String) {
        separator(name)
        Self.appendQuoted(value, to: &bytes)
    }

    mutating func key(_ name: String, number value: String) { key(name, raw: value) }

    mutating func key(_ name: String, raw value: String) {
        separator(name)
        bytes.append(contentsOf: value.utf8)
    }

    func finish() -> String { String(decoding: bytes + [UInt8(ascii: "}")], as: UTF8.self) }

    private mutating func separator(_ name: String) {
        if bytes.count > 1 { bytes.append(UInt8(ascii: ",")) }
        Self.appendQuoted(name, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
    }

    private static let hex = Array("0123456789abcdef".utf8)

    /// A JSON string literal: quotes, backslashes and control characters escaped (RFC 8259 section 7).
    static func appendQuoted(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [92, 34])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [92, 92])
            case 0x0A: bytes.append(contentsOf: [92, UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [92, UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [92, UInt8(ascii: "t")])
            case 0..<0x20, 0x7F:
                bytes.append(contentsOf: Array("\\u00".utf8))
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0xF)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// An RFC 3339 UTC timestamp with milliseconds, formatted without a DateFormatter (per message).
    static func timestamp(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        var seconds = time_t(milliseconds / 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func pad(_ value: Int32, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))T"
            + "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2))."
            + "\(pad(Int32(milliseconds % 1000), 3))Z"
    }
}
