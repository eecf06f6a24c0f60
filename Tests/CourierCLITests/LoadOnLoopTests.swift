import CourierTestSupport
import Foundation
import Synchronization
import Testing

/// `courier load` sending a request resolved once from the curl loop itself (`sentOnLoop`): the same counts as the
/// task path that sends each request as a task (forced here with `--retry 1`, whose retry step has the pipeline),
/// checked against what the server saw, never against the clock. Plain HTTP goes on the loop's own connections
/// (`loopPath: "http-parser"`); `COURIER_LOAD_WIRE=off` keeps it on libcurl's transfers (`"libcurl"`).
@Suite struct LoadOnLoopTests {
    static func folder(_ url: URL, method: String = "GET", body: String? = nil) throws -> TemporaryFolder {
        let folder = try TemporaryFolder("load-loop")
        let head = "# @name ping\n\(method) \(url.absoluteString)\n"
        let text = head + (body.map { "Content-Type: text/plain\n\n\($0)\n" } ?? "")
        try folder.write("api.http", text)
        return folder
    }

    static func load(_ folder: TemporaryFolder, _ options: [String], environment: [String: String] = [:])
        async throws -> [String: Any] {
        let result = try await CourierCLI.run(["load", "api.http", "--name", "ping", "--json"] + options,
                                              in: folder.url, environment: environment)
        return try CourierCLI.json(result.stdout)
    }

    /// A server that answers every fifth request with 503, and the request numbers it saw.
    static func fifthFails() throws -> LoopbackServer {
        let seen = RequestNumbers()
        return try LoopbackServer { _ in .json(#"{"ok":true}"#, status: seen.next() % 5 == 0 ? 503 : 200) }
    }

    @Test("--requests N: the loop sends exactly N, and counts statuses, failures and bytes as the task path does")
    func countsEqualTheTaskPath() async throws {
        // Given three servers answering every fifth request with 503, and a POST with a 5-byte body
        let onLoop = try Self.fifthFails(), onTasks = try Self.fifthFails(), onCurl = try Self.fifthFails()
        defer { onLoop.stop(); onTasks.stop(); onCurl.stop() }

        // When 40 are sent by 4 connections from the loop, and 40 through the pipeline's tasks
        let loop = try await Self.load(try Self.folder(onLoop.url("/p"), method: "POST", body: "hello"),
                                       ["--requests", "40", "-c", "4"])
        let tasks = try await Self.load(try Self.folder(onTasks.url("/p"), method: "POST", body: "hello"),
                                        ["--requests", "40", "-c", "4", "--retry", "1"])
        let curl = try await Self.load(try Self.folder(onCurl.url("/p"), method: "POST", body: "hello"),
                                       ["--requests", "40", "-c", "4"], environment: ["COURIER_LOAD_WIRE": "off"])

        // Then each server saw exactly 40, every body went out, and the summaries agree
        #expect(loop["sentOnLoop"] as? Bool == true && loop["loopPath"] as? String == "http-parser", "\(loop)")
        #expect(curl["sentOnLoop"] as? Bool == true && curl["loopPath"] as? String == "libcurl", "\(curl)")
        #expect(tasks["sentOnLoop"] as? Bool == false, "\(tasks)")
        #expect(onLoop.requestCount(path: "/p") == 40 && onTasks.requestCount(path: "/p") == 40)
        #expect(onCurl.requestCount(path: "/p") == 40)
        #expect(onLoop.requests.allSatisfy { $0.body == Data("hello".utf8) })
        #expect(loop["requests"] as? Int == 40)
        #expect(loop["statuses"] as? [String: Int] == ["200": 32, "503": 8], "\(loop)")
        #expect(loop["failed"] as? Int == 8)
        for key in ["requests", "failed", "bytesReceived", "bytesSent"] {
            #expect(loop[key] as? Int == tasks[key] as? Int,
                    "\(key): \(loop[key] ?? "none") against \(tasks[key] ?? "none")")
            #expect(curl[key] as? Int == tasks[key] as? Int, "\(key): \(curl) against \(tasks)")
        }
        #expect(loop["statuses"] as? [String: Int] == tasks["statuses"] as? [String: Int])
        #expect(loop["bytesSent"] as? Int == 40 * 5)
        let phases = try #require(loop["phasesMs"] as? [String: Any])
        #expect(phases["firstByte"] is Double && phases["connect"] is Double, "\(phases)")
        let latency = try #require(loop["latencyMs"] as? [String: Any])
        #expect((latency["min"] as? Double ?? 0) > 0 && loop["latencyFrom"] as? String == "transferStart")
    }

    @Test("A connection the server drops mid-run is counted as the task path counts it, and the run goes on")
    func droppedConnectionMidRun() async throws {
        // Given servers that hang up without an answer on their 5th and 6th requests
        func server() throws -> LoopbackServer {
            let seen = RequestNumbers()
            return try LoopbackServer { _ in (5...6).contains(seen.next()) ? .raw("") : .json("{}") }
        }
        let onLoop = try server(), onTasks = try server()
        defer { onLoop.stop(); onTasks.stop() }

        // When 12 requests are sent one at a time each way
        let loop = try await Self.load(try Self.folder(onLoop.url("/d")), ["--requests", "12"])
        let tasks = try await Self.load(try Self.folder(onTasks.url("/d")), ["--requests", "12", "--retry", "1"])

        // Then the failure is counted under its kind, the other requests were answered, and both ways agree
        #expect(loop["sentOnLoop"] as? Bool == true && loop["loopPath"] as? String == "http-parser", "\(loop)")
        let errors = try #require(loop["errors"] as? [String: Int])
        #expect(!errors.isEmpty, "\(loop)")
        #expect(loop["requests"] as? Int == 12)
        #expect((loop["statuses"] as? [String: Int])?["200"] == 12 - errors.values.reduce(0, +), "\(loop)")
        #expect(errors == tasks["errors"] as? [String: Int], "\(loop) against \(tasks)")
        #expect(loop["statuses"] as? [String: Int] == tasks["statuses"] as? [String: Int])
        #expect(onLoop.requestCount(path: "/d") == onTasks.requestCount(path: "/d"))
    }

    @Test("A redirect or a cookie that starts mid-run hands the rest to the task path: followed, and sent back")
    func redirectOrCookieHandsOver() async throws {
        // Given a server whose /r redirects to /final from its 11th request on
        let redirects = RequestNumbers()
        let server = try LoopbackServer { request in
            if request.path == "/final" { return .json("{}") }
            guard redirects.next() > 10 else { return .json("{}") }
            return LoopbackServer.Reply(status: 302, headers: [("Location", "/final")])
        }
        defer { server.stop() }

        // When 30 requests are sent by 4 connections
        let moved = try await Self.load(try Self.folder(server.url("/r")), ["--requests", "30", "-c", "4"])

        // Then 30 are counted, each redirect from the 11th on was followed once, and the loop had sent the first
        #expect(moved["sentOnLoop"] as? Bool == true && moved["loopPath"] as? String == "http-parser", "\(moved)")
        #expect(moved["requests"] as? Int == 30)
        #expect(moved["statuses"] as? [String: Int] == ["200": 30], "\(moved)")
        #expect(server.requestCount(path: "/final") == 20)

        // Given a server that sets a cookie from its 11th answer on
        let cookies = RequestNumbers()
        let jar = try LoopbackServer { _ in
            cookies.next() > 10 ? .json("{}", headers: [("Set-Cookie", "s=v1; Path=/")]) : .json("{}")
        }
        defer { jar.stop() }
        let folder = try Self.folder(jar.url("/c"))
        let state = folder.url.appendingPathComponent("state")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)

        // When 30 requests are sent by 4 connections
        let set = try await Self.load(folder, ["--requests", "30", "-c", "4"],
                                      environment: ["XDG_STATE_HOME": state.path])

        // Then exactly 30 reached the server, and the last ones carried the cookie
        #expect(set["sentOnLoop"] as? Bool == true && set["requests"] as? Int == 30, "\(set)")
        #expect(set["loopPath"] as? String == "http-parser", "\(set)")
        #expect(jar.requestCount(path: "/c") == 30)
        let sent = jar.requests.map { $0.headers["cookie"] ?? $0.headers["Cookie"] ?? "" }
        #expect(sent.last == "s=v1", "\(sent)")
    }

