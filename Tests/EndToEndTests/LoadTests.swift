import CourierTestSupport
import CourierDemo
import CourierHTTP
import CourierWebSocket
import Foundation
import Testing

/// Load: 1,000 requests in flight at once from one client, and 50 live WebSocket streams, all complete
/// with nothing lost, within a stated memory bound.
@Suite(.serialized)
struct LoadTests {
    /// The stated bound on the test process's peak resident memory while 1,000 requests are in flight.
    static let peakMemoryBoundMB = 1_024

    /// Peak and current resident set size of this process in megabytes, from /proc/self/status.
    static func memory() -> (peak: Int, current: Int) {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        func field(_ name: String) -> Int {
            let line = status.split(separator: "\n").first { $0.hasPrefix(name + ":") } ?? ""
            return (Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0) / 1024
        }
        return (field("VmHWM"), field("VmRSS"))
    }

    @Test("1,000 requests in flight from one HTTPClient all complete, and the server counts 1,000")
    func thousandRequestsInFlight() async throws {
        // Given a server whose /slow answers after 200 ms, so that all requests overlap
        let server = try DemoServer.start()
        defer { server.stop() }
        let client = HTTPClient(configuration: .init(transport: CurlTransport(), retry: nil))
        let count = Reliability.longTests ? 3_000 : 1_000
        let url = URL(string: server.baseURL.absoluteString + "/slow?ms=200")!

        // When they are all sent at once
        let statuses = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<count {
                group.addTask {
                    do { return try await client.send(HTTPRequest(url: url, timeout: .seconds(60))).status } catch {
                        return -1
                    }
                }
            }
            return await group.reduce(into: [Int: Int]()) { $0[$1, default: 0] += 1 }
        }

        // Then every one succeeded, the server answered each exactly once, and memory stayed bounded
        let memory = Self.memory()
        print("load: \(count) requests in flight: statuses \(statuses), peak RSS \(memory.peak) MB (test process)")
        #expect(statuses == [200: count])
        #expect(await Reliability.eventually(limit: 10) { server.completedCount(path: "/slow") == count },
                "server completed \(server.completedCount(path: "/slow")) of \(count)")
        #expect(server.requestCount(path: "/slow") == count)
        #expect(memory.peak < Self.peakMemoryBoundMB)
    }

    @Test("courier run on a generated file of 1,000 requests runs them all, in one process of bounded memory",
          .enabled(if: Reliability.hasCourier, "the courier binary is not built"))
    func courierRunsAThousandRequests() async throws {
        // Given a .http file of 1,000 requests
        let server = try DemoServer.start()
        defer { server.stop() }
        let folder = try Reliability.temporaryFolder("load-run")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("many.http")
        let count = 1_000
        let base = server.baseURL.absoluteString
        try (0..<count).map { "### r\($0)\nGET \(base)/users/\($0 % 10 + 1)?n=\($0)\n" }.joined(separator: "\n")
            .write(to: file, atomically: true, encoding: .utf8)

        // When courier runs them, its peak memory watched from /proc while it works
        let child = try ChildProcess(Reliability.courier, ["run", file.path, "--json"], environment: [
            "XDG_STATE_HOME": folder.appendingPathComponent("state").path,
            "XDG_CACHE_HOME": folder.appendingPathComponent("cache").path])
        let (status, peak) = await child.finishSamplingPeakMemory(limit: .seconds(300))
        let peakKB = peak / 1024

        // Then there is one JSON line per request, every one 200, and the server saw all 1,000
        let lines = child.stdout.text.split(separator: "\n")
        let ok = lines.filter { $0.contains("\"status\":200") }.count
        print("load: courier run of \(count) requests: \(ok) answered 200, peak RSS \(peakKB / 1024) MB")
        #expect(status == 0)
        #expect(lines.count == count)
        #expect(ok == count)
        #expect(server.log.filter { $0.path.hasPrefix("/users/") }.count == count)
        #expect(peakKB / 1024 < Self.peakMemoryBoundMB)
    }

    @Test("50 concurrent WebSocket sessions on /ws/ticker each receive their ticks")
    func fiftyWebSocketStreams() async throws {
        // Given 50 sessions subscribed to a ticker at 20 ticks a second
        let server = try DemoServer.start()
        defer { server.stop() }
        let sessions = 50, wanted = 10
        let url = URL(string: "ws://127.0.0.1:\(server.port)/ws/ticker?rate=20")!

        // When each runs until it has `wanted` messages (bounded by a watchdog)
        let received = await withTaskGroup(of: Int.self) { group in
            for index in 0..<sessions {
                group.addTask {
                    let session = WebSocketSession(configuration: WebSocketConfiguration(url: url, pingInterval: nil),
                                                   subscriptions: [.text(#"{"subscribe":"SYM\#(index)"}"#)],
                                                   reconnect: nil)
                    session.start()
                    let watchdog = Task {
                        try await Task.sleep(for: .seconds(30))
                        session.close()
                    }
                    var messages = 0
                    for await event in session.events {
                        if case .message(let message) = event, message.direction == .incoming {
                            messages += 1
                            if messages == wanted { session.close() }
                        }
                    }
                    watchdog.cancel()
                    return messages
                }
            }
            return await group.reduce(into: [Int]()) { $0.append($1) }
        }

        // Then every session got its messages
        print("load: \(sessions) WebSocket sessions, messages each: min \(received.min() ?? 0), "
              + "peak RSS \(Self.memory().peak) MB (test process)")
        #expect(received.count == sessions)
        #expect(received.allSatisfy { $0 >= wanted }, "\(received)")
    }
}
