import CourierBody
import Foundation

/// One-line JSON with sorted keys, as `JSONSerialization` with `.sortedKeys` and `.withoutEscapingSlashes`
/// writes it, for the dictionaries some `--json` outputs build (load, auth, cookies, cache, history), written
/// through `JSONWriter`. A value of a type it does not know (an `NSNumber` from parsed JSON, say) is written by
/// `JSONSerialization` itself. The hot outputs (`send` and `run`) write their objects member by member instead.
enum CompactJSON {
    /// `object` as one line of JSON; nil when a value cannot be written as JSON.
    static func string(_ object: [String: Any]) -> String? {
        var writer = JSONWriter(capacity: 256)
        guard write(object, into: &writer) else { return nil }
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    private static func write(_ value: Any, into writer: inout JSONWriter) -> Bool {
        // Exact types first: Linux bridges numbers and booleans into each other through `as?`.
        switch value {
        case let text as String:
            writer.string(text)
        case let object as [String: Any]:
            writer.openObject()
            for key in object.keys.sorted() {
                writer.key(key)
                guard write(object[key]!, into: &writer) else { return false }
            }
            writer.closeObject()
        case let array as [Any]:
            writer.openArray()
            for element in array {
                guard write(element, into: &writer) else { return false }
            }
            writer.closeArray()
        case is NSNull:
            writer.null()
        default:
            if type(of: value) == Bool.self, let flag = value as? Bool {
                writer.bool(flag)
            } else if type(of: value) == Int.self, let number = value as? Int {
                writer.int(number)
            } else if type(of: value) == Double.self, let number = value as? Double {
                return writer.double(number)
            } else {
                guard let data = try? JSONSerialization.data(withJSONObject: [value],
                                                             options: [.sortedKeys, .withoutEscapingSlashes]),
                      let text = String(data: data, encoding: .utf8) else { return false }
                writer.raw(String(text.dropFirst().dropLast()))
            }
        }
        return true
    }
}
