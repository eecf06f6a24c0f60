import CourierApp
import CourierSecurity
import CourierTerminal
import CourierWebSocket
import Foundation
import Testing

@Suite("WebSocket pane")
struct WebSocketPaneTests {
    static let start = Date(timeIntervalSince1970: 1_764_440_000)  // 18:13:20 UTC
    static let url = URL(string: "ws://127.0.0.1:8080/ws/ticker")!

    static func at(_ seconds: Double) -> Date { start.addingTimeInterval(seconds) }

    static func incoming(_ text: String, _ seconds: Double) -> WebSocketEvent {
        .message(WebSocketMessageEvent(direction: .incoming, message: .text(text), time: at(seconds)))
    }

    static func tick(_ seq: Int, _ seconds: Double) -> WebSocketEvent {
        incoming(#"{"type":"tick","symbol":"ACME","seq":\#(seq),"price":101.\#(seq)}"#, seconds)
    }

    /// A pane that connected, subscribed and received a few ticks.
    static func connectedPane(capacity: Int = 100) -> WebSocketPaneState {
        var pane = WebSocketPaneState(url: url.absoluteString,
                                      savedMessages: [.init(text: #"{"subscribe":"ACME"}"#, isSubscription: true),
                                                      .init(text: #"{"unsubscribe":"ACME"}"#)],
                                      capacity: capacity, now: start, timeZone: TimeZone(identifier: "UTC")!)
        pane.apply(contentsOf: [
            .connecting(url: url, attempt: 1),
            .connected(url: url, protocol: nil),
            .message(WebSocketMessageEvent(direction: .outgoing, message: .text(#"{"subscribe":"ACME"}"#),
                                           time: at(0.01), isSubscription: true)),
            incoming(#"{"type":"subscribed","symbol":"ACME"}"#, 0.02),
            tick(1, 0.2), tick(2, 0.4),
            .pong(roundTrip: 0.0012),
        ], at: start)
        return pane
    }

    static func render(_ pane: WebSocketPaneState, width: Int = 72, height: Int = 14, masker: SecretMasker? = nil)
        -> [String] {
        var buffer = Buffer(size: Size(width: width, height: height))
        WebSocketPaneView.draw(pane, RenderContext(masker: masker, focused: true,
                                                   area: Rect(x: 0, y: 0, width: width, height: height)), into: &buffer)
        return buffer.lines()
    }

    @Test func connectedIsNeverStampedAfterTheSubscriptionSentOnIt() {
        // Given a pane whose batch (connected, then the subscription) reaches the loop half a second later
        var pane = WebSocketPaneState(url: Self.url.absoluteString, capacity: 100, now: Self.start,
                                      timeZone: TimeZone(identifier: "UTC")!)
        pane.apply(contentsOf: [
            .connecting(url: Self.url, attempt: 1),
            .connected(url: Self.url, protocol: nil),
            .message(WebSocketMessageEvent(direction: .outgoing, message: .text(#"{"subscribe":"ACME"}"#),
                                           time: Self.at(0.01), isSubscription: true)),
        ], at: Self.at(0.5))
        // Then the times read in order: connected no later than the subscription
        let lines = Self.render(pane)
        #expect(lines[2].contains("18:13:20.010 · connected"), "\(lines.joined(separator: "\n"))")
        #expect(lines[3].contains("18:13:20.010 → 20 B"))
    }

    @Test func followingShowsEachMessageOnOneLineWithTimeDirectionSizeAndTheNewestAtTheBottom() {
        // Given a connected pane that received ticks
        var pane = Self.connectedPane()
        // When two more ticks arrive in one batch
        pane.apply(contentsOf: [Self.tick(3, 0.6), Self.tick(4, 0.8)], at: Self.at(0.8))
        // Then the URL and state are in the border, the subscription is starred, JSON is on one line each
        #expect(Self.render(pane) == [
            "┏━ 5 WebSocket · ws://127.0.0.1:8080/ws/ticker ━━━━━━━━━━━━━━━ ● open ━┓",
            "┃↓ 5 (249 B)  ↑ 1  rtt 1.2 ms                                 following┃",
            "┃18:13:20.000 · connected                                              ┃",
            #"┃18:13:20.010 → 20 B    ★ {"subscribe": "ACME"}                        ┃"#,
            #"┃18:13:20.020 ← 37 B    {"type": "subscribed", "symbol": "ACME"}       ┃"#,
            #"┃18:13:20.200 ← 53 B    {"type": "tick", "symbol": "ACME", "seq": 1, "…┃"#,
            #"┃18:13:20.400 ← 53 B    {"type": "tick", "symbol": "ACME", "seq": 2, "…┃"#,
            #"┃18:13:20.600 ← 53 B    {"type": "tick", "symbol": "ACME", "seq": 3, "…┃"#,
            #"┃18:13:20.800 ← 53 B    {"type": "tick", "symbol": "ACME", "seq": 4, "…┃"#,
            "┃                                                                      ┃",
            "┃                                                                      ┃",
            #"┃saved  ★1 {"subscribe":"ACME"}   2 {"unsubscribe":"ACME"}             ┃"#,
            "┃› i: write a message   /: filter   p: pause                           ┃",
            "┗━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┛",
        ])
    }

    @Test func pausedViewStaysPutCountsNewMessagesAndExpandsTheSelectedOne() {
        // Given a pane following four ticks
        var pane = Self.connectedPane()
        pane.apply(contentsOf: [Self.tick(3, 0.6), Self.tick(4, 0.8)], at: Self.at(0.8))
        // When it is paused and two more ticks arrive
        _ = pane.handle(key: .char("p"))
        pane.apply(contentsOf: [Self.tick(5, 1.0), Self.tick(6, 1.2)], at: Self.at(1.2))
        // Then the view still ends at tick 4, shown as pretty JSON, and the status line counts 2 new
        #expect(Self.render(pane) == [
            "┏━ 5 WebSocket · ws://127.0.0.1:8080/ws/ticker ━━━━━━━━━━━━━━━ ● open ━┓",
            "┃↓ 7 (355 B)  ↑ 1  rtt 1.2 ms                          ⏸ paused · 2 new┃",
            #"┃18:13:20.400 ← 53 B    {"type": "tick", "symbol": "ACME", "seq": 2, "…┃"#,
            #"┃18:13:20.600 ← 53 B    {"type": "tick", "symbol": "ACME", "seq": 3, "…┃"#,
            "┃18:13:20.800 ← 53 B                                                   ┃",
            "┃  {                                                                   ┃",
            #"┃    "type": "tick",                                                   ┃"#,
            #"┃    "symbol": "ACME",                                                 ┃"#,
            #"┃    "seq": 4,                                                         ┃"#,
            #"┃    "price": 101.4                                                    ┃"#,
            "┃  }                                                                   ┃",
            #"┃saved  ★1 {"subscribe":"ACME"}   2 {"unsubscribe":"ACME"}             ┃"#,
            "┃› i: write a message   /: filter   p: pause                           ┃",
            "┗━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┛",
        ])
        // When the user scrolls one message older, then follows again
        _ = pane.handle(key: .char("k"))
        #expect(Self.render(pane)[2...4] == [
            #"┃18:13:20.200 ← 53 B    {"type": "tick", "symbol": "ACME", "seq": 1, "…┃"#,
            #"┃18:13:20.400 ← 53 B    {"type": "tick", "symbol": "ACME", "seq": 2, "…┃"#,
            "┃18:13:20.600 ← 53 B                                                   ┃",
        ])
        _ = pane.handle(key: .char("G"))
        let following = Self.render(pane)
        #expect(following[1].hasSuffix("following┃"))
        #expect(following[10] == #"┃18:13:21.200 ← 53 B    {"type": "tick", "symbol": "ACME", "seq": 6, "…┃"#)
    }

    @Test func chaosDropShowsTheCloseACountdownAndTheResentSubscription() {
        // Given a connected pane whose connection drops without a close frame
        var pane = Self.connectedPane()
        pane.apply(.closed(WebSocketCloseInfo(code: .abnormal, error: .connectionLost(message: "reset"))), at: Self.at(1))
        pane.apply(.reconnecting(delay: 2.5, attempt: 2), at: Self.at(1))
        // When one second passes
        pane.tick(now: Self.at(2))
        // Then the border counts down and the drop is in the history
        let during = Self.render(pane)
        #expect(during[0] == "┏━ 5 WebSocket · ws://127.0.0.… ━ ↻ reconnecting in 1.5 s (attempt 2) ━┓")
        #expect(during[7] == "┃18:13:21.000 · closed 1006 (no close handshake): connection lost: res…┃")
        #expect(during[8] == "┃18:13:21.000 · reconnecting in 2.5 s (attempt 2)                      ┃")
        // When the session reconnects and re-sends the subscription
        pane.apply(contentsOf: [
            .connecting(url: Self.url, attempt: 2), .connected(url: Self.url, protocol: nil),
            .message(WebSocketMessageEvent(direction: .outgoing, message: .text(#"{"subscribe":"ACME"}"#),
                                           time: Self.at(3.5), isSubscription: true)),
            Self.tick(7, 3.6),
        ], at: Self.at(3.5))
        // Then the reconnect, the starred subscription and the resumed ticks follow
        #expect(Self.render(pane)[1...10] == [
            "┃↓ 4 (196 B)  ↑ 2  rtt 1.2 ms                                 following┃",
            #"┃18:13:20.020 ← 37 B    {"type": "subscribed", "symbol": "ACME"}       ┃"#,
            #"┃18:13:20.200 ← 53 B    {"type": "tick", "symbol": "ACME", "seq": 1, "…┃"#,
            #"┃18:13:20.400 ← 53 B    {"type": "tick", "symbol": "ACME", "seq": 2, "…┃"#,
            "┃18:13:21.000 · closed 1006 (no close handshake): connection lost: res…┃",
            "┃18:13:21.000 · reconnecting in 2.5 s (attempt 2)                      ┃",
            "┃18:13:23.500 · reconnecting (attempt 2)                               ┃",
            "┃18:13:23.500 · connected                                              ┃",
            #"┃18:13:23.500 → 20 B    ★ {"subscribe": "ACME"}                        ┃"#,
            #"┃18:13:23.600 ← 53 B    {"type": "tick", "symbol": "ACME", "seq": 7, "…┃"#,
        ])
    }

