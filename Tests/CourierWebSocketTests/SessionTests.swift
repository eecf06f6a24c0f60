import CourierTestSupport
import CourierDemo
import Foundation
import Synchronization
import Testing
@testable import CourierWebSocket

/// Drains a session's events in the background into a log.
final class SessionRecorder: Sendable {
    let log = EventLog()
    private let task: Mutex<Task<Void, Never>?> = Mutex(nil)

    init(_ session: WebSocketSession) {
        let log = self.log
        task.withLock { $0 = Task { for await event in session.events { log.append(event) } } }
    }

    var ticks: [String] {
        log.all.compactMap { event in
            guard case .message(let record) = event, record.direction == .incoming,
                  case .text(let text) = record.message, text.contains(#""type":"tick""#) else { return nil }
            return text
        }
    }

    func count(_ predicate: (WebSocketEvent) -> Bool) -> Int { log.all.filter(predicate).count }

    /// Whether the event stream has finished.
    func finished() async -> Bool {
        guard let task = task.withLock({ $0 }) else { return true }
        return await withTaskGroup(of: Bool.self) { group in
            group.addTask { await task.value; return true }
            group.addTask { try? await Task.sleep(nanoseconds: 10_000_000_000); return false }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }
}

@Suite(.serialized) struct SessionTests {
    static let fast = ReconnectPolicy(initialDelay: 0.05, multiplier: 2, maxDelay: 0.2, jitter: 0.2)

    @Test func tickerPushesTicksForTheSubscribedSymbol() async throws {
        // Given a session subscribed to ACME on a fast ticker
        let server = try DemoServer.start()
        defer { server.stop() }
        let session = WebSocketSession(configuration: WebSocketConfiguration(url: server.url("/ws/ticker?rate=200")),
                                       subscriptions: [.text(#"{"subscribe":"ACME"}"#)], reconnect: nil)
        let recorder = SessionRecorder(session)
        session.start()
        // Then ticks for ACME arrive, and the subscription went out marked as such
        #expect(await eventually { recorder.ticks.count >= 5 })
        #expect(recorder.ticks.allSatisfy { $0.contains(#""symbol":"ACME""#) })
        #expect(recorder.count {
            if case .message(let record) = $0 { record.isSubscription && record.direction == .outgoing } else { false }
        } == 1)
        session.close()
        #expect(await recorder.finished())
    }

    @Test func unsubscribeStopsTheTicks() async throws {
        let server = try DemoServer.start()
        defer { server.stop() }
        let session = WebSocketSession(configuration: WebSocketConfiguration(url: server.url("/ws/ticker?rate=100")),
                                       subscriptions: [.text(#"{"subscribe":["A","B"]}"#)], reconnect: nil)
        let recorder = SessionRecorder(session)
        session.start()
        #expect(await eventually { recorder.ticks.filter { $0.contains(#""symbol":"B""#) }.count >= 2 })
        // When B is unsubscribed
        try session.send(.text(#"{"unsubscribe":"B"}"#))
        #expect(await eventually { recorder.log.all.contains { event in
            if case .message(let r) = event, case .text(let t) = r.message { t.contains("unsubscribed") } else { false }
        } })
        let before = recorder.ticks.count
        // Then only A ticks follow
        #expect(await eventually { recorder.ticks.count >= before + 5 })
        #expect(recorder.ticks.dropFirst(before).allSatisfy { $0.contains(#""symbol":"A""#) })
        session.close()
        #expect(await recorder.finished())
    }

    @Test func chaosDropsAreFollowedByReconnectResubscribeAndTicksResume() async throws {
        // Given a session on the chaos endpoint, which drops every 300 ms, alternately with and without
        // a close frame
        let server = try DemoServer.start()
        defer { server.stop() }
        let session = WebSocketSession(
            configuration: WebSocketConfiguration(url: server.url("/ws/chaos?every_ms=300&rate=100")),
            subscriptions: [.text(#"{"subscribe":"ACME"}"#)], reconnect: Self.fast)
        let recorder = SessionRecorder(session)
        session.start()
        // When three connections have come and gone
        #expect(await eventually(seconds: 60) {
            recorder.count { if case .connected = $0 { true } else { false } } >= 4
        })
        session.close()
        #expect(await recorder.finished())
        // Then there was a drop without a close frame (1006) and one with 1012, each followed by a
        // reconnecting event, the subscription was sent on every connection, and ticks followed each
        let events = recorder.log.all
        let closes = events.compactMap { if case .closed(let info) = $0 { info } else { nil } }
        #expect(closes.contains { $0.code == .abnormal && !$0.byUser })
        #expect(closes.contains { $0.code == .serviceRestart && !$0.byUser })
        #expect(closes.last?.byUser == true)
        let reconnects = recorder.count { if case .reconnecting = $0 { true } else { false } }
        #expect(reconnects >= 3)
        var segments: [[WebSocketEvent]] = []
        for event in events {
            if case .connected = event { segments.append([]) }
            if !segments.isEmpty { segments[segments.count - 1].append(event) }
        }
        for segment in segments.dropLast() {
            #expect(segment.contains { if case .message(let r) = $0 { r.isSubscription } else { false } })
            #expect(segment.contains { event in
                if case .message(let r) = event, case .text(let t) = r.message { t.contains(#""type":"tick""#) } else { false }
            })
        }
        // And the connecting events count attempts upwards
        let attempts = events.compactMap { if case .connecting(_, let attempt) = $0 { attempt } else { nil } }
        #expect(attempts == Array(1...attempts.count))
    }

    @Test func userCloseDoesNotReconnect() async throws {
        // Given a session with reconnect enabled on the echo endpoint
        let server = try DemoServer.start()
        defer { server.stop() }
        let session = WebSocketSession(configuration: WebSocketConfiguration(url: server.url("/ws/echo")),
                                       reconnect: Self.fast)
        let recorder = SessionRecorder(session)
        session.start()
        #expect(await eventually { session.isOpen })
        // When the user closes
        session.close(code: .goingAway, reason: "quit")
        // Then the stream finishes after one clean close and no reconnect, and the server saw one connection
        #expect(await recorder.finished())
        #expect(recorder.count { if case .reconnecting = $0 { true } else { false } } == 0)
        let closes = recorder.log.all.compactMap { if case .closed(let info) = $0 { info } else { nil } }
        #expect(closes == [WebSocketCloseInfo(code: .goingAway, reason: "quit", byUser: true, wasClean: true)])
        #expect(server.connectionCount == 1)
    }

    @Test func refusedServerIsRetriedWithBackoffUntilTheUserCloses() async throws {
        // Given a URL where nothing listens (held so that no other test's server is given its port meanwhile)
        try await LoopbackSocket.withRefusingPort { port in
            let url = try #require(URL(string: "ws://127.0.0.1:\(port)/ws/echo"))
            let session = WebSocketSession(configuration: WebSocketConfiguration(url: url), reconnect: Self.fast)
            let recorder = SessionRecorder(session)
            session.start()
            // Then errors and reconnecting events alternate, with growing delays up to the cap
            #expect(await eventually { recorder.count { if case .reconnecting = $0 { true } else { false } } >= 3 })
            session.close()
            #expect(await recorder.finished())
            let delays = recorder.log.all.compactMap { if case .reconnecting(let delay, _) = $0 { delay } else { nil } }
            #expect(delays.allSatisfy { $0 > 0 && $0 <= 0.2 })
            #expect(recorder.count { if case .error(.connectFailed) = $0 { true } else { false } } >= 3)
        }
    }

    @Test func normalCloseFromTheServerEndsTheSessionWithoutReconnecting() async throws {
        let server = try DemoServer.start()
        defer { server.stop() }
        let session = WebSocketSession(
            configuration: WebSocketConfiguration(url: server.url("/ws/echo?close_after=1&code=1000")),
            subscriptions: [.text("hello")], reconnect: Self.fast)
        let recorder = SessionRecorder(session)
        session.start()
        #expect(await recorder.finished())
        #expect(recorder.count { if case .reconnecting = $0 { true } else { false } } == 0)
        #expect(server.connectionCount == 1)
    }

    @Test func missedPongLeadsToAReconnect() async throws {
        // Given a server that upgrades and then never answers anything, and a fast keepalive
        let server = try LoopbackUpgradeServer { fd, request, _ in
            acceptUpgrade(fd, request)
            _ = readRaw(fd, seconds: 3)
        }
        defer { server.stop() }
        var configuration = WebSocketConfiguration(url: server.url("/silent"))
        configuration.pingInterval = 0.05
        configuration.pongTimeout = 0.2
        let session = WebSocketSession(configuration: configuration, reconnect: Self.fast)
        let recorder = SessionRecorder(session)
        session.start()
        // Then the pong timeout is reported and the session connects again
        #expect(await eventually {
            recorder.count { if case .connected = $0 { true } else { false } } >= 2
        })
        session.close()
        #expect(await recorder.finished())
        #expect(recorder.count { if case .closed(let info) = $0 { info.error == .pongTimeout(seconds: 0.2) } else { false } } >= 1)
        #expect(recorder.count { if case .reconnecting = $0 { true } else { false } } >= 1)
    }
}
