import CourierApp
import CourierDemo
import CourierTestSupport
import CourierWebSocket
import Foundation
import Synchronization
import Testing

@Suite("WebSocket pane connector", .serialized)
struct WebSocketPaneConnectorTests {
    /// Batches delivered by the connector.
    final class Batches: Sendable {
        private let batches = Mutex<[[WebSocketEvent]]>([])
        func append(_ batch: [WebSocketEvent]) { batches.withLock { $0.append(batch) } }
        var all: [[WebSocketEvent]] { batches.withLock { $0 } }
    }

    func eventually(_ condition: () -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if condition() { return true }
            try? await Task.sleep(nanoseconds: 20_000_000)
        }
        return condition()
    }

    @Test func tickerStreamsIntoThePaneInBatchesAndTheSubscriptionIsMarked() async throws {
        // Given the demo server and a pane for its ticker with a saved subscription marked
        let server = try DemoServer.start()
        defer { server.stop() }
        let url = "ws://127.0.0.1:\(server.port)/ws/ticker?rate=500"
        var pane = WebSocketPaneState(url: url, savedMessages: [.init(text: #"{"subscribe":"ACME"}"#, isSubscription: true)])
        let batches = Batches()
        let connector = WebSocketPaneConnector(interval: 0.05) { batches.append($0.events) }
        defer { connector.shutdown() }
        // When the pane's connect effect is performed
        for effect in pane.handle(.connect) { connector.perform(effect) }
        // Then ticks arrive, several per batch, and applying them fills the pane
        #expect(await eventually { batches.all.joined().filter { if case .message = $0 { true } else { false } }.count >= 50 })
        #expect(batches.all.contains { $0.count > 1 })
        for batch in batches.all { pane.apply(contentsOf: batch) }
        #expect(pane.receivedCount >= 40)
        #expect(pane.entries.last.map { $0.text.contains(#""symbol":"ACME""#) } == true)
        let subscriptions = (0..<pane.entries.count).map { pane.entries[$0] }.filter(\.isSubscription)
        #expect(subscriptions.count == 1)
        // When the pane disconnects, Then the session closes cleanly by the user
        for effect in pane.handle(.disconnect) { connector.perform(effect) }
        #expect(await eventually {
            batches.all.joined().contains { if case .closed(let info) = $0 { info.byUser } else { false } }
        })
    }

    /// Peak (VmHWM) and current (VmRSS) resident memory of this process in bytes.
    static func memory() -> (peak: Int, current: Int) {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        func field(_ name: String) -> Int {
            let line = status.split(separator: "\n").first { $0.hasPrefix(name + ":") } ?? ""
            return (Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0) * 1024
        }
        return (field("VmHWM"), field("VmRSS"))
    }

    /// The batches the connector hands over, waiting as the app's queue would until the app drains them.
    final class Inbox: Sendable {
        private let batches = Mutex<[WebSocketPaneBatch]>([])
        func post(_ batch: WebSocketPaneBatch) { batches.withLock { $0.append(batch) } }
        func drain() -> [WebSocketPaneBatch] { batches.withLock { all in defer { all = [] }; return all } }
        var isEmpty: Bool { batches.withLock { $0.isEmpty } }
    }

    /// Measured in a process of its own: the bound is on this process's memory, which tests running
    /// beside it would grow.
    @Test func aFloodOfLargeMessagesToASlowExplorerStaysWithinTheWindowAndCountsWhatWasDropped() async throws {
        let child = try await TestInOwnProcess.run("webSocketFloodChildWhenStartedByItsTest")
        #expect(child.status == 0, "the flood in its own process ended with \(child.status):\n\(child.stdout)\(child.stderr)")
        #expect(child.stdout.contains("peak grew by"))
    }

    @Test func webSocketFloodChildWhenStartedByItsTest() async throws {
        guard TestInOwnProcess.isChild("webSocketFloodChildWhenStartedByItsTest") else { return }
        // Given the demo ticker flooding 64 KB messages, and a pane whose window is 16 MiB
        let server = try DemoServer.start()
        defer { server.stop() }
        let url = "ws://127.0.0.1:\(server.port)/ws/ticker?rate=max&size=65536"
        let window = WebSocketPaneWindow(messages: 5_000, bytes: 16 << 20)
        var pane = WebSocketPaneState(url: url, savedMessages: [.init(text: #"{"subscribe":"ACME"}"#, isSubscription: true)],
                                      window: window)
        let inbox = Inbox()
        let connector = WebSocketPaneConnector(interval: 0.01, window: window, isReady: { inbox.isEmpty }, onBatch: inbox.post)
        defer { connector.shutdown() }
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
        let before = Self.memory().current

        // When 6,000 messages (about 390 MB) arrive while the explorer takes a batch only every 100 ms
        for effect in pane.handle(.connect) { connector.perform(effect) }
        var rounds = 0
        while pane.receivedCount < 6_000 && rounds < 1_200 {
            try await Task.sleep(nanoseconds: 100_000_000)
            for batch in inbox.drain() { pane.apply(batch) }
            rounds += 1
        }
        for effect in pane.handle(.disconnect) { connector.perform(effect) }
        let growth = Self.memory().peak - before
        print("flood: \(pane.receivedCount) messages, peak grew by \(growth >> 20) MB")

        // Then every message was counted, the pane holds no more than its window, older ones are reported
        // dropped, and the process grew by far less than the stream's size (generous bound: 4 windows + slack)
        #expect(pane.receivedCount >= 6_000)
        #expect(pane.entries.bytes <= window.bytes)
        #expect(pane.droppedCount > 0)
        #expect(pane.droppedCount + pane.entries.count >= pane.receivedCount)
        #expect(growth < 4 * window.bytes + (80 << 20), "peak grew by \(growth >> 20) MB")
    }
}
