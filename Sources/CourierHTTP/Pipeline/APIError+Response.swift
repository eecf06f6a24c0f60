import Foundation

extension APIError {
    /// The error an error status stands for, or nil for 1xx–3xx. 401 is `.unauthorized`; any other
    /// status ≥ 400 is `.http` carrying the server's own message when its JSON body has one.
    public init?(response: HTTPResponse) {
        guard response.status >= 400 else { return nil }
        let body = (try? response.body.readAll()) ?? Data()
        if response.status == 401 {
            self = .unauthorized(body: body)
        } else {
            self = .http(status: response.status, body: body, message: ServerMessage.extract(from: body))
        }
    }
}

/// Finds the human message in an error body, the way common APIs shape it.
public enum ServerMessage {
    /// Keys that hold the message, in order of preference.
    public static let keys = ["message", "error", "detail", "error_description", "title"]

    /// The message of a JSON error body (`{"message": …}`, `{"error": {"message": …}}`, …), or nil.
    public static func extract(from body: Data) -> String? {
        guard !body.isEmpty, body.count < 1 << 20,
              let object = try? JSONSerialization.jsonObject(with: body) else { return nil }
        return message(in: object, depth: 0)
    }

    private static func message(in object: Any, depth: Int) -> String? {
        guard depth < 3, let dictionary = object as? [String: Any] else { return nil }
        for key in keys {
            if let text = dictionary[key] as? String, !text.isEmpty { return text }
            if let nested = dictionary[key], let text = message(in: nested, depth: depth + 1) { return text }
        }
        return nil
    }
}
