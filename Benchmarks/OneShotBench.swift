import CourierDemo
import Foundation

/// One-shot cost: the wall time of a whole `courier --version` and `courier send URL` process, against
/// `curl --version` and `curl -s URL` measured the same way in the same run (interleaved rounds, medians).
/// Both fetch from the embedded demo server on loopback, so the server costs the same for each.
enum OneShotBench {
    static let rounds = 40

    static func run() {
        let binary = ProcessInfo.processInfo.environment["COURIER_BIN"]
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("courier").path
        guard FileManager.default.isExecutableFile(atPath: binary),
              FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else {
            print("oneshot: needs the release courier beside this benchmark and /usr/bin/curl")
            return
        }
        let server: DemoServer
        do { server = try DemoServer.start() } catch {
            print("oneshot: cannot start the demo server: \(error)")
            return
        }
        defer { server.stop() }
        let url = server.baseURL.appendingPathComponent("users/1").absoluteString
        let pairs: [(String, [String], [String])] = [
            ("--version", [binary, "--version"], ["/usr/bin/curl", "--version"]),
            ("send URL", [binary, "send", url], ["/usr/bin/curl", "-s", url]),
        ]
        for (name, courier, curl) in pairs {
            var ours: [Double] = []
            var theirs: [Double] = []
            for _ in 0..<rounds {
                if let time = wallTime(courier) { ours.append(time) }
                if let time = wallTime(curl) { theirs.append(time) }
            }
            guard let mine = NginxBench.median(ours).nonZero, let reference = NginxBench.median(theirs).nonZero else {
                print("oneshot: \(name): a run failed")
                continue
            }
            print(String(format: "oneshot: courier %@ %.1f ms, curl %.1f ms (%.2f× curl; medians of %d)",
                         name, mine, reference, mine / reference, rounds))
        }
    }

    /// Milliseconds from spawning `command` (output to /dev/null) to reaping it; nil when it failed.
    static func wallTime(_ command: [String]) -> Double? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = command.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let start = ContinuousClock.now
        var pid: pid_t = 0
        guard posix_spawn(&pid, command[0], &actions, nil, argv, environ) == 0 else { return nil }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let elapsed = ContinuousClock.now - start
        guard status == 0 else { return nil }
        return Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
    }
}

private extension Double {
    var nonZero: Double? { self > 0 ? self : nil }
}
