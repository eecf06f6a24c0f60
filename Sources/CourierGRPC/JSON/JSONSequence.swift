/// Splits text holding several JSON values one after another (`{"a":1} {"a":2}`, one per line or not)
/// into the text of each, as grpcurl reads `-d` for client streams. Strings and escapes are respected;
/// whether each part is valid JSON is left to the parser.
public enum JSONSequence {
    public static func split(_ text: String) -> [String] {
        var parts: [String] = []
        var current: [UInt8] = []
        var depth = 0
        var inString = false
        var escaped = false
        var scalarOpen = false
        func flush() {
            let part = String(decoding: current, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            if !part.isEmpty { parts.append(part) }
            current = []
            scalarOpen = false
        }
        for byte in text.utf8 {
            if inString {
                current.append(byte)
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true }
                else if byte == UInt8(ascii: "\"") { inString = false; if depth == 0 { flush() } }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                if depth == 0 && scalarOpen { flush() }
                inString = true
                current.append(byte)
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                if depth == 0 && scalarOpen { flush() }
                depth += 1
                current.append(byte)
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                current.append(byte)
                if depth <= 0 { depth = 0; flush() }
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"):
                if depth == 0 { if scalarOpen { flush() } } else { current.append(byte) }
            default:
                if depth == 0 { scalarOpen = true }
                current.append(byte)
            }
        }
        flush()
        return parts
    }
}

import Foundation
