import Foundation

/// `courier load` beside `wrk` against nginx on loopback over HTTP/1.1 keep-alive, in the same run, the two
/// taking turns round by round: requests/s (and the ratio to wrk's; the issue's goal is 0.8× at 64
/// connections on the static file), courier's CPU time per request, and both tools' p50/p75/p90/p99 latency
/// side by side as ratios (the goal: within 20%). Closed loop, latency is connections / throughput (Little's
/// law), so on a 30 µs static file the percentiles at 64 connections can only agree when the throughputs do.
/// Where users load-test is an application endpoint that takes milliseconds: nginx's echo module gives
/// endpoints with a fixed service time (`/sleep/5`, `/sleep/1`), where neither tool is pressed for CPU and
/// the percentiles compare what each measures of the same exchanges.
enum LoadBench {
    /// One comparison: the path on the nginx server and the connections both tools keep open.
    struct Scenario {
        var path: String
        var connections: Int
        var label: String
    }

    static let staticScenarios = [Scenario(path: "/data.json", connections: 64, label: "a 25-byte static file"),
                                  Scenario(path: "/data.json", connections: 1, label: "a 25-byte static file")]
    static let serviceScenarios = [Scenario(path: "/sleep/5", connections: 16, label: "a 5 ms endpoint"),
                                   Scenario(path: "/sleep/5", connections: 64, label: "a 5 ms endpoint"),
                                   Scenario(path: "/sleep/1", connections: 16, label: "a 1 ms endpoint")]
    static let seconds = 3
    static let rounds = 3
    static let percentiles = ["p50", "p75", "p90", "p99"]

    /// One run of either tool: requests/s, percentiles in seconds by name, CPU seconds per request (0: not
    /// measured).
    struct Figures {
        var rate: Double
        var latency: [String: Double]
        var cpu: Double = 0
        /// Whether courier's curl loop sent the requests itself (`sentOnLoop`), with no task per request.
        var onLoop = false
        /// How the loop sent them (`loopPath`): "http-parser" (its own connections) or "libcurl" (transfers).
        var loopPath: String?
    }

