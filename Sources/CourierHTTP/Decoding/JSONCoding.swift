import Foundation

/// The one JSON decoder of the client core, with dates in the common ISO 8601 shapes.
public enum JSONCoding {
    /// Shared by every endpoint: decoders are configured once, here, so dates parse alike everywhere.
    public static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = ISO8601.parse(text) else {
                throw DecodingError.dataCorruptedError(in: container,
                                                       debugDescription: "not an ISO 8601 date: \(text)")
            }
            return date
        }
        return decoder
    }()

    /// The encoder of Courier's own state files (the cookie jar, the OAuth 2.0 token cache): indented with
    /// sorted keys so a file diffs line by line, dates in ISO 8601.
    public static var stateFileEncoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    /// The decoder of the state files `stateFileEncoder` writes.
    public static var stateFileDecoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    /// Decodes `type`, turning a `DecodingError` into `APIError.decoding` with its coding path.
    public static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws(APIError) -> T {
        do {
            return try decoder.decode(type, from: data)
        } catch let error as DecodingError {
            throw APIError.decoding(path: error.codingPathDescription, underlying: error.summary)
        } catch {
            throw APIError.decoding(path: "", underlying: String(describing: error))
        }
    }
}

extension DecodingError {
    /// The path to the failing value, written like `users[3].email`.
    public var codingPathDescription: String {
        var path = context?.codingPath ?? []
        if case .keyNotFound(let key, _) = self { path.append(key) }
        return path.reduce(into: "") { text, key in
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
    }

    /// What went wrong, without the path.
    public var summary: String {
        switch self {
        case .typeMismatch(let type, let context): "expected \(type): \(context.debugDescription)"
        case .valueNotFound(let type, let context): "missing \(type): \(context.debugDescription)"
        case .keyNotFound(let key, _): "missing key '\(key.stringValue)'"
        case .dataCorrupted(let context): context.debugDescription
        @unknown default: String(describing: self)
        }
    }

    private var context: Context? {
        switch self {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context),
             .dataCorrupted(let context):
            context
        @unknown default: nil
        }
    }
}
