import Foundation

/// `courier load` beside `wrk` against nginx on loopback, 64 connections over HTTP/1.1 keep-alive, in the
/// same run: requests/s (and the ratio to wrk's) and both tools' latency percentiles. The goal is
/// 0.8× wrk's requests/s or better.
enum LoadBench {
    static let connections = 64
    static let seconds = 3

    static func run() {
        guard FileManager.default.isExecutableFile(atPath: "/usr/sbin/nginx") else {
            print("load: skipped (nginx-light is not installed)")
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
        let url = URL(string: "http://127.0.0.1:\(server.port)/data.json")!
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-load-bench-\(UUID())")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("bench.http")
        guard (try? Data("# @name data\nGET \(url.absoluteString)\n".utf8).write(to: file)) != nil else { return }
        print("== courier load beside wrk: nginx on 127.0.0.1, \(connections) connections, \(seconds) s each")
        guard let load = courierLoad(courier, file: file) else {
            print("     courier load did not run (\(courier))")
            return
        }
        NginxBench.line("courier load -c \(connections)", rate: load.rate, p50: load.p50, p99: load.p99)
        guard let wrk = NginxBench.wrkRun(url: url) else {
            print("     wrk: skipped (not installed)")
            return
        }
        NginxBench.line("wrk -c \(connections)", rate: wrk.rate, p50: wrk.p50, p99: wrk.p99)
        print(String(format: "     courier load / wrk: %.2f× the requests/s (goal ≥ 0.8×)", load.rate / max(wrk.rate, 1)))
    }

    /// One `courier load --json` run; its requests/s and percentiles (in seconds).
    static func courierLoad(_ courier: String, file: URL) -> NginxBench.Figures? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: courier)
        process.arguments = ["load", file.path, "--name", "data", "--concurrency", String(connections),
                             "--duration", String(seconds), "--json"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let rate = object["requestsPerSecond"] as? Double,
              let latency = object["latencyMs"] as? [String: Any] else { return nil }
        func inSeconds(_ key: String) -> Double { ((latency[key] as? Double) ?? 0) / 1000 }
        return NginxBench.Figures(rate: rate, p50: inSeconds("p50"), p99: inSeconds("p99"), cpu: 0)
    }
}
