import CourierHTTP
import CourierMessage
import Foundation

/// The opening handshake (RFC 6455 section 4): the client's upgrade request and the checks on the
/// server's answer. Pure values and bytes; the connection does the I/O.
public struct WebSocketHandshake: Sendable {
    /// The GUID both ends append to the key before hashing (RFC 6455 section 1.3).
    static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
    /// Header names the request writes itself; the user's copies would break the upgrade.
    static let reservedHeaders: Set<String> = [
        "host", "upgrade", "connection", "sec-websocket-key", "sec-websocket-version", "sec-websocket-protocol",
    ]

    /// The URL as the user gave it (ws:// or wss://).
    public var url: URL
    public var headers: HTTPHeaders
    public var protocols: [String]
    /// A base64 encoding of 16 random bytes.
    public var key: String

    public init(url: URL, headers: HTTPHeaders = HTTPHeaders(), protocols: [String] = [], key: String? = nil) {
        self.url = url
        self.headers = headers
        self.protocols = protocols
        self.key = key ?? Data(SecureRandom.bytes(16)).base64EncodedString()
    }

    /// The value a server must return in Sec-WebSocket-Accept for `key`: base64(SHA-1(key + GUID)).
    public static func acceptValue(forKey key: String) -> String {
        Data(SecureRandom.sha1(Array((key + guid).utf8))).base64EncodedString()
    }

    /// The http:// or https:// URL libcurl connects to for a ws:// or wss:// URL.
    public static func transportURL(for url: URL) throws(WebSocketError) -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false),
              let scheme = components.scheme?.lowercased(), components.host?.isEmpty == false else {
            throw .badURL(url.absoluteString)
        }
        switch scheme {
        case "ws", "http": components.scheme = "http"
        case "wss", "https": components.scheme = "https"
        default: throw .badURL(url.absoluteString)
        }
        guard let mapped = components.url else { throw .badURL(url.absoluteString) }
        return mapped
    }

    /// The request bytes: GET with the upgrade headers, then the user's headers.
    public func requestBytes() throws(WebSocketError) -> [UInt8] {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
              let host = components.host else { throw .badURL(url.absoluteString) }
        var target = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        if let query = components.percentEncodedQuery { target += "?" + query }
        let hostField = host.contains(":") ? "[\(host)]" : host
        var lines = ["GET \(target) HTTP/1.1"]
        lines.append("Host: " + hostField + (components.port.map { ":\($0)" } ?? ""))
        lines.append("Upgrade: websocket")
        lines.append("Connection: Upgrade")
        lines.append("Sec-WebSocket-Key: \(key)")
        lines.append("Sec-WebSocket-Version: 13")
        if !protocols.isEmpty { lines.append("Sec-WebSocket-Protocol: " + protocols.joined(separator: ", ")) }
        for field in headers where !Self.reservedHeaders.contains(field.name.lowercased()) {
            // Header injection through a value with a line break would smuggle a second request.
            let value = String(String.UnicodeScalarView(field.value.unicodeScalars.filter { $0 != "\r" && $0 != "\n" }))
            lines.append("\(field.name): \(value)")
        }
        return Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
    }

    /// Checks a 101 answer; returns the subprotocol the server chose, if any.
    public func validate(_ head: ResponseHead) throws(WebSocketError) -> String? {
        guard head.status == 101 else {
            throw .handshakeRejected(status: head.status, headers: head.headers, body: Data())
        }
        guard head.headers["Upgrade"]?.lowercased() == "websocket" else {
            throw .handshakeInvalid(reason: "Upgrade header is '\(head.headers["Upgrade"] ?? "")', not websocket")
        }
        let connection = (head.headers.combined("Connection") ?? "").lowercased()
        guard connection.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == "upgrade" }) else {
            throw .handshakeInvalid(reason: "Connection header does not contain Upgrade")
        }
        let expected = Self.acceptValue(forKey: key)
        guard head.headers["Sec-WebSocket-Accept"]?.trimmingCharacters(in: .whitespaces) == expected else {
            throw .handshakeInvalid(reason: "Sec-WebSocket-Accept is '\(head.headers["Sec-WebSocket-Accept"] ?? "")',"
                                    + " expected '\(expected)'")
        }
        if head.headers["Sec-WebSocket-Extensions"] != nil {
            throw .handshakeInvalid(reason: "the server chose an extension that was not offered")
        }
        guard let chosen = head.headers["Sec-WebSocket-Protocol"]?.trimmingCharacters(in: .whitespaces) else {
            return nil
        }
        guard protocols.contains(chosen) else {
            throw .handshakeInvalid(reason: "the server chose subprotocol '\(chosen)', which was not offered")
        }
        return chosen
    }
}
