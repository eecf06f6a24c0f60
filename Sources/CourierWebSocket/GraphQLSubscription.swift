import Foundation

/// A GraphQL subscription over WebSocket, in either subprotocol servers speak: `graphql-transport-ws`
/// (the graphql-ws library's protocol: connection_init, subscribe, next, error, complete, ping/pong) and the
/// older `graphql-ws` (subscriptions-transport-ws: connection_init, start, data, error, complete, stop, ka).
/// It writes the client's messages and reads the server's; the session sends `connectionInit` and `subscribe`
/// on every connect, so a reconnect subscribes again.
public struct GraphQLSubscription: Sendable {
    /// The WebSocket subprotocol, offered in the handshake.
    public enum WireProtocol: String, Sendable, CaseIterable {
        case transportWS = "graphql-transport-ws"
        case legacy = "graphql-ws"
    }

    /// What a server message means.
    public enum ServerMessage: Sendable, Equatable {
        case ack
        /// A result: `payload` is its JSON text (`{"data": …}`, maybe with `errors`).
        case next(id: String, payload: String)
        /// The operation failed: `payload` is the JSON of the errors.
        case error(id: String, payload: String)
        case complete(id: String)
        /// The server pings (graphql-transport-ws): answer with `pong`.
        case ping
        case pong
        /// graphql-ws's keep-alive.
        case keepAlive
        /// graphql-ws's connection_error, or a message that is not of the protocol.
        case connectionError(String)
        case unknown(String)
    }

    /// Why the subscription cannot be written.
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        case notJSONObject(String)

        public var description: String {
            switch self {
            case .notJSONObject(let what): "\(what) must be a JSON object"
            }
        }
    }

    public var wireProtocol: WireProtocol
    public var query: String
    public var variables: [String: Any & Sendable]?
    public var operationName: String?
    public var connectionPayload: [String: Any & Sendable]?
    public var id = "1"

    /// A subscription; `variables` and `connectionPayload` are JSON object texts when given.
    public init(query: String, variables: String? = nil, operationName: String? = nil,
                connectionPayload: String? = nil, wireProtocol: WireProtocol = .transportWS) throws(Failure) {
        self.query = query
        self.operationName = operationName
        self.wireProtocol = wireProtocol
        self.variables = try Self.object(variables, what: "the variables")
        self.connectionPayload = try Self.object(connectionPayload, what: "the connection payload")
    }

    /// Whether a GraphQL document's first operation is a subscription (`subscription { … }`).
    public static func isSubscription(_ document: String) -> Bool {
        var text = Substring(document)
        while true {
            text = text.drop { $0.isWhitespace || $0 == "," }
            if text.hasPrefix("#") {
                text = text.drop { $0 != "\n" }
                continue
            }
            break
        }
        return text.hasPrefix("subscription") && text.dropFirst("subscription".count).first.map {
            $0.isWhitespace || $0 == "{" || $0 == "("
        } ?? false
    }

    /// `connection_init`, with the payload when there is one.
    public var connectionInit: String {
        var message: [String: Any] = ["type": "connection_init"]
        if let connectionPayload { message["payload"] = connectionPayload }
        return Self.text(message)
    }

    /// `subscribe` (graphql-transport-ws) or `start` (graphql-ws) with the query.
    public var subscribe: String {
        var payload: [String: Any] = ["query": query]
        if let variables { payload["variables"] = variables }
        if let operationName { payload["operationName"] = operationName }
        return Self.text(["type": wireProtocol == .transportWS ? "subscribe" : "start", "id": id, "payload": payload])
    }

    /// `complete` (graphql-transport-ws) or `stop` (graphql-ws): the client ends the subscription.
    public var stop: String {
        Self.text(["type": wireProtocol == .transportWS ? "complete" : "stop", "id": id])
    }

    /// The answer to a server's ping.
    public var pong: String { Self.text(["type": "pong"]) }

    /// What a client owes a server's text message on a connection that chose `subprotocol`: a pong to a
    /// graphql-transport-ws ping (a server may close a connection that leaves its pings unanswered), else nil.
    public static func reply(to text: String, subprotocol: String?) -> String? {
        guard subprotocol == WireProtocol.transportWS.rawValue, text.utf8.count < 4096,
              let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any],
              object["type"] as? String == "ping" else { return nil }
        return Self.text(["type": "pong"])
    }

    /// Reads one text message from the server.
    public func interpret(_ text: String) -> ServerMessage {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any],
              let type = object["type"] as? String else { return .unknown(text) }
        let id = object["id"] as? String ?? ""
        let payload = object["payload"].map { Self.text($0) } ?? "null"
        switch type {
        case "connection_ack": return .ack
        case "next", "data": return .next(id: id, payload: payload)
        case "error": return .error(id: id, payload: payload)
        case "complete": return .complete(id: id)
        case "ping": return .ping
        case "pong": return .pong
        case "ka": return .keepAlive
        case "connection_error": return .connectionError(payload)
        default: return .unknown(text)
        }
    }

    private static func object(_ text: String?, what: String) throws(Failure) -> [String: Any & Sendable]? {
        guard let text, !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return nil }
        guard let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] else {
            throw .notJSONObject(what)
        }
        return object.mapValues { JSONBox($0) }
    }

    private static func text(_ value: Any) -> String {
        let unboxed = unbox(value)
        guard JSONSerialization.isValidJSONObject(unboxed) || !(unboxed is [String: Any] || unboxed is [Any]) else {
            return "null"
        }
        let data = (try? JSONSerialization.data(withJSONObject: unboxed, options: [.fragmentsAllowed, .sortedKeys]))
        return data.map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }

    private static func unbox(_ value: Any) -> Any {
        switch value {
        case let box as JSONBox: unbox(box.value)
        case let object as [String: Any]: object.mapValues(unbox)
        case let array as [Any]: array.map(unbox)
        default: value
        }
    }
}

/// A parsed JSON value (JSONSerialization's NSDictionary, NSArray, NSNumber, NSString, NSNull), immutable once
/// parsed, carried across tasks.
struct JSONBox: @unchecked Sendable {
    let value: Any
    init(_ value: Any) { self.value = value }
}