    @Test("Over HTTP/2 (TLS, nghttpd) the loop's streams count what the server sent")
    func http2() async throws {
        let server = try await HTTP2Server()
        defer { server.stop() }
        let folder = try Self.folder(server.url(HTTP2Server.smallPath))

        let summary = try await Self.load(folder, ["--requests", "50", "-c", "8", "--cacert",
                                                   server.certificate.path])

        #expect(summary["sentOnLoop"] as? Bool == true && summary["loopPath"] as? String == "libcurl", "\(summary)")
        #expect(summary["statuses"] as? [String: Int] == ["200": 50], "\(summary)")
        #expect(summary["bytesReceived"] as? Int == 50 * HTTP2Server.smallBody.count)
        #expect(summary["errors"] as? [String: Int] == [:])
    }

    @Test("Ctrl-C stops the loop's sends and prints the summary of what was answered")
    func interruptStops() async throws {
        let server = try LoopbackServer { _ in .json("{}") }
        defer { server.stop() }
        let folder = try Self.folder(server.url("/i"))

        // When a long run is interrupted once the server has answered 200 requests
        let child = try CourierCLI.start(["load", "api.http", "--name", "ping", "--duration", "600", "-c", "4",
                                          "--json"], in: folder.url)
        #expect(await LoopbackServer.eventually { server.completedCount(path: "/i") >= 200 })
        child.signal(SIGINT)

        // Then it ends with the summary, counting no more than the server answered
        #expect(await child.finish(limit: .seconds(120)) == 0)
        let summary = try CourierCLI.json(child.stdout.text)
        let counted = try #require(summary["requests"] as? Int)
        #expect(summary["sentOnLoop"] as? Bool == true, "\(summary)")
        #expect(summary["loopPath"] as? String == "http-parser", "\(summary)")
        #expect(counted >= 200 && counted <= server.requestCount(path: "/i"), "\(counted)")
        #expect(summary["statuses"] as? [String: Int] == ["200": counted])
    }
}

/// Numbers a test server's requests from 1.
private final class RequestNumbers: Sendable {
    private let count = Mutex(0)

    func next() -> Int {
        count.withLock { count in
            count += 1
            return count
        }
    }
}
