import CourierTestSupport
import Foundation
import Testing

/// `courier ws URL --graphql 'subscription …'` against strawberry-graphql on uvicorn (Tests/Servers/graphql),
/// in both WebSocket subprotocols.
@Suite(.enabled(if: CourierCLI.isBuilt, "the courier binary is not built"))
struct GraphQLSubscriptionCommandTests {
    func ws(_ arguments: [String]) async throws -> ChildResult {
        let port = try await PythonTestServer.graphQL.port()
        return try await CourierCLI.run(["ws", "ws://127.0.0.1:\(port)/graphql"] + arguments)
    }

    @Test(arguments: ["graphql-transport-ws", "graphql-ws"])
    func aSubscriptionPrintsEachResultAndEndsWhenTheServerCompletesIt(_ wire: String) async throws {
        // When
        let result = try await ws(["--graphql", "subscription Count($n: Int!) { count(to: $n) }",
                                   "--variables", #"{"n": 3}"#, "--graphql-protocol", wire, "--json"])
        // Then
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == """
            {"type":"next","id":"1","payload":{"data":{"count":1}}}
            {"type":"next","id":"1","payload":{"data":{"count":2}}}
            {"type":"next","id":"1","payload":{"data":{"count":3}}}
            {"type":"complete"}

            """)
    }

    @Test func resultsPrintAsTheyArriveAndCountStopsAnEndlessSubscription() async throws {
        let port = try await PythonTestServer.graphQL.port()
        let child = try CourierCLI.start(["ws", "ws://127.0.0.1:\(port)/graphql", "--graphql",
                                          "subscription { count(to: 2, gap: 30) }"])
        // The first result shows while the server waits 30 s before the second
        #expect(await child.stdout.wait { $0.contains(#"{"data":{"count":1}}"#) })
        child.signal(SIGINT)
        #expect(await child.finish(limit: .seconds(60)) == 0)
        let endless = try await ws(["--graphql", "subscription { ticks }", "--count", "3"])
        #expect(endless.status == 0, "\(endless.stderr)")
        #expect(endless.stdout.split(separator: "\n").count == 3)
    }

    @Test func aFailingResolverOrAnInvalidDocumentExitsWithStatus1() async throws {
        let boom = try await ws(["--graphql", "subscription { boom }"])
        #expect(boom.status == 1)
        #expect(boom.stdout.contains("boom went the subscription"))
        let invalid = try await ws(["--graphql", "subscription { nope }"])
        #expect(invalid.status == 1)
        #expect(invalid.stderr.contains("Error: the subscription failed:"), "\(invalid.stderr)")
        #expect(invalid.stderr.contains("Cannot query field 'nope'"))
    }

    @Test func aServersPingIsAnsweredWithAPong() async throws {
        // Given a server that sends its one result only after the client answered its ping
        let port = try await PythonTestServer.graphQL.port()
        let result = try await CourierCLI.run(["ws", "ws://127.0.0.1:\(port)/pinging", "--graphql",
                                               "subscription { pong }", "--json"])
        // Then the pong went out and the result came
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#"{"data":{"pong":"received"}}"#), "\(result.stdout)")
    }

    @Test func onlySubscriptionsAreTaken() async throws {
        let result = try await CourierCLI.run(["ws", "ws://127.0.0.1:1/graphql", "--graphql", "{ hello }"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--graphql takes a subscription"))
    }
}

/// `courier run` runs a GRAPHQL request whose document is a subscription over WebSocket, as the explorer does.
@Suite(.enabled(if: CourierCLI.isBuilt, "the courier binary is not built"))
struct GraphQLSubscriptionRunTests {
    @Test(arguments: ["", "# @graphql-protocol graphql-ws\n"])
    func aSubscriptionRequestRunsOverWebSocketInEitherSubprotocol(_ tag: String) async throws {
        // Given a GRAPHQL request on the server's http:// URL whose document is a subscription with variables
        let port = try await PythonTestServer.graphQL.port()
        let folder = try TemporaryFolder("graphql-subscription-run")
        try folder.write("live.http", """
            ### counts
            \(tag)GRAPHQL http://127.0.0.1:\(port)/graphql

            subscription Count($n: Int!) { count(to: $n) }

            {"n": 3}

            """)
        // When the file runs
        let result = try await CourierCLI.run(["run", "live.http", "--ws-wait", "1"], in: folder.url)
        // Then connection_init and the subscription went out over a WebSocket (101), and the server's
        // acknowledgement, three results and its completion came back
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("WebSocket 101  sent 2  received 5"), "\(result.stdout)")
    }

    @Test func anUnknownSubprotocolIsAnErrorNamingTheTwo() async throws {
        let folder = try TemporaryFolder("graphql-subscription-run")
        try folder.write("live.http", """
            # @graphql-protocol apollo
            GRAPHQL http://127.0.0.1:1/graphql

            subscription { ticks }

            """)
        let result = try await CourierCLI.run(["run", "live.http"], in: folder.url)
        #expect(result.status == 3, "an unknown subprotocol is bad input: exit 3")
        let output = result.stdout + result.stderr
        #expect(output.contains("graphql-transport-ws or graphql-ws"), "\(output)")
    }
}
