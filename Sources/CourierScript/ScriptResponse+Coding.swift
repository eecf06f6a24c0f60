import CourierMessage
import Foundation

/// The JSON the preludes read: the head's status and headers flat beside the body and the time taken.
/// The reason and version are not part of it; scripts have never seen them.
extension ScriptResponse: Codable {
    private enum CodingKeys: String, CodingKey {
        case status, headers, body, milliseconds
    }

    /// Reads a response in the preludes' shape.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(status: try container.decode(Int.self, forKey: .status),
                  headers: try container.decode(HTTPHeaders.self, forKey: .headers),
                  body: try container.decode(String.self, forKey: .body),
                  milliseconds: try container.decode(Int.self, forKey: .milliseconds))
    }

    /// Writes the response in the preludes' shape.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(status, forKey: .status)
        try container.encode(headers, forKey: .headers)
        try container.encode(body, forKey: .body)
        try container.encode(milliseconds, forKey: .milliseconds)
    }
}
