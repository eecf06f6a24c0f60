import CourierTestSupport
import Foundation
import Synchronization
import Testing

/// `courier load`: one saved request sent by concurrent workers through `courier run`'s path, counted and
/// summarised; the counts are checked against what the server saw, never against the clock.
@Suite struct LoadCommandTests {
    static func folder(_ url: URL, script: String = "", query: String = "") throws -> TemporaryFolder {
        let folder = try TemporaryFolder("load")
        try folder.write("api.http", "# @name ping\n\(script)GET \(url.absoluteString)\(query)\n")
        return folder
    }

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
    }

    @Test("--requests N sends exactly N; the --json summary counts what the server saw")
    func requestsSendsExactlyN() async throws {
        // Given a server that answers every fifth request with 503
        let seen = Seen()
        let server = try LoopbackServer { _ in
            let number = seen.count.withLock { count in
                count += 1
                return count
            }
            return .json(#"{"ok":true}"#, status: number % 5 == 0 ? 503 : 200)
        }
        defer { server.stop() }
        let folder = try Self.folder(server.url("/ping"))

        // When 40 requests are sent by 4 workers
        let result = try await CourierCLI.run(["load", "api.http", "--name", "ping", "--requests", "40",
                                               "--concurrency", "4", "--json"], in: folder.url)

        // Then the server saw exactly 40, and the summary's statuses add up to them
        #expect(server.requestCount(path: "/ping") == 40)
        let summary = try Self.json(result.stdout)
        #expect(summary["requests"] as? Int == 40)
        let statuses = try #require(summary["statuses"] as? [String: Int])
        #expect(statuses == ["200": 32, "503": 8])
        #expect(summary["failed"] as? Int == 8)
        #expect(summary["mode"] as? String == "closed")
        #expect(summary["concurrency"] as? Int == 4)
        #expect((summary["bytesReceived"] as? Int ?? 0) >= 40 * 11)
        #expect((summary["requestsPerSecond"] as? Double ?? 0) > 0)
        let latency = try #require(summary["latencyMs"] as? [String: Any])
        for key in ["p50", "p90", "p99", "max", "min", "mean"] { #expect(latency[key] is Double, "\(key)") }
        let p50 = try #require(latency["p50"] as? Double), p99 = try #require(latency["p99"] as? Double)
        let max = try #require(latency["max"] as? Double)
        #expect(p50 <= p99 && p99 <= max)
        let phases = try #require(summary["phasesMs"] as? [String: Any])
        #expect(phases["firstByte"] is Double && phases["connect"] is Double)
        #expect(summary["retryAttempts"] as? Int == 1)
        // And a failed request makes the exit status 1
        #expect(result.status == 1)
    }

    @Test("--duration: the requests counted are the requests the server saw; text summary with percentiles")
    func durationCountsAddUp() async throws {
        let server = try LoopbackServer { _ in .json("{}") }
        defer { server.stop() }
        let folder = try Self.folder(server.url("/d"))

        let result = try await CourierCLI.run(["load", "api.http", "--name", "ping", "--duration", "1",
                                               "--concurrency", "3"], in: folder.url)

        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let count = server.requestCount(path: "/d")
        #expect(count > 0)
        #expect(result.stdout.hasPrefix("\(count) requests in "), "\(result.stdout)")
        #expect(result.stdout.contains("statuses: 200 ×\(count)"), "\(result.stdout)")
        #expect(result.stdout.contains("latency: p50 "), "\(result.stdout)")
        #expect(result.stdout.contains("retries: off"), "\(result.stdout)")
        // And no live view without a terminal
        #expect(!result.stderr.contains("req/s"), "\(result.stderr)")
    }

    @Test("--rate paces the sends: R a second for D seconds is R × D requests, open loop")
    func ratePaces() async throws {
        let server = try LoopbackServer { _ in .json("{}") }
        defer { server.stop() }
        let folder = try Self.folder(server.url("/r"))

        // When 20 requests a second are asked for over 1.5 s, by up to 8 workers
        let result = try await CourierCLI.run(["load", "api.http", "--name", "ping", "--duration", "1.5",
                                               "--rate", "20", "--concurrency", "8", "--json"], in: folder.url)

        // Then exactly the 30 requests due in that time were sent, whatever the machine's speed
        #expect(server.requestCount(path: "/r") == 30)
        let summary = try Self.json(result.stdout)
        #expect(summary["requests"] as? Int == 30)
        #expect(summary["mode"] as? String == "open")
        #expect(summary["rate"] as? Double == 20 || summary["rate"] as? Int == 20)
    }

    @Test("A closed port: every request is counted under its error kind, without retries unless --retry")
    func errorsByKind() async throws {
        let folder = try Self.folder(URL(string: "http://127.0.0.1:\(LoopbackSocket.closedPort())/x")!)

        let result = try await CourierCLI.run(["load", "api.http", "--name", "ping", "--requests", "6",
                                               "--concurrency", "2", "--json"], in: folder.url)
        #expect(result.status == 1)
        let summary = try Self.json(result.stdout)
        #expect(summary["errors"] as? [String: Int] == ["connectionRefused": 6], "\(result.stdout)")
        #expect(summary["statuses"] as? [String: Int] == [:])
        #expect(summary["sentDirect"] as? Bool == true, "\(result.stdout)")

        // And with --retry the summary names retries as on
        let retried = try await CourierCLI.run(["load", "api.http", "--name", "ping", "--requests", "1",
                                                "--retry", "2"], in: folder.url)
        #expect(retried.stdout.contains("errors: connectionRefused ×1"), "\(retried.stdout)")
        #expect(retried.stdout.contains("retries: on, up to 2 attempts a request"), "\(retried.stdout)")
        // And the retry step runs: the request goes through the pipeline, not straight to the transport
        #expect(retried.stdout.contains("resolved: once") && !retried.stdout.contains("straight to the transport"),
                "\(retried.stdout)")
    }

    @Test("A pre-request script runs for every request, and the variable it sets is sent")
    func scriptVariableUsed() async throws {
        let server = try LoopbackServer { _ in .json("{}") }
        defer { server.stop() }
        let script = "< {% request.variables.set(\"tag\", \"t-\" + (1 + 1)) %}\n"
        let folder = try Self.folder(server.url("/s"), script: script, query: "?tag={{tag}}")

        let result = try await CourierCLI.run(["load", "api.http", "--name", "ping", "--requests", "5",
                                               "--concurrency", "2"], in: folder.url)

        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(server.requests.map(\.query) == Array(repeating: "tag=t-2", count: 5))
    }

    @Test("A cookie the server sets goes with the next requests, as in courier run")
    func cookiesCarry() async throws {
        let server = try LoopbackServer { _ in .json("{}", headers: [("Set-Cookie", "session=s1; Path=/")]) }
        defer { server.stop() }
        let folder = try Self.folder(server.url("/c"))

        // A state folder of its own: the jar is kept between runs
        let state = folder.url.appendingPathComponent("state")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        let result = try await CourierCLI.run(["load", "api.http", "--name", "ping", "--requests", "3"],
                                              in: folder.url, environment: ["XDG_STATE_HOME": state.path])

        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let sent = server.requests.map { $0.headers["cookie"] ?? $0.headers["Cookie"] ?? "" }
        #expect(sent == ["", "session=s1", "session=s1"], "\(sent)")
        // through the way past the pipeline, which keeps the cookie jar
        #expect(result.stdout.contains("sent straight to the transport"), "\(result.stdout)")
    }

    @Test("A request that never changes is resolved once; one using {{$uuid}} (through a variable) each time")
    func resolvedOnceOrEachTime() async throws {
        let server = try LoopbackServer { _ in .json("{}") }
        defer { server.stop() }

        // Given a plain request, the summary says it was resolved once, and every request reached the server
        let plain = try Self.folder(server.url("/plain"))
        let once = try await CourierCLI.run(["load", "api.http", "--name", "ping", "--requests", "12",
                                             "--concurrency", "3", "--json"], in: plain.url)
        #expect(once.status == 0, "\(once.stdout)\(once.stderr)")
        #expect(try Self.json(once.stdout)["resolvedOnce"] as? Bool == true)
        // and went straight to the transport: no step of the pipeline has work for it
        #expect(try Self.json(once.stdout)["sentDirect"] as? Bool == true)
        #expect(server.requestCount(path: "/plain") == 12)

        // When the request uses a file variable holding {{$uuid}}
        let dynamic = try TemporaryFolder("load")
        try dynamic.write("api.http", "@id = {{$uuid}}\n\n# @name ping\nGET \(server.url("/uuid"))?id={{id}}\n")
        let each = try await CourierCLI.run(["load", "api.http", "--name", "ping", "--requests", "12",
                                             "--concurrency", "3"], in: dynamic.url)

        // Then it is resolved for every request: twelve different ids went out, and the summary says so
        #expect(each.status == 0, "\(each.stdout)\(each.stderr)")
        #expect(each.stdout.contains("resolved: for every request"), "\(each.stdout)")
        let ids = server.requests.filter { $0.path == "/uuid" }.map(\.query)
        #expect(ids.count == 12 && Set(ids).count == 12, "\(ids)")
    }

    @Test("A cookie set on every response is saved once, at the end: the jar holds the last value")
    func cookieJarSavedAtEnd() async throws {
        let seen = Seen()
        let server = try LoopbackServer { _ in
            let number = seen.count.withLock { count in
                count += 1
                return count
            }
            return .json("{}", headers: [("Set-Cookie", "n=v\(number); Path=/")])
        }
        defer { server.stop() }
        let folder = try Self.folder(server.url("/j"))
        let state = folder.url.appendingPathComponent("state")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)

        let result = try await CourierCLI.run(["load", "api.http", "--name", "ping", "--requests", "30"],
                                              in: folder.url, environment: ["XDG_STATE_HOME": state.path])

        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let jar = state.appendingPathComponent("courier/cookies/default.json")
        let saved = try String(contentsOf: jar, encoding: .utf8)
        #expect(saved.contains("\"v30\""), "\(saved)")
        // And each request carried the cookie the one before it was given
        let sent = server.requests.map { $0.headers["cookie"] ?? $0.headers["Cookie"] ?? "" }
        #expect(sent.last == "n=v29", "\(sent)")
    }

    @Test("An OAuth 2.0 token is fetched once for the whole run, whatever the number of workers and clients")
    func tokenFetchedOnce() async throws {
        let server = try LoopbackServer { request in
            request.path == "/token" ? .json(#"{"access_token": "tok-1", "token_type": "Bearer", "expires_in": 3600}"#)
                                     : .json("{}")
        }
        defer { server.stop() }
        let folder = try TemporaryFolder("load-oauth")
        let base = server.baseURL.absoluteString
        try folder.write("http-client.env.json", """
            {"dev": {"Security": {"Auth": {"svc": {"Type": "OAuth2", "Grant Type": "Client Credentials",
             "Token URL": "\(base)/token", "Client ID": "app", "Client Secret": "s"}}}}}
            """)
        try folder.write("api.http", "# @name ping\nGET \(base)/api\nAuthorization: Bearer {{$auth.token(\"svc\")}}\n")

        let result = try await CourierCLI.run(["load", "api.http", "--name", "ping", "--env", "dev", "--requests",
                                               "40", "--concurrency", "8", "--json"], in: folder.url,
                                              environment: ["XDG_STATE_HOME": folder.url.appendingPathComponent("state").path])

        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(server.requestCount(path: "/token") == 1)
        // The token step has work for each request: none goes straight to the transport
        #expect(try Self.json(result.stdout)["sentDirect"] as? Bool == false, "\(result.stdout)")
        let sent = server.requests.filter { $0.path == "/api" }.map { $0.headers["authorization"] ?? $0.headers["Authorization"] }
        #expect(sent.count == 40 && sent.allSatisfy { $0 == "Bearer tok-1" }, "\(sent)")
    }

    @Test("Latency counts from the transfer's start (closed loop), the due time (--rate) or the first attempt")
    func latencyOrigin() async throws {
        let server = try LoopbackServer { _ in .json("{}") }
        defer { server.stop() }
        let folder = try Self.folder(server.url("/o"))
        func origin(_ options: [String]) async throws -> String? {
            let result = try await CourierCLI.run(["load", "api.http", "--name", "ping", "--json"] + options,
                                                  in: folder.url)
            return try Self.json(result.stdout)["latencyFrom"] as? String
        }

        #expect(try await origin(["--requests", "4"]) == "transferStart")
        #expect(try await origin(["--duration", "0.2", "--rate", "20"]) == "dueTime")
        #expect(try await origin(["--requests", "4", "--retry", "2"]) == "sendStart")
        let text = try await CourierCLI.run(["load", "api.http", "--name", "ping", "--requests", "4"], in: folder.url)
        #expect(text.stdout.contains(" (each exchange, from its transfer's start)"), "\(text.stdout)")
    }

    @Test("A kept connection's socket stays in the loop's epoll set between requests: no epoll_ctl per request",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/strace")))
    func keptSocketStaysWatched() async throws {
        let server = try LoopbackServer { _ in .json("{}") }
        defer { server.stop() }
        let folder = try Self.folder(server.url("/k"))
        let trace = folder.url.appendingPathComponent("trace.txt")

        // When 400 requests go over 8 kept connections, with every epoll_ctl call traced
        let result = try await ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/strace"),
            ["-f", "-e", "trace=epoll_ctl", "-o", trace.path, CourierCLI.executable.path, "load", "api.http",
             "--name", "ping", "--requests", "400", "--concurrency", "8", "--json"],
            in: folder.url, environment: CourierCLI.baseEnvironment)

        // Then all were answered, and the epoll set changed about twice a connection, not with the requests
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(server.requestCount(path: "/k") == 400)
        let calls = try String(contentsOf: trace, encoding: .utf8).split(separator: "\n")
            .filter { $0.contains("epoll_ctl(") }
        #expect(calls.count < 60, "\(calls.count) epoll_ctl calls for 400 requests")
    }

    @Test("Against an endpoint that takes 5 ms (nginx's echo_sleep), the latency percentiles are at least 5 ms")
    func latencyCoversTheServiceTime() async throws {
        // Given nginx answering /sleep/5 after 5 ms: no exchange can take less, whatever courier does
        let server = try await NginxServer(serviceTimes: [5])
        defer { server.stop() }
        let folder = try Self.folder(server.url("/sleep/5"))

        // When one worker sends 20 requests
        let result = try await CourierCLI.run(["load", "api.http", "--name", "ping", "--requests", "20", "--json"],
                                              in: folder.url)

        // Then every one was answered, and the latency measured around each exchange covers the 5 ms
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let summary = try Self.json(result.stdout)
        #expect(summary["statuses"] as? [String: Int] == ["200": 20])
        let latency = try #require(summary["latencyMs"] as? [String: Any])
        for key in ["p50", "p90", "p99", "min"] {
            #expect((latency[key] as? Double ?? 0) >= 5, "\(key): \(latency[key] ?? "none") ms")
        }
    }

    @Test("Bad usage: --duration with --requests, no --name in a file of several requests")
    func badUsage() async throws {
        let folder = try Self.folder(URL(string: "http://127.0.0.1:1/")!)
        let both = try await CourierCLI.run(["load", "api.http", "--name", "ping", "--requests", "3",
                                             "--duration", "1"], in: folder.url)
        #expect(both.status == 2 && both.stderr.contains("exactly one of --duration"), "\(both.stderr)")
        try folder.write("two.http", "# @name a\nGET http://127.0.0.1:1/a\n\n###\n# @name b\nGET http://127.0.0.1:1/b\n")
        let unnamed = try await CourierCLI.run(["load", "two.http", "--requests", "3"], in: folder.url)
        #expect(unnamed.status == 2 && unnamed.stderr.contains("two.http holds 2 requests: pick one with --name NAME (a, b)"),
                "\(unnamed.stderr)")
    }

    @Test("A file of one request needs no --name")
    func oneRequestNeedsNoName() async throws {
        let seen = Seen()
        let server = try LoopbackServer { _ in
            seen.count.withLock { $0 += 1 }
            return .json("{}")
        }
        defer { server.stop() }
        let folder = try Self.folder(server.url("/ping"))
        let result = try await CourierCLI.run(["load", "api.http", "--requests", "25", "-c", "2", "--json"],
                                              in: folder.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(seen.count.withLock { $0 } == 25)
    }
}

/// How many requests a test's server has answered.
private final class Seen: Sendable {
    let count = Mutex(0)
}
