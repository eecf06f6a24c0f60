import CourierHTTP
import CourierWebSocket
import Foundation

extension ResolvedRequest {
    /// `# @graphql-protocol graphql-ws` picks the older subprotocol for a GRAPHQL subscription; without it
    /// the subscription speaks graphql-transport-ws.
    public static let graphQLProtocolTag = "graphql-protocol"

    /// A GRAPHQL request whose document is a `subscription`, as the WebSocket request that runs it: the URL's
    /// scheme ws or wss, the subprotocol offered in the handshake, `connection_init` and `subscribe` as its
    /// messages (sent again after a reconnect). Nil for every other request, which goes out as it is.
    public func asGraphQLSubscription() throws(CollectionError) -> ResolvedRequest? {
        guard template.kind == .graphql, case .data(let body) = request.body,
              let payload = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any],
              let query = payload["query"] as? String, GraphQLSubscription.isSubscription(query) else { return nil }
        let wireName = template.tags[Self.graphQLProtocolTag] ?? GraphQLSubscription.WireProtocol.transportWS.rawValue
        guard let wire = GraphQLSubscription.WireProtocol(rawValue: wireName) else {
            let known = GraphQLSubscription.WireProtocol.allCases.map(\.rawValue).joined(separator: " or ")
            throw .unsupported(request: displayName, reason: "'# @\(Self.graphQLProtocolTag) \(wireName)': the "
                                   + "subprotocol is \(known)")
        }
        let variables = payload["variables"].flatMap { try? JSONSerialization.data(withJSONObject: $0) }
            .map { String(decoding: $0, as: UTF8.self) }
        let subscription: GraphQLSubscription
        do {
            subscription = try GraphQLSubscription(query: query, variables: variables,
                                                   operationName: payload["operationName"] as? String,
                                                   wireProtocol: wire)
        } catch {
            throw .unsupported(request: displayName, reason: "\(error)")
        }
        var converted = self
        var components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
        switch components?.scheme?.lowercased() {
        case "http": components?.scheme = "ws"
        case "https": components?.scheme = "wss"
        default: break
        }
        converted.request.url = components?.url ?? request.url
        converted.request.method = .get
        converted.request.body = .empty
        converted.request.headers["Content-Type"] = nil
        converted.request.headers["Sec-WebSocket-Protocol"] = wire.rawValue
        converted.messages = [WebSocketMessage(text: subscription.connectionInit, subscribe: true),
                              WebSocketMessage(text: subscription.subscribe, subscribe: true)]
        return converted
    }
}
