import CourierApp
import CourierDemo
import CourierHTTP
import CourierTerminal
import Foundation

/// Live mode end to end, headless: key presses go through the app's `update`, its effects through the
/// real `EffectRunner` (debounce, cancel-previous, libcurl) to the embedded demo server, and the
/// response counts as painted once `Screen.render` has drawn the frame after it arrived, as the run
/// loop does. Reports, over bursts of typing, the time from the last keystroke to that frame minus
/// the debounce, and how many requests the server received per burst.
enum LiveModeBench {
    static let bursts = 50
    static let keysPerBurst = 5
    static let keyGap: Duration = .milliseconds(30)

    static func run() {
        let server: DemoServer
        do { server = try DemoServer.start() } catch {
            print("live mode: cannot start the demo server: \(error)")
            return
        }
        defer { server.stop() }
        let base = server.baseURL.absoluteString.hasSuffix("/") ? String(server.baseURL.absoluteString.dropLast())
                                                                 : server.baseURL.absoluteString
        // The effect runner resolves requests from their file, so the request lives in a real one.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-live-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("bench.http")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data("### Search\nGET {{base}}/search?q=a\n".utf8).write(to: file)
        } catch {
            print("live mode: cannot write the request file: \(error)")
            return
        }
        let queue = ActionQueue {}
        let runner = EffectRunner(configuration: .init(transport: CurlTransport(), themeFolders: [], clipboard: { _ in }),
                                  queue: queue, store: CollectionStore(overrides: ["base": base]))
        var state = AppState(size: Size(width: 120, height: 40), collectionPath: file.path)
        runner.perform([.loadCollection(path: file.path)])
        let clock = ContinuousClock()
        let loadDeadline = clock.now + .seconds(10)
        var loaded = false
        while !loaded && clock.now < loadDeadline {
            for action in queue.drain() {
                if case .collectionLoaded = action { loaded = true }
                runner.perform(update(&state, action))
            }
            if !loaded { Thread.sleep(forTimeInterval: 0.005) }
        }
        func press(_ key: Key) { runner.perform(update(&state, .input(.key(key)))) }
        // The only request is open at start: focus it without sending it.
        press(.char("2"))
        press(.char("L"))
        press(.char("e"))
        guard state.live, state.editor.url.text.hasPrefix("{{base}}/search") else {
            print("live mode: could not open the request in live mode (url \(state.editor.url.text), live \(state.live))")
            return
        }
        let debounce = state.liveDebounce
        var latencies: [Duration] = []
        var received: [Int] = []
        var completed: [Int] = []
        for burst in 0..<bursts {
            let before = server.requestCount(path: "/search"), doneBefore = server.completedCount(path: "/search")
            var lastKey = clock.now
            for index in 0..<keysPerBurst {
                // Alternate adding and removing characters so the URL stays short across bursts.
                press(burst % 2 == 0 ? .char(Character(String(UnicodeScalar(UInt8(97 + index))))) : Key(.backspace))
                lastKey = clock.now
                for action in queue.drain() { runner.perform(update(&state, action)) }
                if index < keysPerBurst - 1 { Thread.sleep(forTimeInterval: Double(keyGap.components.attoseconds) / 1e18) }
            }
            let generation = state.generation
            var painted: ContinuousClock.Instant?
            let deadline = clock.now + .seconds(10)
            while painted == nil && clock.now < deadline {
                let actions = queue.drain()
                if actions.isEmpty { Thread.sleep(forTimeInterval: 0.0005); continue }
                var arrived = false
                for action in actions {
                    if case .sendFailed(let g, let failure) = action, g == generation {
                        print("live mode: burst \(burst) failed: \(failure.message)")
                        return
                    }
                    if case .responsePaneReady(let g, _) = action, g == generation { arrived = true }
                    runner.perform(update(&state, action))
                }
                if arrived {
                    _ = Screen.render(state)
                    painted = clock.now
                }
            }
            guard let painted else { print("live mode: burst \(burst) got no response within 10 s; generation \(generation), status \(String(describing: state.status))"); return }
            latencies.append(painted - lastKey - debounce)
            // Let late cancellations reach the server's log before counting.
            Thread.sleep(forTimeInterval: 0.05)
            for action in queue.drain() { runner.perform(update(&state, action)) }
            received.append(server.requestCount(path: "/search") - before)
            completed.append(server.completedCount(path: "/search") - doneBefore)
        }
        runner.perform([.cancelSend])
        let sorted = latencies.sorted()
        func ms(_ d: Duration) -> Double { Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15 }
        let median = ms(sorted[sorted.count / 2]), p95 = ms(sorted[min(sorted.count - 1, sorted.count * 95 / 100)])
        // The demo answers /search after a fixed delay (DemoUserRoutes.searchDelayMilliseconds, not public).
        let serverDelay = Double(150)
        print("live mode: \(bursts) bursts of \(keysPerBurst) keys \(ms(keyGap)) ms apart into GET /search (answers after ~\(Int(serverDelay)) ms), debounce \(Int(ms(debounce))) ms")
        print(String(format: "  last key → response painted, minus debounce: median %.1f ms, p95 %.1f ms (%.1f ms beyond the server's delay)",
                     median, p95, median - serverDelay))
        print("  requests received per burst: \(Set(received).sorted()) (all bursts: \(received.reduce(0, +)) for \(bursts)); completed per burst: \(Set(completed).sorted())")
    }
}
