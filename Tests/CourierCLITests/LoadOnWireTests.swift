import CourierTestSupport
import Foundation
import Synchronization
import Testing

/// `courier load` writing its requests on its own connections and reading the responses with http-parser
/// (`loopPath: "http-parser"`): exact counts and the same bytes as libcurl's transfers (`COURIER_LOAD_WIRE=off`),
/// checked against what nginx or the test server saw, never against the clock.
@Suite struct LoadOnWireTests {
    static let small = Data(repeating: UInt8(ascii: "a"), count: 1234)
    static let large = Data((0..<200_000).map { UInt8($0 % 251) })

    /// nginx with a static file of each size, a chunked answer (`/chunked`, the echo module), and `extra`.
    static func nginx(extra: String = "") async throws -> NginxServer {
        let chunked = "location = /chunked { echo_duplicate 300 'chunked body line\\n'; }"
        return try await NginxServer(serviceTimes: [], files: ["small.txt": small, "large.bin": large],
                                     extra: chunked + " " + extra, logsRequests: true)
    }

    static func load(_ url: URL, method: String = "GET", _ options: [String], wire: Bool = true,
                     environment: [String: String] = [:]) async throws -> [String: Any] {
        let folder = try TemporaryFolder("load-wire")
        try folder.write("api.http", "# @name ping\n\(method) \(url.absoluteString)\n")
        var environment = environment
        if !wire { environment["COURIER_LOAD_WIRE"] = "off" }
        let result = try await CourierCLI.run(["load", "api.http", "--json"] + options, in: folder.url,
                                              environment: environment)
        return try CourierCLI.json(result.stdout)
    }

    @Test("--requests N sends exactly N at 1, 3 and 16 connections, each answered once by nginx")
    func exactCounts() async throws {
        let server = try await Self.nginx()
        defer { server.stop() }
        var expected = 0
        for (connections, count) in [(1, 25), (3, 50), (16, 101)] {
            // When N requests are sent by C connections
            let summary = try await Self.load(server.url("/small.txt"), ["--requests", "\(count)", "-c",
                                                                         "\(connections)"])
            expected += count

            // Then the wire path sent them, and nginx answered exactly N (and the one sent the ordinary way)
            #expect(summary["loopPath"] as? String == "http-parser", "\(summary)")
            #expect(summary["requests"] as? Int == count && summary["statuses"] as? [String: Int] == ["200": count])
            #expect(summary["bytesReceived"] as? Int == count * Self.small.count, "\(summary)")
            #expect(server.answeredCount(path: "/small.txt") == expected)
        }
    }

    @Test("Content-Length, chunked and large bodies count the bytes libcurl's transfers count; HEAD counts none")
    func bytesAgreeWithLibcurl() async throws {
        let server = try await Self.nginx()
        defer { server.stop() }
        for (path, method) in [("/small.txt", "GET"), ("/large.bin", "GET"), ("/chunked", "GET"),
                               ("/large.bin", "HEAD")] {
            // When the same run goes once each way
            let options = ["--requests", "40", "-c", "4"]
            let wire = try await Self.load(server.url(path), method: method, options)
            let curl = try await Self.load(server.url(path), method: method, options, wire: false)

            // Then both say the same, down to the byte
            #expect(wire["loopPath"] as? String == "http-parser" && curl["loopPath"] as? String == "libcurl",
                    "\(wire) \(curl)")
            for key in ["requests", "failed", "bytesReceived", "bytesSent"] {
                #expect(wire[key] as? Int == curl[key] as? Int, "\(method) \(path) \(key): \(wire) against \(curl)")
            }
            #expect(wire["statuses"] as? [String: Int] == ["200": 40], "\(wire)")
            let expected = method == "HEAD" ? 0 : path == "/large.bin" ? Self.large.count : nil
            if let expected { #expect(wire["bytesReceived"] as? Int == 40 * expected) }
        }
        #expect(server.answeredCount(path: "/chunked") == 80)
    }

