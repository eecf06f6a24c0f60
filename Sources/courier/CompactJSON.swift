import Foundation

/// One-line JSON with sorted keys, as `JSONSerialization` with `.sortedKeys` and `.withoutEscapingSlashes`
/// writes it, for the objects every `--json` prints (send, run, load, auth, cookies, cache, history): written straight into a string, because Foundation's writer
/// (its key sorting above all) was most of `courier run --json`'s time. A value of a type it does not know
/// (an `NSNumber` from parsed JSON, say) is written by `JSONSerialization` itself.
enum CompactJSON {
    /// `object` as one line of JSON; nil when a value cannot be written as JSON.
    static func string(_ object: [String: Any]) -> String? {
        var output = ""
        output.reserveCapacity(256)
        return write(object, into: &output) ? output : nil
    }

    private static func write(_ value: Any, into output: inout String) -> Bool {
        // Exact types first: Linux bridges numbers and booleans into each other through `as?`.
        switch value {
        case let text as String:
            writeString(text, into: &output)
        case let object as [String: Any]:
            output += "{"
            for (index, key) in object.keys.sorted().enumerated() {
                if index > 0 { output += "," }
                writeString(key, into: &output)
                output += ":"
                guard write(object[key]!, into: &output) else { return false }
            }
            output += "}"
        case let array as [Any]:
            output += "["
            for (index, element) in array.enumerated() {
                if index > 0 { output += "," }
                guard write(element, into: &output) else { return false }
            }
            output += "]"
        case is NSNull:
            output += "null"
        default:
            if type(of: value) == Bool.self, let flag = value as? Bool {
                output += flag ? "true" : "false"
            } else if type(of: value) == Int.self, let number = value as? Int {
                output += String(number)
            } else if type(of: value) == Double.self, let number = value as? Double {
                guard number.isFinite else { return false }
                output += number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : "\(number)"
            } else {
                guard let data = try? JSONSerialization.data(withJSONObject: [value],
                                                             options: [.sortedKeys, .withoutEscapingSlashes]),
                      let text = String(data: data, encoding: .utf8) else { return false }
                output += text.dropFirst().dropLast()
            }
        }
        return true
    }

    private static func writeString(_ text: String, into output: inout String) {
        output += "\""
        // Most strings need no escape: append them whole.
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            output += text
        } else {
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": output += "\\\""
                case "\\": output += "\\\\"
                case "\n": output += "\\n"
                case "\r": output += "\\r"
                case "\t": output += "\\t"
                case "\u{08}": output += "\\b"
                case "\u{0C}": output += "\\f"
                case let control where control.value < 0x20:
                    let hex = String(control.value, radix: 16)
                    output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                default: output.unicodeScalars.append(scalar)
                }
            }
        }
        output += "\""
    }
}
