import Foundation

/// The stable one-line JSON form of each event, as `courier ws --json` prints it. Written by hand
/// (fixed key order, no Foundation encoder) because it runs once per message at full stream speed.
extension WebSocketEvent {
    /// The event as one JSON object without a trailing newline.
    public var jsonLine: String {
        var bytes: [UInt8] = []
        var encoder = WebSocketEventJSONEncoder()
        encoder.append(self, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// Writes one JSON object key by key at the end of a byte buffer it borrows (so a stream of lines
/// shares one buffer and no line is built on its own).
struct JSONLineWriter {
    private(set) var bytes: [UInt8]
    /// Where this object starts in `bytes`: the first key has no comma before it.
    private let start: Int

    /// Takes over `buffer` (left empty until `finish` hands it back) and opens an object at its end.
    init(taking buffer: inout [UInt8], capacity: Int = 64) {
        bytes = []
        swap(&bytes, &buffer)
        start = bytes.count
        bytes.reserveCapacity(bytes.count + capacity)
        bytes.append(UInt8(ascii: "{"))
    }

    mutating func key(_ name: StaticString, string value: String) {
        separator(name)
        Self.appendQuoted(value, to: &bytes)
    }

    mutating func key(_ name: StaticString, number value: Int) {
        separator(name)
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        Self.appendDigits(value.magnitude, width: 1, to: &bytes)
    }

    mutating func key(_ name: StaticString, number value: String) { key(name, raw: value) }

    mutating func key(_ name: StaticString, raw value: String) {
        separator(name)
        bytes.append(contentsOf: value.utf8)
    }

    /// `"name":"2025-11-29T18:13:20.250Z"`: the date and time to the second as `second` spells it
    /// (`2025-11-29T18:13:20.`), then the milliseconds.
    mutating func key(_ name: StaticString, timestamp second: [UInt8], milliseconds: Int) {
        separator(name)
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: second)
        Self.appendDigits(UInt(max(0, milliseconds)), width: 3, to: &bytes)
        bytes.append(contentsOf: [UInt8(ascii: "Z"), UInt8(ascii: "\"")])
    }

    /// `value` in decimal, zero-padded to `width` digits, written without building a String.
    static func appendDigits(_ value: UInt, width: Int, to bytes: inout [UInt8]) {
        var count = 1
        var rest = value / 10
        while rest > 0 { count += 1; rest /= 10 }
        if count < width { bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: width - count)) }
        let end = bytes.count + count
        bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: count))
        var remaining = value
        var index = end - 1
        while remaining > 0 {
            bytes[index] = UInt8(ascii: "0") + UInt8(remaining % 10)
            remaining /= 10
            index -= 1
        }
    }

    /// Closes the object and hands the buffer back.
    mutating func finish(into buffer: inout [UInt8]) {
        bytes.append(UInt8(ascii: "}"))
        swap(&bytes, &buffer)
    }

    private mutating func separator(_ name: StaticString) {
        if bytes.count > start + 1 { bytes.append(UInt8(ascii: ",")) }
        bytes.append(UInt8(ascii: "\""))
        append(name)
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
    }

    private mutating func append(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
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
