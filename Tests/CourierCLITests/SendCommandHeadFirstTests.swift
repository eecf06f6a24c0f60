import CourierTestSupport
import CourierDemo
import Foundation
import Testing

/// `courier send` prints a stream's status line and headers when the head arrives and decides from
/// Content-Type that the body is a stream, so the first record shows while the server still waits to
/// send the second (a minute later, a margin for a loaded machine; the idle timeout is raised past it, so a
/// test process slow to read cannot let the 30 s default end the stream): through the built binary, read while it runs.
@Suite(.serialized) struct SendCommandHeadFirstTests {
    let server: DemoServer

    init() throws { server = try DemoServer.start() }

    func url(_ path: String) -> String { server.baseURL.absoluteString + path }

    /// Interrupts a still-running courier and waits for it to end.
    func stop(_ courier: ChildProcess) async throws {
        if courier.isRunning { courier.signal(SIGINT) }
        await courier.finish()
    }

    /// What `courier send` printed of a slow stream by the time the status line and `marker` were on
    /// stdout (bounded wait), whether it was still running then, and its standard error once stopped.
    func firstOutput(of path: String, until marker: String) async throws
        -> (sawBoth: Bool, running: Bool, text: String, stderr: String) {
        let courier = try CourierCLI.start(["send", url(path), "--idle-timeout", "600"])
        defer { if courier.isRunning { courier.signal(SIGTERM) } }
        let sawBoth = await courier.stdout.wait { $0.contains("HTTP/1.1 200 OK") && $0.contains(marker) }
        let text = courier.stdout.text
        let running = courier.isRunning
        try await stop(courier)
        return (sawBoth, running, text, courier.stderr.text)
    }

    @Test("The status line, headers and first event are printed while the second event is a minute away")
    func eventStreamHeadAndFirstEventBeforeTheSecond() async throws {
        defer { server.stop() }
        // Given an event stream with a minute between its two events,
        // When the status line and the first event have been read from the pipe
        let (sawBoth, running, text, stderr) = try await firstOutput(of: "/events?count=2&interval_ms=60000",
                                                                     until: "event: tick  id: 1")
        // Then they came before the second event, in order: status, headers, a blank line, the event
        #expect(sawBoth)
        #expect(running)
        #expect(!text.contains("id: 2"))
        #expect(text.hasPrefix("HTTP/1.1 200 OK\n"))
        let headers = try #require(text.range(of: "Content-Type: text/event-stream\n"))
        let event = try #require(text.range(of: "\n\nevent: tick  id: 1\n{\n  \"n\": 1,"))
        #expect(headers.upperBound <= event.lowerBound)
        #expect(stderr.contains("(1 record streamed before the request ended)"))
    }

    @Test("An NDJSON body labelled by Content-Type prints its first record at once, not one record late")
    func ndjsonFirstRecordBeforeTheSecondArrives() async throws {
        defer { server.stop() }
        // Given an NDJSON stream with a minute between its two lines,
        // When the status line and the first record have been read from the pipe
        let (sawBoth, running, text, _) = try await firstOutput(of: "/ndjson?count=2&interval_ms=60000",
                                                                until: "\"seq\": 1")
        // Then both came while the second line was still a minute away, the head first
        #expect(sawBoth)
        #expect(running)
        #expect(!text.contains("\"seq\": 2"))
        let headers = try #require(text.range(of: "Content-Type: application/x-ndjson\n"))
        let record = try #require(text.range(of: "\"message\": \"event 1 of 2\""))
        #expect(text.hasPrefix("HTTP/1.1 200 OK\n"))
        #expect(headers.upperBound <= record.lowerBound)
    }

