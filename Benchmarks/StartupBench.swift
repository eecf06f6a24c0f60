import Foundation

/// Explorer startup: time from launching `courier` in a tmux window to its first complete frame (the
/// collection drawn and the status bar up), polled with `capture-pane`, and the explorer's peak RSS.
/// Reported against tmux starting a shell that prints one line, measured the same way in the same run.
enum StartupBench {
    static let rounds = 5
    /// Collection sizes measured besides demo.http: the first frame should not depend on the size.
    static let sizes = [1000, 20_000]

    static func run() {
        // The courier built beside this benchmark (`make bench` builds both in release), or COURIER_BIN.
        let binary = ProcessInfo.processInfo.environment["COURIER_BIN"]
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("courier").path
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            print("startup: \(binary) not built; make bench builds it")
            return
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-startup-bench-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for size in sizes {
                try Data(generated(size).utf8).write(to: folder.appendingPathComponent("big-\(size).http"))
            }
        } catch {
            print("startup: cannot write the generated collection: \(error)")
            return
        }
        let demo = demoCollection(beside: binary)
        var reference: [Double] = []
        var small: [(Double, Int)] = []
        var large: [Int: [(Double, Int)]] = [:]
        for _ in 0..<rounds {
            // Interleaved so a load spike on the shared machine hits all three alike.
            if let time = measure("echo courier-ready; sleep 30", until: { $0.contains("courier-ready") })?.0 {
                reference.append(time)
            }
            if let result = measure("exec '\(binary)' '\(demo)'", until: { $0.contains("listUsers") && $0.contains("env: ") }) {
                small.append(result)
            }
            for size in sizes {
                let file = folder.appendingPathComponent("big-\(size).http").path
                if let result = measure("exec '\(binary)' '\(file)'",
                                        until: { $0.contains("request 0001") && $0.contains("env: ") }) {
                    large[size, default: []].append(result)
                }
            }
        }
        guard let ref = median(reference), let smallTime = median(small.map(\.0)) else {
            print("startup: tmux did not show a frame within 10 s")
            return
        }
        let smallRSS = small.map(\.1).max() ?? 0
        print(String(format: "startup: first frame, demo.http: %.1f ms (%.2f× tmux+shell %.1f ms), peak RSS %d MB",
                     smallTime, smallTime / ref, ref, smallRSS / 1024))
        for size in sizes {
            guard let results = large[size], let time = median(results.map(\.0)) else {
                print("startup: \(size) requests: no frame within 10 s")
                continue
            }
            // RSS when the first frame is up: the rest of the collection may still be loading.
            print(String(format: "startup: first frame, %d requests: %.1f ms (%.2f× tmux+shell), peak RSS by then %d MB",
                         size, time, time / ref, (results.map(\.1).max() ?? 0) / 1024))
        }
    }

    /// The repository's demo.http, found from the courier binary in `.build/release`.
    static func demoCollection(beside binary: String) -> String {
        ["Collections/demo.http", "../../Collections/demo.http"]
            .map { URL(fileURLWithPath: binary).deletingLastPathComponent().appendingPathComponent($0).path }
            .first { FileManager.default.fileExists(atPath: $0) } ?? "Collections/demo.http"
    }

    /// Starts `command` in a fresh tmux server and polls until `done` holds for the screen; returns the
    /// milliseconds it took and the peak RSS (kB) of the pane's process at that moment.
    static func measure(_ command: String, until done: (String) -> Bool) -> (Double, Int)? {
        let socket = "courier-bench-\(UUID().uuidString)"
        let tmux = ["tmux", "-L", socket, "-f", "/dev/null"]
        defer { _ = spawn(tmux + ["kill-server"]) }
        let start = ContinuousClock.now
        guard spawn(tmux + ["new-session", "-d", "-x", "120", "-y", "40", command]).0 == 0 else { return nil }
        while ContinuousClock.now - start < .seconds(10) {
            let (_, screen) = spawn(tmux + ["capture-pane", "-p"])
            if done(screen) {
                let elapsed = (ContinuousClock.now - start).milliseconds
                let pid = spawn(tmux + ["display-message", "-p", "#{pane_pid}"]).1.trimmingCharacters(in: .whitespacesAndNewlines)
                return (elapsed, peakRSS(pid: pid))
            }
        }
        return nil
    }

    /// VmHWM of a process, in kB.
    static func peakRSS(pid: String) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return 0 }
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        return values.sorted()[values.count / 2]
    }

    static func generated(_ count: Int) -> String {
        var text = "@base = http://127.0.0.1:9\n\n"
        for index in 1...count {
            text += String(format: "### request %04d\nGET {{base}}/items/%d?page=1\nAccept: application/json\n\n", index, index)
        }
        return text
    }

    /// Runs a program with no signals blocked, output to a temporary file, and waits for it.
    static func spawn(_ arguments: [String]) -> (Int32, String) {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("bench-\(UUID().uuidString).out")
        defer { try? FileManager.default.removeItem(at: output) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, environ) == 0 else { return (-1, "") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        return ((status >> 8) & 0xFF, (try? String(contentsOf: output, encoding: .utf8)) ?? "")
    }
}
