import CourierTestSupport
import CourierDemo
import Foundation
import Testing

/// `courier run FOLDER` and `WEBSOCKET` requests, through the built binary against the demo server.
@Suite("courier run over folders and WebSocket requests", .serialized)
struct RunFolderTests {
    /// A folder of two good files (one in a subfolder) and one malformed file, with its environment.
    private static func collection(server: DemoServer) throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        let base = server.baseURL.absoluteString.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        try folder.write("http-client.env.json", """
            {"dev": {"base": "\(base)", "ws": "ws://127.0.0.1:\(server.port)"}}
            """)
        try folder.write("http-client.private.env.json", #"{"dev": {"token": "sup3r-s3cret-t0ken"}}"#)
        try folder.write("api.http", """
            # @name user
            GET {{base}}/users/1

            ###
            # @name echo
            WEBSOCKET {{ws}}/ws/echo?t={{token}}
            Authorization: Bearer {{token}}

            {"hello": "{{token}}"}
            ===
            plain text
            """)
        try folder.write("more/next.http", """
            # @name sameUser
            GET {{base}}/users/{{user.response.body.$.id}}
            """)
        try folder.write("broken.http", """
            # @name fine
            GET {{base}}/users/2
            Not A Header

            ###
            # @name alsoFine
            GET {{base}}/users/3
            """)
        return folder
    }