    @Test("With --json the first NDJSON record is one object printed at once, and no head is printed")
    func ndjsonAsJSONPrintsTheFirstObjectAtOnce() async throws {
        defer { server.stop() }
        // Given an NDJSON stream with a minute between its two lines, sent with --json
        let courier = try CourierCLI.start(["send", url("/ndjson?count=2&interval_ms=60000"), "--json",
                                           "--idle-timeout", "600"])
        defer { if courier.isRunning { courier.signal(SIGTERM) } }
        // When a first whole line has been read from the pipe
        let sawFirst = await courier.stdout.wait { $0.contains("\n") }
        let text = courier.stdout.text
        let running = courier.isRunning
        try await stop(courier)
        // Then it is the first record's object, printed while the stream was open, and nothing else
        #expect(sawFirst)
        #expect(running)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.count == 1)
        let object = try CourierCLI.json(try #require(lines.first))
        #expect(object["type"] as? String == "line")
        #expect((object["json"] as? [String: Any])?["seq"] as? Int == 1)
    }
}

/// How Content-Type at the head decides whether a body is a stream, for bodies that look like NDJSON.
@Suite struct SendCommandStreamTypeTests {
    static let ndjson = "{\"seq\":1}\n{\"seq\":2}\n"

    static func server() throws -> LoopbackServer {
        try LoopbackServer { request in
            let type = request.query.removingPercentEncoding?.replacingOccurrences(of: "type=", with: "") ?? ""
            return LoopbackServer.Reply(headers: type.isEmpty ? [] : [("Content-Type", type)],
                                        body: Data(Self.ndjson.utf8))
        }
    }

    @Test("NDJSON under a type that says nothing (none, text/plain, application/json) is found by its bytes")
    func unspecificTypesAreSniffed() async throws {
        // Given NDJSON bodies without a Content-Type, as text/plain and as application/json
        let server = try Self.server()
        defer { server.stop() }
        for query in ["", "?type=text/plain", "?type=application/json"] {
            // When each is sent
            let result = try await CourierCLI.run(["send", server.url("/lines" + query).absoluteString, "--json"])
            // Then its two lines are streamed as records
            let objects = try result.stdout.split(separator: "\n").map { try CourierCLI.json(String($0)) }
            #expect(objects.prefix(2).map { $0["type"] as? String } == ["line", "line"], "\(query)")
            #expect(objects.last?["streamed"] as? Int == 2, "\(query)")
        }
    }

    @Test("Lines that start like NDJSON but whose first is not exactly one JSON value are one body, not a stream")
    func aFirstLineThatIsNotOneJSONValueIsNoStream() async throws {
        // Given application/json bodies whose second line starts like a record but whose first line is two values,
        // a value with text after it, or broken JSON
        let bodies = ["{\"a\":1}{\"b\":2}\n{\"c\":3}\n", "{\"a\":1} and more\n{\"c\":3}\n",
                      "{\"a\":}\n{\"c\":3}\n", "[1,2\n{\"c\":3}\n", "{\"a\":\"\\q\"}\n{\"c\":3}\n"]
        for body in bodies {
            let server = try LoopbackServer { _ in
                LoopbackServer.Reply(headers: [("Content-Type", "application/json")], body: Data(body.utf8))
            }
            defer { server.stop() }
            // When each is sent
            let result = try CourierCLI.json(try await CourierCLI.run(["send", server.url("/").absoluteString, "--json"]).stdout)
            // Then it is one response with its whole body
            #expect(result["body"] as? String == body, "\(body)")
            #expect(result["streamed"] == nil, "\(body)")
        }
        // And a first line that is one value with blanks inside and after it still starts a stream
        let server = try LoopbackServer { _ in
            LoopbackServer.Reply(headers: [("Content-Type", "application/json")], body: Data("[1, {\"x\": [true]}] \n{}\n".utf8))
        }
        defer { server.stop() }
        let streamed = try await CourierCLI.run(["send", server.url("/").absoluteString, "--json"])
        #expect(streamed.stdout.split(separator: "\n").last.map { try? CourierCLI.json(String($0))["streamed"] as? Int } == 2)
    }

