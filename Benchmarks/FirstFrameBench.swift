import Foundation

/// The explorer's first whole frame under load: tmux at 120×40 starts `courier Collections/demo.http` and is
/// polled with `capture-pane` until the tree's first and last requests and the status bar are all on screen;
/// tmux starting `sh` that prints one line is the reference, measured the same way in the same run,
/// interleaved, while a second process keeps one core busy. Also counts the captures that caught a frame
/// drawn in parts (the status bar up, the tree's last request not yet), and measures once more with a
/// 3,500-file HTTP cache whose housekeeping is due (it must wait for the first frame).
enum FirstFrameBench {
    static let rounds = 15

    static func run() {
        let binary = ProcessInfo.processInfo.environment["COURIER_BIN"]
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("courier").path
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            print("firstframe: \(binary) not built; make bench builds it")
            return
        }
        let demo = StartupBench.demoCollection(beside: binary)
        guard let busy = BusyCore.start() else {
            print("firstframe: cannot start the busy process")
            return
        }
        defer { BusyCore.stop(busy) }
        let cacheHome = FileManager.default.temporaryDirectory.appendingPathComponent("courier-bench-cache-\(UUID())")
        defer { try? FileManager.default.removeItem(at: cacheHome) }
        let cacheFolder = cacheHome.appendingPathComponent("courier/http")
        fillCache(cacheFolder)
        var reference: [Double] = []
        var courier: [Double] = []
        var withCache: [Double] = []
        var partial = 0
        let whole: (String) -> Bool = { $0.contains("listUsers") && $0.contains("wsTicker") && $0.contains("q quit") }
        for _ in 0..<rounds {
            if let (time, _) = measure("echo courier-ready; sleep 30", whole: { $0.contains("courier-ready") }) {
                reference.append(time)
            }
            if let (time, parts) = measure("exec '\(binary)' '\(demo)'", whole: whole,
                                           partial: { $0.contains("q quit") && !$0.contains("wsTicker") }) {
                courier.append(time)
                partial += parts
            }
            // The cache's housekeeping due again each round, as on the first start in an hour.
            try? FileManager.default.removeItem(at: cacheFolder.appendingPathComponent(".courier-housekeeping"))
            if let (time, _) = measure("XDG_CACHE_HOME='\(cacheHome.path)' exec '\(binary)' '\(demo)'", whole: whole) {
                withCache.append(time)
            }
        }
        guard let ref = StartupBench.median(reference), let mine = StartupBench.median(courier),
              let cached = StartupBench.median(withCache) else {
            print("firstframe: tmux did not show a whole frame within 10 s")
            return
        }
        print(String(format: "firstframe: under load (one core kept busy), first whole frame of demo.http %.1f ms, "
                     + "tmux+sh %.1f ms: %.2f× (goal ≤ 2×; medians of %d); captures of a frame in parts: %d; "
                     + "with a 3,500-file HTTP cache due for housekeeping %.1f ms: %.2f×",
                     mine, ref, mine / ref, rounds, partial, cached, cached / ref))
    }

    /// A cache folder of 3,000 entries and 500 body files (as 3,000 responses, one in six large, leave): what
    /// the explorer must not list or read before its first frame.
    static func fillCache(_ folder: URL) {
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for item in 0..<3_000 {
            let stem = String(format: "%032x", item)
            _ = FileManager.default.createFile(atPath: folder.appendingPathComponent(stem + ".entry").path,
                                               contents: Data(repeating: 0x20, count: 700))
            if item % 6 == 0 {
                _ = FileManager.default.createFile(atPath: folder.appendingPathComponent(stem + ".0badf00d.body").path,
                                                   contents: Data(repeating: 0x41, count: 4_096))
            }
        }
    }

    /// Starts `command` in a fresh tmux server, polls until `whole` holds for the screen and returns the
    /// milliseconds that took and how many earlier captures `partial` held for.
    static func measure(_ command: String, whole: (String) -> Bool,
                        partial: (String) -> Bool = { _ in false }) -> (Double, Int)? {
        let socket = "courier-bench-\(UUID().uuidString)"
        let tmux = ["tmux", "-L", socket, "-f", "/dev/null"]
        defer { _ = StartupBench.spawn(tmux + ["kill-server"]) }
        let start = ContinuousClock.now
        guard StartupBench.spawn(tmux + ["new-session", "-d", "-x", "120", "-y", "40", command]).0 == 0 else { return nil }
        var parts = 0
        while ContinuousClock.now - start < .seconds(10) {
            let (_, screen) = StartupBench.spawn(tmux + ["capture-pane", "-p"])
            if whole(screen) { return ((ContinuousClock.now - start).milliseconds, parts) }
            if partial(screen) { parts += 1 }
        }
        return nil
    }
}