    @Test("A server that says Connection: close every third response: the connection is opened again, counts exact")
    func connectionCloseEveryThird() async throws {
        // Given nginx closing each connection after its third request
        let server = try await Self.nginx(extra: "keepalive_requests 3;")
        defer { server.stop() }

        // When 60 requests are sent by 4 connections
        let summary = try await Self.load(server.url("/small.txt"), ["--requests", "60", "-c", "4"])

        // Then all 60 were answered once, none failed
        #expect(summary["loopPath"] as? String == "http-parser", "\(summary)")
        #expect(summary["statuses"] as? [String: Int] == ["200": 60] && summary["errors"] as? [String: Int] == [:])
        #expect(server.answeredCount(path: "/small.txt") == 60)
        let phases = try #require(summary["phasesMs"] as? [String: Any])
        #expect(phases["connect"] is Double, "\(phases)")
    }

    @Test("A server that closes every connection after its answer without saying so: each request is sent again once")
    func serverClosesKeptConnections() async throws {
        // Given a server that answers and hangs up, keep-alive promised
        let server = try LoopbackServer { _ in .raw("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}") }
        defer { server.stop() }

        // When 30 requests are sent by 3 connections
        let summary = try await Self.load(server.url("/k"), ["--requests", "30", "-c", "3"])

        // Then each was answered once, on a new connection, and none failed
        #expect(summary["loopPath"] as? String == "http-parser", "\(summary)")
        #expect(summary["statuses"] as? [String: Int] == ["200": 30], "\(summary)")
        #expect(server.completedCount(path: "/k") == 30)
    }

    @Test("A response slower than --idle-timeout fails as timedOut, as on libcurl's transfers, and the run goes on")
    func timeout() async throws {
        // Given servers whose 4th answer comes after 3 s
        func server() throws -> LoopbackServer {
            let seen = Mutex(0)
            return try LoopbackServer { _ in
                let number = seen.withLock { $0 += 1; return $0 }
                return LoopbackServer.Reply(body: Data("{}".utf8), delay: number == 4 ? .seconds(3) : .zero)
            }
        }
        let onWire = try server(), onCurl = try server()
        defer { onWire.stop(); onCurl.stop() }

        // When 10 requests are sent one at a time with a 1 s idle limit, each way
        let wire = try await Self.load(onWire.url("/t"), ["--requests", "10", "--idle-timeout", "1"])
        let curl = try await Self.load(onCurl.url("/t"), ["--requests", "10", "--idle-timeout", "1"], wire: false)

        // Then one timed out, nine were answered, both ways alike
        #expect(wire["loopPath"] as? String == "http-parser", "\(wire)")
        #expect(wire["errors"] as? [String: Int] == ["timedOut": 1], "\(wire)")
        #expect(wire["errors"] as? [String: Int] == curl["errors"] as? [String: Int], "\(curl)")
        #expect(wire["statuses"] as? [String: Int] == ["200": 9])
    }

