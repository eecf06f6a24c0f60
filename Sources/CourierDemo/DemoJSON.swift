import Foundation

/// JSON encoding and decoding for the demo endpoints, on Foundation's JSONSerialization.
enum DemoJSON {
    /// Compact JSON with sorted keys (stable bytes, so ETags and tests are stable).
    static func encode(_ object: Any) -> [UInt8] {
        guard JSONSerialization.isValidJSONObject(object),
              let data = try? JSONSerialization.data(withJSONObject: object,
                                                      options: [.sortedKeys, .withoutEscapingSlashes])
        else { return Array("null".utf8) }
        return Array(data)
    }

    /// Encodes one value as a string (for NDJSON lines and SSE data).
    static func line(_ object: Any) -> String { String(decoding: encode(object), as: UTF8.self) }

    /// Parses a JSON object body; nil when the body is not one.
    static func object(_ body: Data) -> [String: Any]? {
        guard !body.isEmpty else { return nil }
        return (try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])) as? [String: Any]
    }

    /// Parses any JSON value; nil when the body is not JSON.
    static func value(_ body: Data) -> Any? {
        guard !body.isEmpty else { return nil }
        return try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])
    }
}