    @Test("A body whose Content-Type names another format is shown whole, unless --stream is given")
    func otherTypesAreNotStreamsUnlessForced() async throws {
        // Given NDJSON-looking bytes served as text/html
        let server = try Self.server()
        defer { server.stop() }
        let url = server.url("/lines?type=text/html").absoluteString
        // When it is sent, and sent again with --stream
        let plain = try CourierCLI.json(try await CourierCLI.run(["send", url, "--json"]).stdout)
        let forced = try await CourierCLI.run(["send", url, "--json", "--stream"])
        // Then the first is one response with its body, the second two records and the response
        #expect(plain["body"] as? String == Self.ndjson)
        #expect(plain["streamed"] == nil)
        let objects = try forced.stdout.split(separator: "\n").map { try CourierCLI.json(String($0)) }
        #expect(objects.count == 3)
        #expect(objects.last?["streamed"] as? Int == 2)
    }
}

extension SendCommandStreamTypeTests {
    @Test("HEAD on a stream's URL prints the head once, as for any HEAD, with no record count")
    func headOfAStreamIsAnOrdinaryHead() async throws {
        // Given a URL that serves NDJSON
        let server = try Self.server()
        defer { server.stop() }
        // When HEAD is sent to it
        let url = server.url("/lines?type=application/x-ndjson").absoluteString
        let result = try await CourierCLI.run(["send", "HEAD", url])
        // Then the head is printed once and nothing speaks of streamed records
        #expect(result.status == 0)
        #expect(result.stdout.components(separatedBy: "HTTP/1.1 200 OK").count == 2)
        #expect(result.stdout.contains("Content-Type: application/x-ndjson"))
        #expect(!result.stdout.contains("streamed"))
    }
}

/// A stream answered from the HTTP cache: the cache hands over the stored head, and the stored body
/// is printed record by record like one from the network.
@Suite struct SendCommandCachedStreamTests {
    @Test("A fresh cache hit on an NDJSON response prints its head once, then its records")
    func aCachedStreamIsPrintedAsRecords() async throws {
        // Given a cacheable NDJSON response and an empty cache folder
        let server = try LoopbackServer { _ in
            LoopbackServer.Reply(headers: [("Content-Type", "application/x-ndjson"), ("Cache-Control", "max-age=600")],
                                 body: Data("{\"seq\":1}\n{\"seq\":2}\n".utf8))
        }
        defer { server.stop() }
        let folder = try TemporaryFolder("cache-tests")
        let arguments = ["send", server.url("/feed").absoluteString, "--cache-dir", folder.url.path]
        // When it is sent twice, the second time for people and once more for scripts
        _ = try await CourierCLI.run(arguments)
        let human = try await CourierCLI.run(arguments)
        let json = try await CourierCLI.run(arguments + ["--json"])
        // Then the later ones came from the cache and show the head once and both records
        #expect(server.requestCount(path: "/feed") == 1)
        #expect(human.status == 0)
        #expect(human.stdout.hasPrefix("HTTP/1.1 200 OK\n"))
        #expect(human.stdout.components(separatedBy: "HTTP/1.1 200 OK").count == 2)
        #expect(human.stdout.contains("\"seq\": 2"))
        #expect(human.stdout.contains("(body: 2 records streamed above)"))
        let objects = try json.stdout.split(separator: "\n").map { try CourierCLI.json(String($0)) }
        #expect(objects.count == 3)
        #expect(objects.last?["cache"] as? String == "fresh")
        #expect(objects.last?["streamed"] as? Int == 2)
    }
}

/// The head printed ahead of a stream is the server's text like the body: shown, never executed.
@Suite struct SendCommandStreamHeadSafetyTests {
    @Test("A stream's early head shows escapes as visible symbols and redacts its secrets")
    func escapesInTheEarlyHeadAreShownNotRun() async throws {
        // Given an event stream whose reason phrase sets the terminal title and whose header clears the screen
        let server = try LoopbackServer { _ in
            .raw("HTTP/1.1 200 O\u{1B}]0;pwned\u{07}K\r\nContent-Type: text/event-stream\r\n"
                + "X-Evil: \u{1B}[2J\u{9B}31m\r\nSet-Cookie: session=s3cr3t\r\nConnection: close\r\n\r\ndata: hi\n\n")
        }
        defer { server.stop() }
        // When it is sent for people
        let result = try await CourierCLI.run(["send", server.url("/evil").absoluteString])
        // Then the head came first with every control shown as a symbol, and no raw escape reached stdout
        #expect(result.stdout.hasPrefix("HTTP/1.1 200 O\\x1B]0;pwned\\x07K\n"))
        #expect(result.stdout.contains("X-Evil: \\x1B[2J"))
        #expect(!result.stdout.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x9B })
        #expect(result.stdout.contains("(body: 1 record streamed above)"))
        // And the cookie it set is redacted there as everywhere
        #expect(result.stdout.contains("Set-Cookie: REDACTED"))
        #expect(!result.stdout.contains("s3cr3t"))
    }
}
