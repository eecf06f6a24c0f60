import CourierApp
import CourierDemo
import CourierHTTP
import CourierTerminal
import Foundation

/// From Enter to the first screen of a large body, through the explorer's own effect runner (pipeline,
/// history recording, response store, viewer) against the demo server's `/large`: the time after the
/// last byte is what the viewer adds. Reference, in the same run: the bare transport downloading the
/// same body to disk.
enum SendToScreenBench {
    static let screen = Size(width: 160, height: 50)

    /// Runs 1, 10 and 50 MB (`COURIER_BENCH_BODY_MB` picks sizes), three rounds each; prints medians.
    static func run(sizes: [Int] = [1, 10, 50]) {
        let sizes = BodyBench.chosenSizes(default: sizes)
        guard let server = try? DemoServer.start() else { print("== send-to-screen: demo server did not start"); return }
        defer { server.stop() }
        let history = FileManager.default.temporaryDirectory.appendingPathComponent("courier-s2s-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: history) }
        print("== send-to-screen: Enter → first screen of a /large response in the explorer's runner (ms, median of 3)")
        print("body     download (ref)   Enter→screen   after last byte   RSS growth")
        for megabytes in sizes {
            let url = URL(string: "\(server.baseURL.absoluteString)/large?mb=\(megabytes)")!
            var download: [Double] = [], toScreen: [Double] = [], growth: [Double] = []
            for _ in 0..<3 {
                download.append(downloadTime(url))
                BodyBench.resetPeak()
                let before = BodyBench.currentRSS()
                toScreen.append(sendToScreen(url, history: history))
                growth.append(BodyBench.peakRSS() - before)
            }
            let reference = median(download), app = median(toScreen)
            print(String(format: "%3d MB   %13.1f   %12.1f   %15.1f   %7.0f MB", megabytes, reference, app,
                         app - reference, median(growth)))
        }
        print("   after last byte = Enter→screen minus the bare download of the same body (the issue's goal: < 500 ms"
              + " for 50 MB); RSS growth = peak RSS during the send minus RSS before it")
    }

    /// The bare transport: one GET of `url`, body spilled to disk as the explorer's transport does.
    static func downloadTime(_ url: URL) -> Double {
        let transport = CurlTransport()
        return BodyBench.time {
            let semaphore = DispatchSemaphore(value: 0)
            Task {
                if let response = try? await transport.send(HTTPRequest(url: url), context: RequestContext()),
                   case .file(let file, _) = response.body {
                    try? FileManager.default.removeItem(at: file)
                }
                semaphore.signal()
            }
            semaphore.wait()
        }
    }

    /// The explorer's path: a send effect through the runner, then the response actions through `update`
    /// and one full render, as the run loop does when they arrive.
    static func sendToScreen(_ url: URL, history: URL) -> Double {
        let queue = ActionQueue {}
        let runner = EffectRunner(configuration: .init(transport: CurlTransport(), themeFolders: [], historyDirectory: history),
                                  queue: queue)
        defer { runner.shutdown() }
        // The request is saved in a file, as in the explorer: the runner resolves it from the loaded collection.
        let file = history.appendingPathComponent("large-\(UUID().uuidString).http")
        try? FileManager.default.createDirectory(at: history, withIntermediateDirectories: true)
        try? Data("# @name large\nGET \(url.absoluteString)\n".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        var state = AppState(size: screen, collectionPath: file.path)
        runner.perform([.loadCollection(path: file.path)])
        var loaded: CourierApp.Collection?
        while loaded == nil {
            for action in queue.drain() { if case .collectionLoaded(let collection) = action { loaded = collection } }
            usleep(1_000)
        }
        let ref = RequestRef(file: loaded?.files.first?.path ?? file.path, index: 0)
        guard let draft = loaded?.request(ref) else { print("   the request did not load"); return 0 }
        let job = SendJob(ref: ref, draft: draft, environment: nil)
        return BodyBench.time {
            runner.perform([.send(generation: state.generation, job: job)])
            var shown = false
            while !shown {
                let actions = queue.drain()
                if actions.isEmpty { usleep(200); continue }
                for action in actions {
                    _ = update(&state, action)
                    switch action {
                    case .responsePaneReady: shown = true
                    case .sendFailed(_, let failure): print("   send failed: \(failure.message)"); shown = true
                    default: break
                    }
                }
            }
            _ = Screen.render(state)
        }
    }

    static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
}