    @Test func filterKeepsMatchingMessagesAndShowsTheFilterLine() {
        var pane = Self.connectedPane()
        // When "seq\": 2" is typed after /
        _ = pane.handle(key: .char("/"))
        for character in #""seq":2"# { _ = pane.handle(key: .char(character)) }
        _ = pane.handle(key: Key(.enter))
        // Then only tick 2 is listed and the filter stays visible
        let lines = Self.render(pane, height: 8)
        #expect(lines == [
            "┏━ 5 WebSocket · ws://127.0.0.1:8080/ws/ticker ━━━━━━━━━━━━━━━ ● open ━┓",
            "┃↓ 3 (143 B)  ↑ 1  rtt 1.2 ms                                 following┃",
            #"┃18:13:20.400 ← 53 B    {"type": "tick", "symbol": "ACME", "seq": 2, "…┃"#,
            "┃                                                                      ┃",
            #"┃saved  ★1 {"subscribe":"ACME"}   2 {"unsubscribe":"ACME"}             ┃"#,
            #"┃/ "seq":2                                                             ┃"#,
            "┃› i: write a message   /: filter   p: pause                           ┃",
            "┗━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┛",
        ])
    }

    @Test func theFilterMatchesWhatIsShownSoASecretTypedIntoItFindsNothing() {
        // Given a message holding a known secret value, shown masked
        var pane = Self.connectedPane()
        let masker = SecretMasker(secrets: ["tok-9f8e7d6c5b"])
        pane.apply(contentsOf: [Self.incoming(#"{"token":"tok-9f8e7d6c5b"}"#, 0.5)], masker: masker)
        // When the secret is typed as the filter
        _ = pane.handle(key: .char("/"), masker: masker)
        for character in "9f8e7d6c" { _ = pane.handle(key: .char(character), masker: masker) }
        _ = pane.handle(key: Key(.enter), masker: masker)
        // Then no message matches (the filter cannot be used to find which messages hold it)
        let lines = Self.render(pane, height: 8, masker: masker).joined(separator: "\n")
        #expect(!lines.contains("token"), "\(lines)")
        // And a word that is shown still finds it
        var other = Self.connectedPane()
        other.apply(contentsOf: [Self.incoming(#"{"token":"tok-9f8e7d6c5b"}"#, 0.5)], masker: masker)
        _ = other.handle(key: .char("/"), masker: masker)
        for character in "token" { _ = other.handle(key: .char(character), masker: masker) }
        _ = other.handle(key: Key(.enter), masker: masker)
        #expect(Self.render(other, height: 8, masker: masker).joined().contains(#""token""#))
    }

    /// The dump is the Response pane's (`HexDump`): eight-digit offsets, a gap after eight bytes, `|ascii|`.
    @Test func binaryMessagesShowAsHexAndExpandToADump() {
        var pane = WebSocketPaneState(url: "ws://h/bin", now: Self.start, timeZone: TimeZone(identifier: "UTC")!)
        pane.apply(.connected(url: Self.url, protocol: "bin"), at: Self.start)
        pane.apply(.message(WebSocketMessageEvent(direction: .incoming, message: .binary(Data(0..<40)),
                                                  time: Self.at(1))))
        #expect(Self.render(pane, height: 6)[3]
                == "┃18:13:21.000 ← 40 B    binary 00 01 02 03 04 05 06 07 08 09 0a 0b 0c …┃")
        _ = pane.handle(.togglePrettyJSON)
        #expect(Self.render(pane, height: 9)[3...6] == [
            "┃18:13:21.000 ← 40 B    binary                                         ┃",
            "┃  00000000  00 01 02 03 04 05 06 07  08 09 0a 0b 0c 0d 0e 0f  |......…┃",
            "┃  00000010  10 11 12 13 14 15 16 17  18 19 1a 1b 1c 1d 1e 1f  |......…┃",
            ##"┃  00000020  20 21 22 23 24 25 26 27                           | !"#$%…┃"##,
        ])
    }

    @Test func aFastStreamStaysWithinTheBufferAndDrawsOnlyTheNewest() {
        // Given a pane keeping 100 messages
        var pane = Self.connectedPane(capacity: 100)
        // When 10,000 ticks arrive in one batch
        pane.apply(contentsOf: (1...10_000).map { Self.tick($0, Double($0) / 1000) }, at: Self.at(10))
        // Then 100 are kept, all were counted, and the newest is at the bottom
        #expect(pane.entries.count == 100)
        #expect(pane.receivedCount == 10_003)
        let lines = Self.render(pane)
        #expect(lines[1].contains("last 100 kept"))
        #expect(lines[10].hasPrefix("┃18:13:30.000") && lines[10].contains(#""seq": 1000…"#))  // the 10,000th, cut with …
    }

    @Test func openingAnotherRequestStartsItsCountersAtZero() {
        var pane = Self.connectedPane(capacity: 100)
        pane.apply(contentsOf: (1...5).map { Self.tick($0, Double($0) / 1000) }, at: Self.at(10))
        #expect(pane.receivedCount > 0 && pane.bytesReceived > 0)
        pane.load(url: "ws://127.0.0.1:1/other", savedMessages: [String]())
        #expect(pane.receivedCount == 0 && pane.sentCount == 0 && pane.bytesReceived == 0)
    }

    @Test func sendBoxSendsWhenOpenKeepsHistoryAndRefusesWhenClosed() {
        var pane = Self.connectedPane()
        // When a message is typed and sent
        _ = pane.handle(key: .char("i"))
        for character in "hello" { _ = pane.handle(key: .char(character)) }
        #expect(Self.render(pane)[12] == "┃› hello                                                               ┃")
        #expect(pane.handle(key: Key(.enter)) == [.send("hello")])
        // Then the box is empty and history brings the message back
        #expect(pane.sendBox.text.isEmpty)
        _ = pane.handle(key: Key(.up, alt: true))
        #expect(pane.sendBox.text == "hello")
        _ = pane.handle(key: Key(.escape))
        #expect(pane.mode == .browse)
        // When the connection is closed, Then sending is refused with a note in the history
        pane.apply(.closed(WebSocketCloseInfo(code: .normal, byUser: true, wasClean: true)), at: Self.at(2))
        _ = pane.handle(key: .char("i"))
        #expect(pane.handle(key: Key(.enter)).isEmpty)
        #expect(pane.entries.last?.text == "not connected: press o to connect")
    }

    @Test func savedMessagesAreSentWithOneKeyAndSubscriptionsGoWithConnect() {
        var pane = Self.connectedPane()
        // s sends the selected saved message, ] moves to the next
        #expect(pane.handle(key: .char("s")) == [.send(#"{"subscribe":"ACME"}"#)])
        _ = pane.handle(key: .char("]"))
        #expect(pane.handle(key: .char("s")) == [.send(#"{"unsubscribe":"ACME"}"#)])
        #expect(pane.handle(key: .char("S")).count == 2)
        // m marks the second as a subscription too; connect carries both
        _ = pane.handle(key: .char("m"))
        #expect(pane.handle(key: .char("o")) == [.connect(url: Self.url.absoluteString, subscriptions: [
            #"{"subscribe":"ACME"}"#, #"{"unsubscribe":"ACME"}"#,
        ])])
        #expect(pane.handle(key: .char("D")) == [.disconnect])
    }

    @Test func keymapHasOneCommandPerKeyAndHints() {
        let keys = WebSocketPaneState.keymap.flatMap(\.keys)
        #expect(Set(keys).count == keys.count)
        #expect(WebSocketPaneState.keymap.contains { $0.hint })
    }

    @Test func aHugeJSONMessageDrawsOnlyItsStart() {
        // Given a 1 MB JSON array received
        var pane = Self.connectedPane()
        let huge = "[" + Array(repeating: "12345", count: 200_000).joined(separator: ",") + "]"
        pane.apply(Self.incoming(huge, 1))
        // Then its row shows the size and the start of the array, cut at the edge
        #expect(Self.render(pane)[7] == "┃18:13:21.000 ← 1.1 MB  [12345, 12345, 12345, 12345, 12345, 12345, 123…┃")
    }

    @Test func theByteBudgetDropsOldMessagesAndTheTranscriptSaysHowManyWereDropped() throws {
        // Given a pane whose window holds 16 KiB (about fifteen 1 KB messages with their overhead)
        var pane = WebSocketPaneState(url: Self.url.absoluteString, window: WebSocketPaneWindow(messages: 100, bytes: 16_384),
                                      now: Self.start, timeZone: TimeZone(identifier: "UTC")!)
        // When twenty 1,000-byte messages arrive
        let big = String(repeating: "x", count: 1_000)
        pane.apply(contentsOf: (1...20).map { Self.incoming("\($0)" + big, Double($0)) }, at: Self.at(10))
        // Then only the newest that fit are kept, and the rest are counted as dropped
        #expect(pane.entries.count == 15)
        #expect(pane.droppedCount == 5)
        #expect(pane.receivedCount == 20)
        #expect(pane.entries.bytes <= 16_384)
        #expect(Self.render(pane)[1].contains("5 older dropped, last 15 kept"))
        // And once scrolled to the oldest kept message, a line above it says older ones are gone
        _ = pane.handle(.oldest)
        let lines = Self.render(pane, height: 14)
        #expect(lines.contains { $0.contains("… 5 older messages dropped") })
        // And the transcript is one dropped line then the kept messages as `courier ws --json` objects
        let transcript = String(decoding: pane.transcript(), as: UTF8.self).split(separator: "\n")
        #expect(transcript.count == 16)
        #expect(transcript[0] == #"{"type":"dropped","count":5,"kept":15}"#)
        let last = try JSONSerialization.jsonObject(with: Data(transcript[15].utf8)) as? [String: Any]
        #expect(last?["text"] as? String == "20" + big)
        #expect(last?["dir"] as? String == "in")
    }

    @Test func aHugeMessageKeepsOnlyItsStartAndTheTranscriptGivesItsFullSize() throws {
        // Given a pane whose window holds 64 KiB (so 4 KiB per message)
        var pane = WebSocketPaneState(url: Self.url.absoluteString, window: WebSocketPaneWindow(messages: 100, bytes: 65_536),
                                      now: Self.start, timeZone: TimeZone(identifier: "UTC")!)
        // When a 1 MB message arrives after a small one
        pane.apply(contentsOf: [Self.incoming("small", 1), Self.incoming(String(repeating: "y", count: 1 << 20), 2)])
        // Then both are kept, the large one cut to its start but counted at its size
        #expect(pane.entries.count == 2)
        #expect(pane.entries[1].text.utf8.count == 4_096)
        #expect(pane.entries[1].size == 1 << 20)
        #expect(pane.bytesReceived == 5 + (1 << 20))
        let lines = String(decoding: pane.transcript(), as: UTF8.self).split(separator: "\n")
        let object = try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any]
        #expect(object?["full_size"] as? Int == 1 << 20)
    }

    @Test func theWindowIsReadFromTheEnvironment() {
        let window = WebSocketPaneWindow.fromEnvironment(["COURIER_WS_KEEP_MESSAGES": "200", "COURIER_WS_KEEP_BYTES": "2M"])
        #expect(window == WebSocketPaneWindow(messages: 200, bytes: 2 << 20))
        #expect(WebSocketPaneWindow.fromEnvironment(["COURIER_WS_KEEP_BYTES": "lots"]) == WebSocketPaneWindow())
    }
}

