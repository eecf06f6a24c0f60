import CourierApp
import CourierDemo
import CourierTerminal
import CourierWebSocket
import Foundation

/// Messages per second received from the demo ticker at full speed (100-byte messages), by
/// `courier ws --count N`, by a `WebSocketSession` in process, and by a Python `websockets` client in
/// the same run as the reference. Prints one line per client and the ratio against Python.
enum WebSocketBench {
    static let messages = 200_000
    static let subscribe = #"{"subscribe":"BENCH"}"#

    static func run() {
        print("== WebSocket: \(messages) ticker messages of 100 bytes, loopback")
        guard let server = try? DemoServer.start() else {
            print("   skipped: the demo server did not start")
            return
        }
        defer { server.stop() }
        let url = "ws://127.0.0.1:\(server.port)/ws/ticker?rate=max&size=100"
        let courier = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("courier")
        let cli = timeProcess(courier.path, ["ws", url, "--subscribe", subscribe, "--count", String(messages)])
        report("courier ws --count", cli)
        let library = timeSession(url)
        report("WebSocketSession (in process)", library)
        let python = timePython(url)
        if let python { report("python websockets", python) } else {
            print("   python websockets: skipped (python3 with the websockets package not available)")
        }
        if let cli, let python {
            print(String(format: "   ratio courier ws / python websockets: %.2fx", python / cli))
        }
        paneFrameTime(messagesPerSecond: cli.map { Double(messages) / $0 } ?? 100_000)
        pushServerIngest(courier: courier)
    }

    /// Messages in the push-server run: enough that start-up is noise.
    static let pushMessages = 1_000_000
    /// The ingest goal, in messages per second.
    static let ingestGoal = 500_000.0

    /// Ingest against a server that is not the bottleneck (pre-built frames in 1 MB writes): `courier ws
    /// --count` to /dev/null, plain and `--json`, and a session in process, each against a bare reader of
    /// the same stream in the same run (the limit on this machine).
    static func pushServerIngest(courier: URL) {
        print("== WebSocket ingest: \(pushMessages) pre-built 100-byte messages from a push server, loopback")
        guard let server = WebSocketPushServer(count: pushMessages) else {
            print("   skipped: the push server did not start")
            return
        }
        defer { server.stop() }
        let bare = BareWebSocketReader.time(port: server.port, count: pushMessages)
        report("bare frame reader (the limit)", bare, count: pushMessages)
        // CPU time per message (every thread of the child) hardly depends on how busy the machine is.
        func timedChild(_ arguments: [String]) -> Double? {
            let cpuBefore = NginxBench.childrenCPU()
            let seconds = timeProcess(courier.path, arguments)
            let cpu = NginxBench.childrenCPU() - cpuBefore
            if seconds != nil {
                print(String(format: "   courier ws %@: %.2f µs CPU/message", arguments.dropFirst(2).joined(separator: " "),
                             cpu * 1e6 / Double(pushMessages)))
            }
            return seconds
        }
        let runs: [(String, Double?)] = [
            ("courier ws --count", timedChild(["ws", server.url, "--count", String(pushMessages)])),
            ("courier ws --count --json", timedChild(["ws", server.url, "--count", String(pushMessages), "--json"])),
            ("WebSocketSession (in process)", timeSession(server.url, count: pushMessages, subscriptions: [])),
        ]
        for (name, seconds) in runs {
            report(name, seconds, count: pushMessages)
            guard let seconds else { continue }
            let rate = Double(pushMessages) / seconds
            let ratio = bare.map { String(format: ", %.2fx the bare reader", $0 / seconds) } ?? ""
            print(String(format: "     %.2f µs/message%@; goal %.0f msg/s %@", 1e6 / rate, ratio, ingestGoal,
                         rate >= ingestGoal ? "met" : "not met"))
        }
    }

