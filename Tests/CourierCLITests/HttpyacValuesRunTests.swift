import CourierTestSupport
import Foundation
import Testing

/// More of what httpyac files write, run through `courier run` against a loopback server: GraphQL bodies on
/// ordinary requests with fragments, fields of JSON values, whole named responses, `@name value` definitions
/// and block comments.
@Suite("httpyac values and GraphQL on the wire")
struct HttpyacValuesRunTests {
    @Test func aQueryBodyIsSentAsGraphQLWithTheFragmentsItSpreads() async throws {
        // Given a fragment in a block of its own, and POSTs whose bodies are GraphQL documents
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let result = try await CompatibilityMatrixTests.run("""
            fragment Parts on Repository {
              description
            }

            ###
            POST BASE/graphql
            Content-Type: application/json

            query repo($name: String!) {
              repository(name: $name) { ...Parts }
            }

            {"name": "courier"}

            ###
            POST BASE/raw
            Content-Type: application/graphql

            query { viewer { id } }
            """, in: folder, server: server)
        // Then the JSON request carries the query, the fragment and the variables; the raw one goes as written
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let received = server.requests
        try #require(received.count == 2)
        let object = try #require(try JSONSerialization.jsonObject(with: received[0].body) as? [String: Any])
        #expect(object["query"] as? String == "query repo($name: String!) {\n  repository(name: $name) { ...Parts }\n}"
                + "\nfragment Parts on Repository {\n  description\n}")
        #expect((object["variables"] as? [String: String]) == ["name": "courier"])
        #expect(received[1].bodyText == "query { viewer { id } }")
    }

    @Test func fieldsOfJSONValuesWholeResponsesAndDefinitionsWithoutEqualsAreRead() async throws {
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let result = try await CompatibilityMatrixTests.run("""
            /*
              A block comment
              over lines
            */
            @greeting hello there
            {{
              exports.user = { name: "ada", roles: ["admin", "dev"] };
            }}
            ###
            # @name login
            POST BASE/login

            ###
            GET BASE/me?name={{user.name}}&role={{user.roles[1]}}&g={{greeting}}
            X-Type: {{loginResponse.headers.Content-Type}}
            X-Token: {{loginResponse.parsedBody.token}}
            """, in: folder, server: server)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let me = try #require(server.requests.last)
        #expect(me.target == "/me?name=ada&role=dev&g=hello%20there")
        #expect(me.header("X-Type") == "application/json")
        #expect(me.header("X-Token") == "t0k")
    }
}