    static func run() {
        guard FileManager.default.isExecutableFile(atPath: "/usr/sbin/nginx") else {
            print("load: skipped (nginx-light is not installed)")
            return
        }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/wrk") else {
            print("load: skipped (wrk is not installed)")
            return
        }
        guard let server = NginxServer() else {
            print("load: skipped (nginx did not start)")
            return
        }
        defer { server.stop() }
        // The courier built beside this benchmark (`make bench` builds both in release), or COURIER_BIN.
        let courier = ProcessInfo.processInfo.environment["COURIER_BIN"]
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("courier").path
        let base = "http://127.0.0.1:\(server.port)"
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-load-bench-\(UUID())")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var scenarios = staticScenarios
        if NginxServer.servesSleeps {
            scenarios += serviceScenarios
        } else {
            print("load: the 1 ms and 5 ms endpoints skipped (libnginx-mod-http-echo is not installed)")
        }
        let file = folder.appendingPathComponent("bench.http")
        let text = Set(scenarios.map(\.path)).sorted().map { "# @name \(name(of: $0))\nGET \(base)\($0)\n" }
            .joined(separator: "###\n")
        guard (try? Data(text.utf8).write(to: file)) != nil else { return }
        for scenario in scenarios {
            let connections = scenario.connections
            let url = URL(string: base + scenario.path)!
            print("== courier load beside wrk: nginx on 127.0.0.1, \(scenario.label) (\(scenario.path)), "
                  + "\(connections) connection(s), \(seconds) s each, \(rounds) rounds taking turns (medians)")
            var courierRuns: [Figures] = []
            var wrkRuns: [Figures] = []
            for _ in 0..<rounds {
                guard let load = courierLoad(courier, file: file, name: name(of: scenario.path),
                                             connections: connections) else {
                    print("     courier load did not run (\(courier))")
                    return
                }
                guard let wrk = wrkRun(url: url, connections: connections) else {
                    print("     wrk did not run")
                    return
                }
                courierRuns.append(load)
                wrkRuns.append(wrk)
                print(String(format: "     round: courier %8.0f req/s, wrk %8.0f req/s: %.2f×", load.rate, wrk.rate,
                             load.rate / max(wrk.rate, 1)))
            }
            report(courier: median(courierRuns), wrk: median(wrkRuns), scenario: scenario)
        }
    }

    /// The request's name in the bench's file: `data.json` is `data_json`, `/sleep/5` `sleep_5`.
    static func name(of path: String) -> String {
        String(path.dropFirst().map { $0.isLetter || $0.isNumber ? $0 : "_" })
    }

    /// The medians of the rounds, figure by figure.
    static func median(_ runs: [Figures]) -> Figures {
        func middle(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        var latency: [String: Double] = [:]
        for name in percentiles { latency[name] = middle(runs.map { $0.latency[name] ?? 0 }) }
        let paths = Set(runs.map(\.loopPath))
        return Figures(rate: middle(runs.map(\.rate)), latency: latency, cpu: middle(runs.map(\.cpu)),
                       onLoop: runs.allSatisfy(\.onLoop), loopPath: paths.count == 1 ? paths.first ?? nil : "mixed")
    }

    static func report(courier: Figures, wrk: Figures, scenario: Scenario) {
        let connections = scenario.connections
        let path = courier.onLoop ? "   (sent from the loop: \(courier.loopPath ?? "libcurl"))" : ""
        print(String(format: "     courier load -c %-3d %8.0f req/s   CPU %5.1f µs/req", connections, courier.rate,
                     courier.cpu * 1e6) + path)
        print(String(format: "     wrk -c %-3d          %8.0f req/s", connections, wrk.rate))
        let goal = connections == 64 && scenario.path == "/data.json" ? " (goal ≥ 0.8×)" : ""
        print(String(format: "     courier load / wrk: %.2f× the requests/s", courier.rate / max(wrk.rate, 1)) + goal)
        var line = "     latency, courier / wrk:"
        for name in percentiles {
            let mine = courier.latency[name] ?? 0, theirs = wrk.latency[name] ?? 0
            line += "  " + name + String(format: " %.2f/%.2f ms %.2f×", mine * 1000, theirs * 1000,
                                         mine / max(theirs, 1e-9))
        }
        print(line + " (goal within 20%)")
    }

    /// One `courier load --json` run: its requests/s, percentiles and CPU time per request.
    static func courierLoad(_ courier: String, file: URL, name: String, connections: Int) -> Figures? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: courier)
        process.arguments = ["load", file.path, "--name", name, "--concurrency", String(connections),
                             "--duration", String(seconds), "--json"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        let cpuBefore = NginxBench.childrenCPU()
        guard (try? process.run()) != nil else { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let cpu = NginxBench.childrenCPU() - cpuBefore
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let rate = object["requestsPerSecond"] as? Double, let requests = object["requests"] as? Int,
              let latency = object["latencyMs"] as? [String: Any] else { return nil }
        var figures = Figures(rate: rate, latency: [:], cpu: cpu / Double(max(requests, 1)),
                              onLoop: object["sentOnLoop"] as? Bool ?? false, loopPath: object["loopPath"] as? String)
        for name in percentiles { figures.latency[name] = ((latency[name] as? Double) ?? 0) / 1000 }
        return figures
    }

    /// One `wrk --latency` run (2 threads, or 1 for one connection): requests/s and its latency distribution.
    static func wrkRun(url: URL, connections: Int) -> Figures? {
        guard let report = WrkReport.run(url: url, threads: min(2, connections), connections: connections,
                                         seconds: seconds),
              let rate = report.rate else { return nil }
        var figures = Figures(rate: rate, latency: [:])
        for (name, label) in zip(percentiles, ["50%", "75%", "90%", "99%"]) {
            figures.latency[name] = report.latency(label)
        }
        return figures
    }
}