    /// The pane's cost per 60 Hz frame at the measured rate: one frame's batch of messages applied,
    /// then a 120×40 frame drawn; reported against the 16.7 ms frame budget.
    static func paneFrameTime(messagesPerSecond rate: Double) {
        let perFrame = max(1, Int(rate / 60))
        let url = URL(string: "ws://127.0.0.1/ws/ticker")!
        var pane = WebSocketPaneState(url: url.absoluteString)
        pane.apply(.connected(url: url, protocol: nil))
        let pad = String(repeating: "x", count: 40)
        let batch: [WebSocketEvent] = (0..<perFrame).map { index in
            .message(WebSocketMessageEvent(direction: .incoming, message: .text(
                #"{"type":"tick","symbol":"BENCH","seq":\#(index),"price":101.25,"pad":"\#(pad)"}"#)))
        }
        let frames = 300
        let start = Date()
        var buffer = Buffer(size: Size(width: 120, height: 40))
        for _ in 0..<frames {
            pane.apply(contentsOf: batch)
            buffer = Buffer(size: Size(width: 120, height: 40))
            WebSocketPaneView.draw(pane, RenderContext(focused: true, area: Rect(x: 0, y: 0, width: 120, height: 40)),
                                   into: &buffer)
        }
        let perFrameSeconds = Date().timeIntervalSince(start) / Double(frames)
        print(String(format: "   pane: %d messages per frame applied + 120x40 frame drawn: %.2f ms (%.0f%% of a 60 Hz frame)",
                     perFrame, perFrameSeconds * 1000, perFrameSeconds / (1.0 / 60) * 100))
        _ = buffer
    }

    private static func report(_ name: String, _ seconds: Double?, count: Int = messages) {
        guard let seconds else {
            print("   \(name): failed")
            return
        }
        print(String(format: "   %@: %.0f messages/s (%.2f s)", name, Double(count) / seconds, seconds))
    }

    /// Wall time of a child process writing to /dev/null; nil when it failed.
    private static func timeProcess(_ path: String, _ arguments: [String]) -> Double? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let start = Date()
        guard (try? process.run()) != nil else { return nil }
        process.waitUntilExit()
        return process.terminationStatus == 0 ? Date().timeIntervalSince(start) : nil
    }

    private static func timeSession(_ url: String, count wanted: Int = messages,
                                    subscriptions: [WebSocketMessage] = [.text(subscribe)]) -> Double? {
        guard let parsed = URL(string: url) else { return nil }
        let session = WebSocketSession(configuration: WebSocketConfiguration(url: parsed),
                                       subscriptions: subscriptions, reconnect: nil)
        let done = DispatchSemaphore(value: 0)
        let start = Date()
        let consumer = Task {
            var count = 0
            for await batch in session.batches {
                for event in batch {
                    if case .message(let record) = event, record.direction == .incoming {
                        count += 1
                        if count == wanted { session.close() }
                    }
                }
            }
            done.signal()
            return count
        }
        session.start()
        done.wait()
        _ = consumer
        return Date().timeIntervalSince(start)
    }

    /// The same measurement with Python's `websockets` client (installed with pip for the benchmark only).
    private static func timePython(_ url: String) -> Double? {
        let check = Process()
        check.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        check.arguments = ["python3", "-c", "import websockets.asyncio.client"]
        check.standardOutput = FileHandle.nullDevice
        check.standardError = FileHandle.nullDevice
        guard (try? check.run()) != nil else { return nil }
        check.waitUntilExit()
        guard check.terminationStatus == 0 else { return nil }
        let script = """
            import asyncio, sys
            from websockets.asyncio.client import connect
            async def main(url, n):
                async with connect(url, max_size=None, compression=None) as ws:
                    await ws.send(sys.argv[3])
                    count = 0
                    async for message in ws:
                        sys.stdout.write(message + "\\n")
                        count += 1
                        if count >= n:
                            break
            asyncio.run(main(sys.argv[1], int(sys.argv[2])))
            """
        return timeProcess("/usr/bin/env", ["python3", "-c", script, url, String(messages), subscribe])
    }
}
