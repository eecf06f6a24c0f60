import CourierSecurity
import Foundation

/// One line of JSON written value by value straight into a byte buffer: no dictionary, no key sorting, no
/// String per member (`courier run --json`, `courier send --json`, a script's input). The caller writes members in a fixed order (the `--json` objects write theirs in
/// alphabetical order, so they read as the sorted-key objects they always were). Strings are escaped as
/// `JSONSerialization` escapes them (quote, backslash, `\n \r \t \b \f`, other C0 as `\u00xx`);
/// `finishLine` then writes DEL, C1 and bidi controls as `\uXXXX` (`Sanitizer.escapeJSON`).
public struct JSONWriter {
    public private(set) var bytes: [UInt8] = []
    /// Whether the next member or element needs a comma before it.
    private var separated = false

    public init(capacity: Int = 512) {
        bytes.reserveCapacity(capacity)
    }

    // MARK: Structure

    public mutating func openObject() {
        comma()
        bytes.append(UInt8(ascii: "{"))
        separated = false
    }

    public mutating func closeObject() {
        bytes.append(UInt8(ascii: "}"))
        separated = true
    }

    public mutating func openArray() {
        comma()
        bytes.append(UInt8(ascii: "["))
        separated = false
    }

    public mutating func closeArray() {
        bytes.append(UInt8(ascii: "]"))
        separated = true
    }

    /// `"name":`, the value to follow.
    public mutating func key(_ name: StaticString) {
        comma()
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
        separated = false
    }

    /// `"name":` for a name known only at run time (escaped as any string).
    public mutating func key(_ name: String) {
        string(name)
        bytes.append(UInt8(ascii: ":"))
        separated = false
    }

    // MARK: Values

    public mutating func string(_ value: String) {
        comma()
        Self.appendQuoted(value, to: &bytes)
        separated = true
    }

    public mutating func int(_ value: Int) {
        comma()
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        appendDigits(value.magnitude)
        separated = true
    }

    /// A whole number as an integer, anything else as Swift spells a Double (`0.123`), as the sorted-key
    /// writer did; false (nothing written) for infinity or NaN, which JSON cannot hold.
    @discardableResult
    public mutating func double(_ value: Double) -> Bool {
        guard value.isFinite else { return false }
        if value == value.rounded() && abs(value) < 1e15 {
            int(Int(value))
        } else {
            comma()
            bytes.append(contentsOf: "\(value)".utf8)
            separated = true
        }
        return true
    }

    public mutating func bool(_ value: Bool) { raw(value ? "true" : "false") }

    public mutating func null() { raw("null") }

    /// Text that is already JSON (a value another writer produced).
    public mutating func raw(_ json: String) {
        comma()
        bytes.append(contentsOf: json.utf8)
        separated = true
    }

    // MARK: Members

    public mutating func member(_ name: StaticString, _ value: String) { key(name); string(value) }
    public mutating func member(_ name: StaticString, _ value: Int) { key(name); int(value) }
    public mutating func member(_ name: StaticString, _ value: Bool) { key(name); bool(value) }
    public mutating func member(_ name: StaticString, _ value: String?) {
        key(name)
        if let value { string(value) } else { null() }
    }
    public mutating func member(_ name: StaticString, _ value: Int?) {
        key(name)
        if let value { int(value) } else { null() }
    }
    public mutating func member(_ name: StaticString, _ value: Double?) {
        key(name)
        if let value, double(value) { return }
        null()
    }
    public mutating func nullMember(_ name: StaticString) { key(name); null() }
    /// An object of string members, in the dictionary's order.
    public mutating func object(_ members: [String: String]) {
        openObject()
        for (name, value) in members {
            key(name)
            string(value)
        }
        closeObject()
    }
    public mutating func member(_ name: StaticString, strings: [String]) {
        key(name)
        openArray()
        for value in strings { string(value) }
        closeArray()
    }

    // MARK: The line

    /// The line's bytes with dangerous scalars escaped (`Sanitizer.escapeJSON`), ready to print.
    public mutating func finishLine() -> [UInt8] {
        Sanitizer.escapeJSON(&bytes, from: 0)
        return bytes
    }

    // MARK: Bytes

    private mutating func comma() {
        if separated { bytes.append(UInt8(ascii: ",")) }
    }

    private mutating func appendDigits(_ value: UInt) {
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var rest = value
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                count += 1
                buffer[20 - count] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            bytes.append(contentsOf: buffer[(20 - count)...])
        }
    }

    /// Whether a UTF-8 byte may need an escape in a JSON string: quote, backslash, C0.
    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    /// `text` as a JSON string literal. Most strings need no escape and are copied whole.
    public static func appendQuoted(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        let plain = text.withUTF8 { utf8 in
            guard !utf8.contains(where: needsEscape) else { return false }
            bytes.append(contentsOf: utf8)
            return true
        }
        if !plain {
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": bytes.append(contentsOf: [92, UInt8(ascii: "\"")])
                case "\\": bytes.append(contentsOf: [92, 92])
                case "\n": bytes.append(contentsOf: [92, UInt8(ascii: "n")])
                case "\r": bytes.append(contentsOf: [92, UInt8(ascii: "r")])
                case "\t": bytes.append(contentsOf: [92, UInt8(ascii: "t")])
                case "\u{08}": bytes.append(contentsOf: [92, UInt8(ascii: "b")])
                case "\u{0C}": bytes.append(contentsOf: [92, UInt8(ascii: "f")])
                case let control where control.value < 0x20:
                    bytes.append(contentsOf: [92, UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
                    bytes.append(hexDigits[Int(control.value >> 4)])
                    bytes.append(hexDigits[Int(control.value & 0xF)])
                default:
                    bytes.append(contentsOf: scalar.utf8)
                }
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