    private static func jsonObjects(_ text: String) -> [[String: Any]] {
        text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    @Test("courier run --help is generated from the option table, --report's two values included")
    func helpIsGenerated() async throws {
        // When
        let result = try await CourierCLI.run(["run", "--help"])
        // Then
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("OVERVIEW: Run the saved requests of a .http file, or of every .http file "
                                        + "under a folder, headless.\n\nUSAGE: courier run FILE.http|FOLDER "
                                        + "[options]\n"))
        #expect(result.stdout.contains("\n  --report FORMAT FILE    Also write a report to FILE: JUnit XML or TAP 14"))
        #expect(result.stdout.contains("\n  --var NAME=VALUE        Set a variable, overriding every other source "
                                       + "(repeatable).\n"))
        #expect(result.stdout.contains("EXIT CODES:\n  0   every request succeeded\n  1   a request failed\n"
                                       + "  2   a usage error\n  3   bad input: a file with errors"), "\(result.stdout)")
        #expect(result.stdout.contains("\n  6   the host name does not resolve"))
        #expect(result.stdout.hasSuffix("\n\nA run ends with 6 to 35 only when every request that failed failed that way.\n"))
    }

    @Test("a folder runs every .http file in path order, grouped by file, the malformed one reported as file:line")
    func aFolderRunsEveryFileGroupedByFile() async throws {
        // Given the demo server and a folder of two good files and a malformed one
        let server = try DemoServer.start()
        defer { server.stop() }
        let folder = try Self.collection(server: server)
        // When the folder runs
        let result = try await CourierCLI.run(["run", ".", "--env", "dev"], in: folder.url)
        // Then each file's results follow its header, in path order
        let headers = result.stdout.split(separator: "\n").filter { $0.hasPrefix("==> ") }
        #expect(headers == ["==> api.http <==", "==> broken.http <==", "==> more/next.http <=="])
        let order = ["==> api.http <==", "### user", "### echo", "==> broken.http <==", "### alsoFine",
                     "==> more/next.http <==", "### sameUser"].map { result.stdout.range(of: $0)?.lowerBound }
        #expect(!order.contains(nil), "\(result.stdout)")
        #expect(order.compactMap { $0 } == order.compactMap { $0 }.sorted())
        // And the WebSocket request sent both messages and got both echoes
        #expect(result.stdout.contains("### echo\nWebSocket 101  sent 2  received 2"), "\(result.stdout)")
        // And the malformed file is reported with its file and line, the others still ran
        #expect(result.stderr.contains("broken.http:3: expected a header"), "\(result.stderr)")
        #expect(!result.stdout.contains("### fine\n"), "the request with the malformed line is not sent")
        // And a named response from the first file fed the last one
        #expect(result.stdout.contains("### sameUser\nHTTP/1.1 200"), "\(result.stdout)")
        // And the summary counts every file; the file with errors makes the exit code 3 (bad input)
        #expect(result.stderr.contains("4 succeeded, 0 failed in 3 files; 1 with errors"), "\(result.stderr)")
        #expect(result.status == 3)
        // And the private token appears nowhere
        for output in [result.stdout, result.stderr] { #expect(!output.contains("sup3r"), "\(output)") }
    }

    @Test("a clean folder exits 0 and --json gives one object per request with its file, WebSockets included")
    func aCleanFolderExitsZeroWithJSON() async throws {
        // Given the collection without its malformed file
        let server = try DemoServer.start()
        defer { server.stop() }
        let folder = try Self.collection(server: server)
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("broken.http"))
        // When it runs as JSON, the folder given by its path
        let result = try await CourierCLI.run(["run", folder.url.path + "/", "--env", "dev", "--json"])
        // Then
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("3 succeeded, 0 failed in 2 files"), "\(result.stderr)")
        let objects = Self.jsonObjects(result.stdout)
        #expect(objects.compactMap { $0["name"] as? String } == ["user", "echo", "sameUser"])
        #expect(objects.compactMap { $0["file"] as? String }
                == ["api.http", "api.http", "more/next.http"].map { folder.url.path + "/" + $0 })
        let echo = try #require(objects.first { $0["name"] as? String == "echo" })
        #expect(echo["type"] as? String == "websocket")
        #expect(echo["status"] as? Int == 101)
        #expect(echo["sent"] as? Int == 2)
        #expect(echo["received"] as? Int == 2)
        #expect(echo["close_code"] as? Int == 1000)
        #expect(echo["error"] is NSNull)
        #expect(echo["url"] as? String == "ws://127.0.0.1:\(server.port)/ws/echo?t=REDACTED")
        #expect(!result.stdout.contains("sup3r"))
    }

    @Test("a refused WebSocket handshake fails the run with its error kind, in text and in JSON")
    func aRefusedHandshakeIsAFailure() async throws {
        // Given a WEBSOCKET request to a path the demo server does not serve
        let server = try DemoServer.start()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        try folder.write("ws.http", """
            # @name refused
            WEBSOCKET ws://127.0.0.1:\(server.port)/ws/nowhere

            hello
            """)
        // When it runs, as text and as JSON
        let text = try await CourierCLI.run(["run", "ws.http"], in: folder.url)
        let json = try await CourierCLI.run(["run", "ws.http", "--json"], in: folder.url)
        // Then both fail with exit code 1 and say why
        #expect(text.status == 1)
        #expect(text.stdout.contains("WebSocket 404  sent 0  received 0"), "\(text.stdout)")
        #expect(text.stdout.contains("[handshakeRejected]"))
        #expect(text.stderr.contains("0 succeeded, 1 failed"))
        #expect(json.status == 1)
        let object = try #require(Self.jsonObjects(json.stdout).first)
        #expect((object["error"] as? [String: Any])?["kind"] as? String == "handshakeRejected")
        #expect(object["status"] as? Int == 404)
        #expect(object["file"] == nil)
    }

    @Test("wait-for-server messages wait for the server; a silent exchange ends after --ws-wait")
    func waitForServerAndTheQuietRule() async throws {
        // Given a ticker subscription whose unsubscribe waits for the server, an echo with nothing to send,
        // and a message waiting for a server that never speaks
        let server = try DemoServer.start()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        try folder.write("ws.http", """
            # @name ticker
            WEBSOCKET ws://127.0.0.1:\(server.port)/ws/ticker?rate=5

            {"subscribe": "ACME"}
            === wait-for-server
            {"unsubscribe": "ACME"}

            ###
            # @name quiet
            WEBSOCKET ws://127.0.0.1:\(server.port)/ws/echo

            ###
            # @name neverAnswered
            WEBSOCKET ws://127.0.0.1:\(server.port)/ws/echo

            === wait-for-server
            hello
            """)
        // When it runs with a short quiet period
        let result = try await CourierCLI.run(["run", "ws.http", "--ws-wait", "0.3", "--json"], in: folder.url)
        // Then the ticker got its answer before the second message went out, the quiet one succeeded
        // with nothing exchanged, and the unanswered wait failed
        let objects = Self.jsonObjects(result.stdout)
        let ticker = try #require(objects.first { $0["name"] as? String == "ticker" })
        #expect(ticker["sent"] as? Int == 2)
        #expect((ticker["received"] as? Int ?? 0) >= 2)
        let quiet = try #require(objects.first { $0["name"] as? String == "quiet" })
        #expect(quiet["sent"] as? Int == 0 && quiet["received"] as? Int == 0 && quiet["error"] is NSNull)
        let never = try #require(objects.first { $0["name"] as? String == "neverAnswered" })
        #expect(never["sent"] as? Int == 0)
        #expect((never["error"] as? [String: Any])?["kind"] as? String == "waitForServer")
        #expect(result.status == 1)
    }

    @Test("--fail-fast stops the whole folder at the first failure; the rest is counted as not run")
    func failFastStopsTheFolder() async throws {
        // Given a first file whose request fails and a second one that would succeed
        let server = try DemoServer.start()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let base = server.baseURL.absoluteString.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        try folder.write("a.http", "# @name missing\nGET \(base)/status/404\n")
        try folder.write("b.http", "# @name user\nGET \(base)/users/1\n")
        // When the folder runs with --fail-fast
        let result = try await CourierCLI.run(["run", ".", "--fail-fast"], in: folder.url)
        // Then the second file never ran
        #expect(result.status == 1)
        #expect(!result.stdout.contains("==> b.http <=="), "\(result.stdout)")
        #expect(result.stderr.contains("0 succeeded, 1 failed, 1 not run in 2 files"), "\(result.stderr)")
        #expect(server.requestCount(path: "/users/1") == 0)
    }

    @Test("a file the chosen environment does not reach is reported and skipped; the others run")
    func aFileWithoutTheEnvironmentDoesNotRun() async throws {
        // Given an environment defined only in a subfolder
        let server = try DemoServer.start()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let base = server.baseURL.absoluteString.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        try folder.write("top.http", "# @name top\nGET {{base}}/users/1\n")
        try folder.write("team/http-client.env.json", "{\"staging\": {\"base\": \"\(base)\"}}")
        try folder.write("team/team.http", "# @name team\nGET {{base}}/users/2\n")
        // When the folder runs in that environment
        let result = try await CourierCLI.run(["run", ".", "--env", "staging"], in: folder.url)
        // Then the top file is reported as not run and the team file ran
        #expect(result.stderr.contains("top.http: not run: no environment 'staging'"), "\(result.stderr)")
        #expect(result.stdout.contains("### team\nHTTP/1.1 200"), "\(result.stdout)")
        #expect(result.stderr.contains("1 succeeded, 0 failed, 1 not run in 2 files; 1 with errors"),
                "\(result.stderr)")
        #expect(result.status == 3)
    }

    @Test("usage errors for folders and --ws-wait exit with 2")
    func usageErrorsExitWithTwo() async throws {
        // Given an empty folder and one with a file
        let empty = try TemporaryFolder()
        let folder = try TemporaryFolder()
        try folder.write("sub/a.http", "# @name a\nGET http://127.0.0.1:9/\n")
        // Then
        let nothing = try await CourierCLI.run(["run", "."], in: empty.url)
        #expect(nothing.status == 2)
        #expect(nothing.stderr.contains("no .http or .rest files"))
        let unknown = try await CourierCLI.run(["run", ".", "--name", "b"], in: folder.url)
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("no request named 'b'; named requests: a"))
        let env = try await CourierCLI.run(["run", ".", "--env", "prod"], in: folder.url)
        #expect(env.status == 2)
        #expect(env.stderr.contains("no environment 'prod'"))
        #expect(try await CourierCLI.run(["run", ".", "--ws-wait", "0"], in: folder.url).status == 2)
        #expect(try await CourierCLI.run(["run", ".", "--ws-wait", "soon"], in: folder.url).status == 2)
    }
}
