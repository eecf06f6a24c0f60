import CourierHTTP
import Foundation
import Testing
@testable import CourierCollections

/// A request's kind is read from the file once (`WEBSOCKET url`, `GRAPHQL url`, the VS Code
/// `X-REQUEST-TYPE: GraphQL` header) and written back in the same spelling; nothing else reads the method word.
struct RequestKindTests {
    static let text = """
        ### Plain
        GET https://x/1

        ### Socket
        WEBSOCKET wss://x/ws

        {"hello": 1}

        ### JetBrains GraphQL
        GRAPHQL https://x/graphql

        query { me { id } }

        ### VS Code GraphQL
        POST https://x/graphql
        X-REQUEST-TYPE: GraphQL

        query { me { id } }

        """

    @Test("Each request-line spelling gives its kind and the method that goes on the wire")
    func kindsAreReadFromTheFile() {
        // Given a file with one request of each kind
        let file = HTTPFile(path: "k.http", text: Self.text)

        // Then the kinds and methods are typed: a WebSocket upgrade is a GET, a GraphQL query a POST
        #expect(file.requests.map(\.kind) == [.http, .websocket, .graphql, .graphql])
        #expect(file.requests.map(\.method) == [.get, .get, .post, .post])
        #expect(file.diagnostics.isEmpty)
    }

    @Test("A GraphQL request resolves to a POST of JSON, the VS Code marker header not sent")
    func graphQLResolvesByKind() throws {
        // Given the two GraphQL spellings
        let file = HTTPFile(path: "k.http", text: Self.text)
        let resolver = Resolver(file: file, baseFolder: URL(fileURLWithPath: "/"), context: VariableContext())

        for template in file.requests where template.kind == .graphql {
            // When each is resolved
            let request = try resolver.resolve(template).request

            // Then it is a POST of {"query": …} without the marker header
            #expect(request.method == .post)
            #expect(request.headers["X-REQUEST-TYPE"] == nil)
            #expect(request.headers["Content-Type"] == "application/json")
            guard case .data(let body) = request.body else {
                Issue.record("GraphQL body is not data: \(request.body)")
                continue
            }
            #expect(String(decoding: body, as: UTF8.self).contains(#""query":"query { me { id } }""#))
        }
    }

    @Test("Writing a request back keeps each kind's spelling; changing the kind rewrites the request line")
    func kindsAreWrittenAsRead() throws {
        // Given the file
        let file = HTTPFile(path: "k.http", text: Self.text)

        // When each request is written as a new block
        let lines = file.requests.map { RequestWriter.requestLine($0) }

        // Then the request lines are as written
        #expect(lines == ["GET https://x/1", "WEBSOCKET wss://x/ws", "GRAPHQL https://x/graphql",
                          "POST https://x/graphql"])

        // And turning the plain request into a WebSocket one writes the WEBSOCKET word
        var socket = file.requests[0]
        socket.kind = .websocket
        let edited = try file.replacing(request: file.requests[0], with: socket)
        #expect(edited.contains("WEBSOCKET https://x/1\n"))
        #expect(HTTPFile(path: "k.http", text: edited).requests[0].kind == .websocket)
    }
}
