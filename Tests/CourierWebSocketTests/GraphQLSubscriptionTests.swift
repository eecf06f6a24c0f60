import CourierWebSocket
import Foundation
import Testing

/// The client side of both GraphQL-over-WebSocket subprotocols.
struct GraphQLSubscriptionTests {
    @Test func theTransportProtocolSubscribesAndCompletes() throws {
        let subscription = try GraphQLSubscription(query: "subscription { a }", variables: #"{"n": 1}"#,
                                                   connectionPayload: #"{"token": "t"}"#)
        #expect(subscription.connectionInit == #"{"payload":{"token":"t"},"type":"connection_init"}"#)
        #expect(subscription.subscribe
                == #"{"id":"1","payload":{"query":"subscription { a }","variables":{"n":1}},"type":"subscribe"}"#)
        #expect(subscription.stop == #"{"id":"1","type":"complete"}"#)
    }

    @Test func theLegacyProtocolStartsAndStops() throws {
        let subscription = try GraphQLSubscription(query: "subscription { a }", wireProtocol: .legacy)
        #expect(subscription.subscribe == #"{"id":"1","payload":{"query":"subscription { a }"},"type":"start"}"#)
        #expect(subscription.stop == #"{"id":"1","type":"stop"}"#)
    }

    @Test func serverMessagesOfBothProtocolsAreRead() throws {
        let subscription = try GraphQLSubscription(query: "subscription { a }")
        #expect(subscription.interpret(#"{"type":"connection_ack"}"#) == .ack)
        #expect(subscription.interpret(#"{"type":"next","id":"1","payload":{"data":{"a":1}}}"#)
                == .next(id: "1", payload: #"{"data":{"a":1}}"#))
        #expect(subscription.interpret(#"{"type":"data","id":"1","payload":{"data":{"a":2}}}"#)
                == .next(id: "1", payload: #"{"data":{"a":2}}"#))
        #expect(subscription.interpret(#"{"type":"complete","id":"1"}"#) == .complete(id: "1"))
        #expect(subscription.interpret(#"{"type":"ping"}"#) == .ping)
        #expect(subscription.interpret(#"{"type":"ka"}"#) == .keepAlive)
        #expect(subscription.interpret("not json") == .unknown("not json"))
        #expect(subscription.pong == #"{"type":"pong"}"#)
    }

    @Test func variablesMustBeAnObject() {
        #expect(throws: GraphQLSubscription.Failure.notJSONObject("the variables")) {
            try GraphQLSubscription(query: "subscription { a }", variables: "[1]")
        }
    }

    @Test func subscriptionsAreToldFromQueries() {
        #expect(GraphQLSubscription.isSubscription("subscription { a }"))
        #expect(GraphQLSubscription.isSubscription("# comment\n  subscription Named($x: Int) { a }"))
        #expect(!GraphQLSubscription.isSubscription("query { subscriptionCount }"))
        #expect(!GraphQLSubscription.isSubscription("subscriptions { a }"))
        #expect(!GraphQLSubscription.isSubscription("{ a }"))
    }
}