    @Test("The requests on the wire are the bytes libcurl sends for the same request, head and body")
    func sameBytesAsLibcurl() async throws {
        // Given a server that keeps every request's head as it came
        let server = try LoopbackServer { _ in .json("{}") }
        defer { server.stop() }
        let folder = try TemporaryFolder("load-wire-head")
        try folder.write("api.http", "# @name ping\nPOST \(server.url("/h").absoluteString)\nX-Trace: one\n"
                             + "Content-Type: text/plain\n\nhello\n")

        // When 12 requests go on the wire, then 12 through libcurl's transfers, to the same server
        let arguments = ["load", "api.http", "--json", "--requests", "12", "-c", "3"]
        let wire = try CourierCLI.json(try await CourierCLI.run(arguments, in: folder.url).stdout)
        let curl = try CourierCLI.json(try await CourierCLI.run(arguments, in: folder.url,
                                                                environment: ["COURIER_LOAD_WIRE": "off"]).stdout)

        // Then all 24 heads are one, byte for byte, and every body went out
        #expect(wire["loopPath"] as? String == "http-parser" && curl["loopPath"] as? String == "libcurl")
        let requests = server.requests
        #expect(requests.count == 24)
        let first = try #require(requests.first)
        #expect(first.head.hasPrefix("POST /h HTTP/1.1\r\n") && first.head.contains("X-Trace: one\r\n"),
                "\(first.head)")
        #expect(first.head.contains("Content-Length: 5\r\n") && first.head.contains("User-Agent: courier/"))
        for request in requests {
            #expect(request.head == first.head, "\(request.head) against \(first.head)")
            #expect(request.body == Data("hello".utf8))
        }
    }

    @Test("An exchange is one send and one receive: none of libcurl's liveness polls",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/strace")))
    func oneSendOneReceive() async throws {
        let server = try await Self.nginx()
        defer { server.stop() }
        let folder = try TemporaryFolder("load-wire-calls")
        try folder.write("api.http", "# @name ping\nGET \(server.url("/small.txt").absoluteString)\n")
        let summary = folder.url.appendingPathComponent("calls.txt")

        // When 400 requests go over 8 connections, the system calls counted
        let result = try await ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/strace"),
            ["-f", "-c", "-e", "trace=sendto,recvfrom,poll,ppoll", "-o", summary.path, CourierCLI.executable.path,
             "load", "api.http", "--requests", "400", "--concurrency", "8", "--json"],
            in: folder.url, environment: CourierCLI.baseEnvironment)

        // Then each request was one sendto and one recvfrom (and the first, libcurl's, a few more), with no polls
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(server.answeredCount(path: "/small.txt") == 400)
        var calls: [String: Int] = [:]
        for line in try String(contentsOf: summary, encoding: .utf8).split(separator: "\n") {
            let fields = line.split(separator: " ")
            if fields.count >= 5, let count = Int(fields[3]) { calls[String(fields.last!)] = count }
        }
        #expect((400...410).contains(calls["sendto"] ?? 0), "\(calls)")
        #expect((400...420).contains(calls["recvfrom"] ?? 0), "\(calls)")
        #expect((calls["poll"] ?? 0) + (calls["ppoll"] ?? 0) < 40, "\(calls)")
    }

    @Test("Without http-parser the loop sends on libcurl's transfers, with the same counts")
    func withoutHTTPParser() async throws {
        let server = try await Self.nginx()
        defer { server.stop() }

        // When http-parser cannot be loaded
        let missing = ["COURIER_HTTP_PARSER_LIBRARY": "/nonexistent/libhttp_parser.so"]
        let summary = try await Self.load(server.url("/small.txt"), ["--requests", "30", "-c", "3"],
                                          environment: missing)

        // Then libcurl's transfers sent all 30
        #expect(summary["loopPath"] as? String == "libcurl", "\(summary)")
        #expect(summary["statuses"] as? [String: Int] == ["200": 30])
        #expect(server.answeredCount(path: "/small.txt") == 30)
    }

    @Test("Ctrl-C with exchanges under way stops at once and counts only the answered ones")
    func interruptWithExchangesUnderWay() async throws {
        // Given a server that answers its first 20 requests at once and holds every later one for ten minutes
        let seen = Mutex(0)
        let server = try LoopbackServer { _ in
            let number = seen.withLock { $0 += 1; return $0 }
            return LoopbackServer.Reply(body: Data("{}".utf8), delay: number > 20 ? .seconds(600) : .zero)
        }
        defer { server.stop() }
        let folder = try TemporaryFolder("load-wire-interrupt")
        try folder.write("api.http", "# @name ping\nGET \(server.url("/i").absoluteString)\n")

        // When the run is interrupted once all four connections wait for an answer
        let child = try CourierCLI.start(["load", "api.http", "--duration", "600", "-c", "4", "--json"],
                                         in: folder.url)
        #expect(await LoopbackServer.eventually { server.requestCount(path: "/i") >= 24 })
        child.signal(SIGINT)

        // Then it ends long before the held answers, counting exactly the 20 answered
        #expect(await child.finish(limit: .seconds(120)) == 0)
        let summary = try CourierCLI.json(child.stdout.text)
        #expect(summary["loopPath"] as? String == "http-parser", "\(summary)")
        #expect(summary["requests"] as? Int == 20 && summary["statuses"] as? [String: Int] == ["200": 20],
                "\(summary)")
    }
}