@Suite("WebSocket pane: saving the kept messages")
struct WebSocketPaneSaveTests {
    @Test func wAsksForAFileThenWritesTheKeptMessagesAsNDJSON() throws {
        // Given the explorer with the WebSocket pane focused and two messages received
        var state = Fixtures.loaded()
        state.press(.char("5"))
        _ = update(&state, .webSocketEvents(WebSocketPaneBatch(events: [
            WebSocketPaneTests.incoming(#"{"n":1}"#, 1), WebSocketPaneTests.incoming(#"{"n":2}"#, 2),
        ], droppedMessages: 3)))
        // When w is pressed, a file name typed and Enter pressed
        state.press(.char("w"))
        guard case .prompt(let prompt)? = state.modals.last else {
            Issue.record("expected a prompt, got \(state.modals)")
            return
        }
        #expect(prompt.title.contains("older ones were dropped"))
        for _ in 0..<prompt.editor.text.count { state.press(Key(.backspace)) }
        state.type("ticks.ndjson")
        let effects = state.press(Key(.enter))
        // Then the kept messages are written there, after a line counting the dropped ones
        guard case .writeFile(let path, let contents)? = effects.first else {
            Issue.record("expected a write, got \(effects)")
            return
        }
        #expect(path == "ticks.ndjson")
        let lines = String(decoding: contents, as: UTF8.self).split(separator: "\n")
        #expect(lines.first == #"{"type":"dropped","count":3,"kept":2}"#)
        #expect(lines.count == 3)
        #expect(lines.last?.contains(#""text":"{\"n\":2}""#) == true)
    }
}
