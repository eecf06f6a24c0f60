import Foundation

/// The stable one-line JSON form of each event, as `courier ws --json` prints it. Written by hand
/// (fixed key order, no Foundation encoder) because it runs once per message at full stream speed.
extension WebSocketEvent {
    /// The event as one JSON object without a trailing newline.
    public var jsonLine: String {
        let payload = if case .message(let record) = self { record.size } else { 0 }
        var out = JSONLineWriter(capacity: 160 + payload * 4 / 3)
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
            out.key("time", timestamp: record.time)
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
            out.key("kind", string: error.kind.rawValue)
            out.key("message", string: error.description)
            if case .handshakeRejected(let status, _, _) = error { out.key("status", number: String(status)) }
        }
        return out.finish()
    }
}

/// Builds one JSON object key by key.
struct JSONLineWriter {
    private var bytes: [UInt8]

    /// Room for `capacity` bytes up front, so a line is built without growing its buffer.
    init(capacity: Int = 64) {
        bytes = []
        bytes.reserveCapacity(capacity)
        bytes.append(UInt8(ascii: "{"))
    }

    mutating func key(_ name: String, string value: String) {
        separator(name)
        Self.appendQuoted(value, to: &bytes)
    }

    mutating func key(_ name: String, number value: String) { key(name, raw: value) }

    mutating func key(_ name: String, raw value: String) {
        separator(name)
        bytes.append(contentsOf: value.utf8)
    }

    /// An RFC 3339 UTC timestamp with milliseconds, written digit by digit (it runs once per message).
    mutating func key(_ name: String, timestamp date: Date) {
        separator(name)
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        var seconds = time_t(milliseconds / 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        bytes.append(UInt8(ascii: "\""))
        appendDigits(Int(parts.tm_year) + 1900, width: 4)
        bytes.append(UInt8(ascii: "-"))
        appendDigits(Int(parts.tm_mon) + 1, width: 2)
        bytes.append(UInt8(ascii: "-"))
        appendDigits(Int(parts.tm_mday), width: 2)
        bytes.append(UInt8(ascii: "T"))
        appendDigits(Int(parts.tm_hour), width: 2)
        bytes.append(UInt8(ascii: ":"))
        appendDigits(Int(parts.tm_min), width: 2)
        bytes.append(UInt8(ascii: ":"))
        appendDigits(Int(parts.tm_sec), width: 2)
        bytes.append(UInt8(ascii: "."))
        appendDigits(Int(milliseconds % 1000), width: 3)
        bytes.append(contentsOf: [UInt8(ascii: "Z"), UInt8(ascii: "\"")])
    }

    /// `value` in decimal, zero-padded to `width` digits.
    private mutating func appendDigits(_ value: Int, width: Int) {
        let digits = String(max(0, value)).utf8
        if digits.count < width { bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: width - digits.count)) }
        bytes.append(contentsOf: digits)
    }

    mutating func finish() -> String {
        bytes.append(UInt8(ascii: "}"))
        return String(decoding: bytes, as: UTF8.self)
    }

    private mutating func separator(_ name: String) {
        if bytes.count > 1 { bytes.append(UInt8(ascii: ",")) }
        Self.appendQuoted(name, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
    }

    private static let hex = Array("0123456789abcdef".utf8)

    /// A JSON string literal: quotes, backslashes and control characters escaped (RFC 8259 section 7).
    /// Runs of bytes that need no escape are copied whole (it runs once per message at stream speed).
    static func appendQuoted(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var runStart = 0
            for index in 0..<utf8.count {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0x7F else {
                    continue
                }
                if runStart < index { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index])) }
                appendEscaped(byte, to: &bytes)
                runStart = index + 1
            }
            if runStart < utf8.count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...])) }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// One byte that JSON cannot hold as it is.
    private static func appendEscaped(_ byte: UInt8, to bytes: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "\""): bytes.append(contentsOf: [92, 34])
        case UInt8(ascii: "\\"): bytes.append(contentsOf: [92, 92])
        case 0x0A: bytes.append(contentsOf: [92, UInt8(ascii: "n")])
        case 0x0D: bytes.append(contentsOf: [92, UInt8(ascii: "r")])
        case 0x09: bytes.append(contentsOf: [92, UInt8(ascii: "t")])
        default:
            bytes.append(contentsOf: [92, UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
            bytes.append(hex[Int(byte >> 4)])
            bytes.append(hex[Int(byte & 0xF)])
        }
    }
}
