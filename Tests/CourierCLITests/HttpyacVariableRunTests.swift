import CourierTestSupport
import Foundation
import Synchronization
import Testing

/// httpyac's variable model through `courier run` against a loopback server that answers each request with
/// its own query as JSON (`{"query":{"author":"httpyac"},"n":1}`, `n` counting requests): `@name = value`
/// after a request line set once its response is in, `@name := value` evaluated where used, named and last
/// responses as variables, and `{{ expression }}` JavaScript.
@Suite("httpyac variables on the wire")
struct HttpyacVariableRunTests {
    /// A server answering with the request's query as a JSON object, and how many requests came before.
    static func echoServer() throws -> LoopbackServer {
        let count = Counter()
        return try LoopbackServer { request in
            var query: [String: String] = [:]
            for pair in request.query.split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                let value = parts.count > 1 ? parts[1].removingPercentEncoding ?? parts[1] : ""
                query[parts[0]] = value
            }
            let object: [String: Any] = ["query": query, "n": count.next()]
            let body = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
            return .json(String(decoding: body, as: UTF8.self), headers: [("X-Trace", "trace-\(count.value)")])
        }
    }

    static func run(_ text: String, server: LoopbackServer,
                    arguments: [String] = ["--all"]) async throws -> (ChildResult, [String]) {
        let folder = try TemporaryFolder()
        try folder.write("vars.http", text.replacingOccurrences(of: "BASE", with: server.baseURL.absoluteString))
        let result = try await CourierCLI.run(["run", "vars.http"] + arguments, in: folder.url)
        return (result, server.requests.map { $0.query.removingPercentEncoding ?? $0.query })
    }

    @Test func aVariableAfterTheRequestLineIsSetFromItsResponseForTheRequestsAfterIt() async throws {
        // Given httpyac's own examples: a variable under the request line, one after a blank line, one read
        // from the last response, and an object read with a dotted path
        let server = try Self.echoServer()
        defer { server.stop() }
        let (result, queries) = try await Self.run("""
            @host = BASE
            # @name fooString
            GET /echo?author=httpyac
            @slideshow={{fooString.query.author}}
            ###
            # @ref fooString
            GET /echo?author2={{slideshow}}
            ###
            GET /echo?x=direct

            @direct={{response.parsedBody.query}}
            ###
            GET /echo?d1={{direct.x}}&whole={{direct}}
            """, server: server)
        // Then each later request sees the value its response gave
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(queries == ["author=httpyac", "author2=httpyac", "x=direct", #"d1=direct&whole={"x":"direct"}"#])
    }

    @Test func aLazyVariableIsEvaluatedWhereItIsUsed() async throws {
        // Given `@n := {{response.parsedBody.n}}`: each use reads the response last in at that point
        let server = try Self.echoServer()
        defer { server.stop() }
        let (result, queries) = try await Self.run("""
            GET BASE/first

            @eager={{response.parsedBody.n}}
            @lazy:={{response.parsedBody.n}}
            ###
            GET BASE/second?eager={{eager}}&lazy={{lazy}}
            ###
            GET BASE/third?eager={{eager}}&lazy={{lazy}}
            """, server: server)
        // Then the eager one keeps the first response's value; the lazy one follows the last response
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(queries == ["", "eager=1&lazy=1", "eager=1&lazy=2"])
    }

    @Test func theLastResponseGivesItsBodyHeadersAndStatus() async throws {
        // Given a request reading the one before it through httpyac's `response`
        let server = try Self.echoServer()
        defer { server.stop() }
        let (result, queries) = try await Self.run("""
            GET BASE/first?a=1
            ###
            GET BASE/second?body={{response.body}}&trace={{response.headers.x-trace}}&status={{response.statusCode}}
            """, server: server)
        // Then it sent the first response's body, header and status
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(queries.last == #"body={"n":1,"query":{"a":"1"}}&trace=trace-1&status=200"#)
    }

    @Test func aFailingVariableAfterTheResponseNamesTheVariableAndTheOtherRequestsStillRun() async throws {
        // Given a variable after the request that reads a path the response does not have... used later
        let server = try Self.echoServer()
        defer { server.stop() }
        let (result, queries) = try await Self.run("""
            GET BASE/first

            @missing={{nothing.here}}
            ###
            GET BASE/second?ok=1
            """, server: server)
        // Then the run says which variable, and the second request still went out
        #expect(result.status != 0)
        #expect(result.stdout.contains("nothing.here") || result.stderr.contains("nothing.here"),
                "\(result.stdout)\(result.stderr)")
        #expect(queries == ["", "ok=1"])
    }
}

/// Counts the requests a test server answered, across its connection threads.
final class Counter: Sendable {
    private let count = Mutex(0)
    func next() -> Int { count.withLock { $0 += 1; return $0 } }
    var value: Int { count.withLock { $0 } }
}
