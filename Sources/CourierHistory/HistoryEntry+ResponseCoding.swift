import CourierMessage
import Foundation

/// History files keep a response's head flat beside the body sizes (`status`, `reason`, `headers`,
/// `bodyBytes`, …), the shape entries were written in before the head was one value; a missing reason
/// reads as none.
extension HistoryEntry.Response: Codable {
    private enum CodingKeys: String, CodingKey {
        case status, reason, headers, bodyBytes, storedBodyBytes, bodyNote
    }

    /// Reads a stored response.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(status: try container.decode(Int.self, forKey: .status),
                  reason: try container.decodeIfPresent(String.self, forKey: .reason),
                  headers: try container.decode(HTTPHeaders.self, forKey: .headers),
                  bodyBytes: try container.decode(Int.self, forKey: .bodyBytes))
        storedBodyBytes = try container.decode(Int.self, forKey: .storedBodyBytes)
        bodyNote = try container.decodeIfPresent(String.self, forKey: .bodyNote)
    }

    /// Writes the response in the stored shape.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(status, forKey: .status)
        try container.encodeIfPresent(reason, forKey: .reason)
        try container.encode(headers, forKey: .headers)
        try container.encode(bodyBytes, forKey: .bodyBytes)
        try container.encode(storedBodyBytes, forKey: .storedBodyBytes)
        try container.encodeIfPresent(bodyNote, forKey: .bodyNote)
    }
}
