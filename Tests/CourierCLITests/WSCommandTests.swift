import CourierTestSupport
import CourierDemo
import Foundation
import Testing
@testable import CourierWebSocket

/// The JSON objects of `--json` output, one per line.
func jsonLines(_ text: String) throws -> [[String: Any]] {
    try text.split(separator: "\n").map {
        try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
}

@Suite(.serialized) struct WSCommandTests {
    @Test func helpIsGeneratedFromTheOptionTable() async throws {
        let result = try await CourierCLI.run(["ws", "--help"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("OVERVIEW: Open a WebSocket, send and print messages.\n\n"
                                        + "USAGE: courier ws URL [options]\n"))
        #expect(result.stdout.contains("\n  --ping SECONDS          Keepalive ping interval; 0 turns it off "
                                       + "(default: 30).\n"))
        #expect(result.stdout.contains("\n  -k, --insecure          Do not verify the server's TLS certificate.\n"))
        #expect(result.stdout.contains("\nLines on standard input are sent as text messages when it is not a "
                                       + "terminal.\n"))
    }

    @Test func usageErrorsExitWithTwoAndSayWhatToType() async throws {
        let missing = try await CourierCLI.run(["ws"])
        #expect(missing.status == 2)
        #expect(missing.stderr == "Error: missing URL; try: courier ws ws://127.0.0.1:8088/ws/echo\n"
                    + "Help:  courier ws --help\n")
        let scheme = try await CourierCLI.run(["ws", "ftp://x/"])
        #expect(scheme.status == 2)
        #expect(scheme.stderr.contains("is not a ws:// or wss:// URL"))
    }

    @Test func jsonOutputShowsOpenMessagesBothWaysAndTheClose() async throws {
        // Given the echo endpoint
        let server = try DemoServer.start()
        defer { server.stop() }
        // When two messages are sent with --send and one on stdin, and three echoes are awaited
        let result = try await CourierCLI.run(["ws", server.url("/ws/echo").absoluteString, "--json", "--send", "one",
                                     "--send", #"{"two":2}"#, "--count", "3", "--timeout", "20"],
                                    input: "three\n")
        // Then the output is connecting, open, the messages out and in, and a clean close by the user
        #expect(result.status == 0)
        let lines = try jsonLines(result.stdout)
        let types = lines.map { $0["type"] as? String ?? "" }
        #expect(types.first == "connecting")
        #expect(types.dropFirst().first == "open")
        #expect(types.last == "close")
        let incoming = lines.filter { $0["type"] as? String == "message" && $0["dir"] as? String == "in" }
        #expect(incoming.compactMap { $0["text"] as? String } == ["one", #"{"two":2}"#, "three"])
        #expect(incoming.first?["size"] as? Int == 3)
        #expect((incoming.first?["time"] as? String)?.hasSuffix("Z") == true)
        let outgoing = lines.filter { $0["type"] as? String == "message" && $0["dir"] as? String == "out" }
        #expect(outgoing.count == 3)
        let close = try #require(lines.last)
        #expect(close["code"] as? Int == 1000)
        #expect(close["by_user"] as? Bool == true)
        #expect(close["clean"] as? Bool == true)
    }

    @Test func plainOutputPrintsIncomingTextAndEndsWithStdin() async throws {
        // Given stdin with two lines and nothing else to wait for
        let server = try DemoServer.start()
        defer { server.stop() }
        let result = try await CourierCLI.run(["ws", server.url("/ws/echo").absoluteString], input: "hello\nworld\n")
        // Then the echoes are printed and the end of input closed the connection normally
        #expect(result.status == 0)
        #expect(result.stdout == "hello\nworld\n")
        #expect(result.stderr.contains("closed 1000"))
    }

    @Test func subscribeIsResentAfterEveryReconnect() async throws {
        // Given the chaos endpoint dropping every 300 ms and --reconnect with a --subscribe message
        let server = try DemoServer.start()
        defer { server.stop() }
        let result = try await CourierCLI.run(["ws", server.url("/ws/chaos?every_ms=300&rate=50").absoluteString, "--json",
                                     "--reconnect", "--subscribe", #"{"subscribe":"ACME"}"#, "--timeout", "2"])
        // Then every open is followed by the subscription going out again
        let lines = try jsonLines(result.stdout)
        let opens = lines.filter { $0["type"] as? String == "open" }.count
        let subscriptions = lines.filter { $0["subscription"] as? Bool == true }.count
        #expect(opens >= 2)
        #expect(subscriptions == opens)
        #expect(lines.contains { $0["type"] as? String == "reconnecting" })
        #expect(result.status == 0)
    }

    @Test func aRefusedConnectionExitsWithSevenAndAConnectionRefusedEvent() async throws {
        let server = try DemoServer.start()
        let url = server.url("/ws/echo")
        server.stop()
        let result = try await CourierCLI.run(["ws", url.absoluteString, "--json"])
        #expect(result.status == 7)
        let lines = try jsonLines(result.stdout)
        #expect(lines.last?["type"] as? String == "error")
        #expect(lines.last?["kind"] as? String == "connectionRefused")
        #expect((lines.last?["message"] as? String)?.contains("nothing listens on 127.0.0.1:\(url.port ?? 0)") == true)
    }

    @Test func interruptClosesWithGoingAway() async throws {
        // Given `courier ws --json` connected to the echo endpoint (its input left open)
        let server = try DemoServer.start()
        defer { server.stop() }
        let courier = try CourierCLI.start(["ws", server.url("/ws/echo").absoluteString, "--json", "--timeout", "30"],
                                           input: .open)
        defer { courier.signalGroup(SIGKILL) }
        #expect(await courier.stdout.wait { $0.contains(#""type":"open""#) })
        // When it is interrupted (Ctrl-C)
        courier.signal(SIGINT)
        let status = await courier.finish(limit: .seconds(120))
        // Then it closes politely with 1001 and exits 0
        let lines = try jsonLines(courier.stdout.text)
        #expect(lines.last?["type"] as? String == "close")
        #expect(lines.last?["code"] as? Int == 1001)
        #expect(status == 0)
    }

    @Test func countPrintsExactlyThatManyMessagesFromAFloodingTicker() async throws {
        // Given the ticker at full speed
        let server = try DemoServer.start()
        defer { server.stop() }
        // When 1,000 messages are asked for
        let result = try await CourierCLI.run(["ws", server.url("/ws/ticker?rate=max").absoluteString,
                                     "--subscribe", #"{"subscribe":"ACME"}"#, "--count", "1000"])
        // Then exactly 1,000 lines are printed (the acknowledgement and 999 ticks), and the exit is clean
        let lines = result.stdout.split(separator: "\n")
        #expect(result.status == 0)
        #expect(lines.count == 1000)
        #expect(lines.first == #"{"type":"subscribed","symbol":"ACME"}"#)
        #expect(lines.last?.hasPrefix(#"{"type":"tick","symbol":"ACME","seq":999,"#) == true)
    }
}
