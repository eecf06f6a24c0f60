import CourierTestSupport
import Foundation
import Testing

/// `courier run` on `GRPC` requests (JetBrains' syntax) against the grpcio server with reflection: unary,
/// server-streaming, client-streaming (`===` messages) and failing calls, with variables and scripts as for HTTP.
@Suite(.enabled(if: CourierCLI.isBuilt, "the courier binary is not built"))
struct GRPCRunTests {
    static func file(port: Int) -> String {
        """
        ### Unary
        # @name say
        GRPC 127.0.0.1:\(port)/courier.test.Echo/Say
        x-team: {{team}}

        {"message": "{{greeting}}", "big": "12", "mood": "HAPPY"}

        > {%
          client.test("the reply is JSON", () => client.assert(response.body.echo.mood === "HAPPY"));
          client.global.set("echoed", response.body.message);
        %}

        ### Stream
        # @name count
        GRPC 127.0.0.1:\(port)/courier.test.Echo/Count

        {"message": "{{echoed}}", "count": 3}

        ### Client stream
        GRPC grpc://127.0.0.1:\(port)/courier.test.Echo/Sum

        {"count": 2, "message": "{{count.response.body.$[2].message}}"}
        ===
        {"count": 5, "message": "b"}

        ### Failing
        GRPC 127.0.0.1:\(port)/courier.test.Echo/Fail

        {"message": "bad"}
        """
    }

    @Test func aFileOfUnaryStreamingAndFailingCallsRunsAsTheJetBrainsClientRunsIt() async throws {
        // Given
        let port = try await PythonTestServer.grpc.port()
        let folder = try TemporaryFolder("grpc-run")
        try folder.write("api.http", Self.file(port: port))
        try folder.write("http-client.env.json", #"{"dev": {"greeting": "hello", "team": "blue"}}"#)
        // When
        let result = try await CourierCLI.run(["run", "api.http", "--env", "dev", "--json"], in: folder.url)
        // Then: three calls succeeded and the failing one is reported as INVALID_ARGUMENT
        #expect(result.status == 1)
        let lines = result.jsonLines
        #expect(lines.count == 4, "\(result.stdout)\n\(result.stderr)")
        guard lines.count == 4 else { return }
        func body(_ index: Int) -> Any? {
            (lines[index]["body"] as? String).flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) }
        }
        let unary = body(0) as? [String: Any]
        #expect((unary?["echo"] as? [String: Any])?["big"] as? String == "12")
        #expect(unary?["message"] as? String == "hello")
        #expect((lines[0]["tests"] as? [[String: Any]])?.first?["passed"] as? Bool == true)
        let stream = body(1) as? [[String: Any]] ?? []
        #expect(stream.map { $0["message"] as? String } == ["hello 1", "hello 2", "hello 3"])
        let sum = body(2) as? [String: Any]
        #expect(sum?["total"] as? String == "7")
        #expect(sum?["messages"] as? [String] == ["hello 3", "b"])
        let failure = lines[3]["error"] as? [String: Any]
        #expect((failure?["message"] as? String)?.contains("INVALID_ARGUMENT: message must not be 'bad'") == true,
                "\(lines[3])")
    }

    @Test func metadataFromTheRequestsHeadersReachesTheServer() async throws {
        let port = try await PythonTestServer.grpc.port()
        let folder = try TemporaryFolder("grpc-run")
        try folder.write("api.http", """
            GRPC 127.0.0.1:\(port)/courier.test.Echo/Metadata
            x-team: blue
            Authorization: Bearer s3cret-token

            """)
        let result = try await CourierCLI.run(["run", "api.http"], in: folder.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#""x-team": "blue""#), "\(result.stdout)")
        #expect(!result.stdout.contains("s3cret-token"), "the echoed credential is masked")
    }

    @Test func aProtoTagGivesTheSchemaWithoutReflection() async throws {
        let port = try await PythonTestServer.grpc.port()
        let folder = try TemporaryFolder("grpc-run")
        let proto = CourierCLI.packageRoot.appendingPathComponent("Tests/Servers/grpc/courier_test.proto")
        try FileManager.default.copyItem(at: proto, to: folder.url.appendingPathComponent("echo.proto"))
        try folder.write("api.http", """
            # @proto echo.proto
            GRPC 127.0.0.1:\(port)/courier.test.Echo/Say

            {"message": "from proto"}
            """)
        let result = try await CourierCLI.run(["run", "api.http"], in: folder.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#""message": "from proto""#))
    }

    @Test("--delay paces GRPC calls too: an HTTP request, a call, an HTTP request are two delays apart")
    func delayPacesGRPCCalls() async throws {
        // Given an HTTP request, a GRPC call and another HTTP request
        let port = try await PythonTestServer.grpc.port()
        let arrivals = ArrivalClock()
        let server = try LoopbackServer { _ in arrivals.note(); return .json("{}") }
        defer { server.stop() }
        let folder = try TemporaryFolder("grpc-delay")
        try folder.write("api.http", """
            GET \(server.url("/before"))

            ###
            GRPC 127.0.0.1:\(port)/courier.test.Echo/Say

            {"message": "paced"}

            ###
            GET \(server.url("/after"))
            """)

        // When they run with --delay 1500
        let result = try await CourierCLI.run(["run", "api.http", "--delay", "1500"], in: folder.url)

        // Then the call waited its turn too: the two HTTP requests are at least two delays apart
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let times = arrivals.times
        #expect(times.count == 2)
        if times.count == 2 { #expect(times[1].timeIntervalSince(times[0]) >= 3.0) }
    }
}
