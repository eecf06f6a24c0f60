import CourierTestSupport
import CourierDemo
import Foundation
import Testing

/// `courier send` on bodies that arrive over time (SSE, NDJSON) or are large (`-o`, progress line),
/// through the built binary against the demo server.
@Suite(.serialized) struct SendCommandStreamingTests {
    let server: DemoServer

    init() throws { server = try DemoServer.start() }

    func url(_ path: String) -> String { server.baseURL.absoluteString + path }

    @Test func serverSentEventsArePrintedInOrderWithPrettyJSONDataAfterTheStatusAndHeaders() async throws {
        defer { server.stop() }
        // Given an event stream of six events (the fifth a two-line `notice`)
        // When it is sent for people
        let result = try await CourierCLI.run(["send", url("/events?count=6&interval_ms=0")])
        // Then the status line and headers come first, once, then each event in order, its JSON data
        // pretty, then the count of records and the attempts
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("HTTP/1.1 200 OK\n"))
        #expect(result.stdout.components(separatedBy: "HTTP/1.1 200 OK").count == 2)
        #expect(result.stdout.components(separatedBy: "Content-Type: text/event-stream").count == 2)
        let headings = result.stdout.components(separatedBy: "\n").filter { $0.hasPrefix("event: ") }
        #expect(headings == ["event: tick  id: 1", "event: tick  id: 2", "event: tick  id: 3", "event: tick  id: 4",
                             "event: notice  id: 5", "event: tick  id: 6"])
        #expect(result.stdout.contains("event: tick  id: 1\n{\n  \"n\": 1,\n  \"time\": \""))
        #expect(result.stdout.contains("event: notice  id: 5\nnotice 5\n{\"n\":5,"))
        let headers = try #require(result.stdout.range(of: "Content-Type: text/event-stream"))
        let firstEvent = try #require(result.stdout.range(of: "event: tick  id: 1"))
        let lastEvent = try #require(result.stdout.range(of: "event: tick  id: 6"))
        let summary = try #require(result.stdout.range(of: "(body: 6 records streamed above)"))
        #expect(headers.upperBound < firstEvent.lowerBound)
        #expect(lastEvent.upperBound < summary.lowerBound)
        #expect(result.stdout.contains("attempt 1  200  "))
    }

    @Test func withJSONEachEventIsOneObjectThenTheResponseWithoutItsBody() async throws {
        defer { server.stop() }
        // Given an event stream of three events
        // When it is sent with --json
        let result = try await CourierCLI.run(["send", url("/events?count=3&interval_ms=0"), "--json"])
        // Then there are three event objects in order, then the response object
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(result.status == 0)
        #expect(lines.count == 4)
        let objects = try lines.map { try CourierCLI.json($0) }
        for (index, event) in objects.prefix(3).enumerated() {
            #expect(event["type"] as? String == "event")
            #expect(event["event"] as? String == "tick")
            #expect(event["id"] as? String == "\(index + 1)")
            #expect((event["data"] as? String)?.hasPrefix("{\"n\":\(index + 1),") == true)
            #expect((event["json"] as? [String: Any])?["n"] as? Int == index + 1)
        }
        let response = try #require(objects.last)
        #expect(response["status"] as? Int == 200)
        #expect(response["body"] is NSNull)
        #expect(response["streamed"] as? Int == 3)
        #expect((response["attempts"] as? [Any])?.count == 1)
    }

    @Test func ndjsonLinesArePrintedOneByOneAsJSONObjectsAndAsPrettyText() async throws {
        defer { server.stop() }
        // Given an NDJSON stream of four lines
        // When it is sent with --json and for people
        let json = try await CourierCLI.run(["send", url("/ndjson?count=4&interval_ms=0"), "--json"])
        let human = try await CourierCLI.run(["send", url("/ndjson?count=4&interval_ms=0")])
        // Then each line is one `line` object in order, and the text shows each record pretty
        let objects = try json.stdout.split(separator: "\n").map { try CourierCLI.json(String($0)) }
        #expect(json.status == 0)
        #expect(objects.count == 5)
        #expect(objects.prefix(4).map { $0["type"] as? String } == Array(repeating: "line", count: 4))
        #expect(objects.prefix(4).map { ($0["json"] as? [String: Any])?["seq"] as? Int } == [1, 2, 3, 4])
        #expect(objects.last?["streamed"] as? Int == 4)
        #expect(human.status == 0)
        #expect(human.stdout.hasPrefix("HTTP/1.1 200 OK\n"))
        #expect(human.stdout.contains("Content-Type: application/x-ndjson\n"))
        #expect(human.stdout.contains("\n\n{\n  \""))
        #expect(human.stdout.contains("\n  \"seq\": 1,\n"))
        #expect(human.stdout.contains("\"message\": \"event 4 of 4\""))
        #expect(human.stdout.contains("(body: 4 records streamed above)"))
    }

    @Test func eventsArePrintedWhileTheStreamIsStillOpenAndCtrlCStopsIt() async throws {
        defer { server.stop() }
        // Given an event stream with 1.5 s between its three events
        let courier = try CourierCLI.start(["send", url("/events?count=3&interval_ms=1500")])
        defer { if courier.isRunning { courier.signal(SIGTERM) } }
        // When the first event has been read from the pipe
        let sawFirst = await courier.stdout.wait { $0.contains("event: tick  id: 1") }
        // Then the process is still running (the stream is not over), the status line came before the
        // event, and Ctrl-C ends it cleanly
        #expect(sawFirst)
        #expect(courier.isRunning)
        let statusLine = try #require(courier.stdout.text.range(of: "HTTP/1.1 200 OK"))
        let firstEvent = try #require(courier.stdout.text.range(of: "event: tick  id: 1"))
        #expect(statusLine.upperBound < firstEvent.lowerBound)
        courier.signal(SIGINT)
        let status = await courier.finish() ?? -1
        #expect(status == 1)
        #expect(courier.stderr.text.contains("Error: cancelled [cancelled]"))
        #expect(courier.stderr.text.contains("streamed before the request ended"))
        #expect(!courier.stdout.text.contains("id: 3"))
    }

    @Test func aPlainJSONBodyIsNotMistakenForAStream() async throws {
        defer { server.stop() }
        // Given an ordinary JSON response
        let result = try await CourierCLI.run(["send", url("/users/1"), "--json"])
        // Then it is printed once, as the body of the one response object
        let object = try CourierCLI.json(result.stdout)
        #expect(result.status == 0)
        #expect((object["body"] as? String)?.contains("\"id\"") == true)
        #expect(object["streamed"] == nil)
    }
}
