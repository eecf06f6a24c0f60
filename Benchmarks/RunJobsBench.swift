import Foundation

/// `courier run --jobs 64` as CI runs a large file, beside `wrk -c 64` on the same nginx: one `.http` file of
/// 20,000 GETs of the 25-byte static file, run whole (start-up, parsing and the summary included) with
/// `--quiet`, the output a CI job that wants speed picks (only failures, then the summary line), against
/// wrk's requests/s at 64 connections, in interleaved rounds (medians). The goal is 0.8× wrk. Beside them,
/// the same 20,000 URLs through one `curl --parallel --parallel-max 64 -K` process: the runner of the same kind
/// (each request a transfer of its own, start-up and all), where wrk sends one request again and again.
enum RunJobsBench {
    static let requests = 20_000
    static let jobs = 64
    static let rounds = 3

    static func run() {
        let binary = ProcessInfo.processInfo.environment["COURIER_BIN"]
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("courier").path
        guard FileManager.default.isExecutableFile(atPath: binary),
              FileManager.default.isExecutableFile(atPath: "/usr/bin/wrk") else {
            print("runjobs: needs the release courier beside this benchmark and /usr/bin/wrk")
            return
        }
        guard let server = NginxServer() else {
            print("runjobs: skipped (nginx did not start)")
            return
        }
        defer { server.stop() }
        let url = "http://127.0.0.1:\(server.port)/data.json"
        let file = server.folder.appendingPathComponent("jobs.http")
        let text = (0..<requests).map { "### r\($0)\nGET \(url)\n" }.joined(separator: "\n")
        let config = server.folder.appendingPathComponent("jobs.cfg")
        let lines = String(repeating: "url = \"\(url)\"\noutput = \"/dev/null\"\n", count: requests)
        guard (try? Data(text.utf8).write(to: file)) != nil, (try? Data(lines.utf8).write(to: config)) != nil else { return }
        var courier: [(wall: Double, cpu: Double)] = []
        var curl: [(wall: Double, cpu: Double)] = []
        var wrk: [Double] = []
        for _ in 0..<rounds {
            if let run = NginxBench.timeChild(binary, ["run", "--jobs", String(jobs), "--quiet", file.path]) {
                courier.append(run)
            }
            if let run = NginxBench.timeChild("/usr/bin/curl", ["-s", "--parallel", "--parallel-max", String(jobs),
                                                                 "-K", config.path]) {
                curl.append(run)
            }
            if let rate = WrkReport.run(url: URL(string: url)!, threads: 2, connections: jobs, seconds: 3)?.rate {
                wrk.append(rate)
            }
        }
        guard !courier.isEmpty, !wrk.isEmpty else {
            print("runjobs: a run failed")
            return
        }
        let median = NginxBench.median
        let rate = Double(requests) / median(courier.map(\.wall))
        print("== courier run --jobs \(jobs) --quiet: \(requests) GETs of a 25-byte static file from nginx, beside "
              + "wrk -c \(jobs) (\(rounds) interleaved rounds, medians; the whole process, start-up included)")
        print(String(format: "   courier run %.0f req/s (CPU %.1f µs/req), wrk %.0f req/s: %.2f× wrk's rate (goal ≥ 0.8×)",
                     rate, median(courier.map(\.cpu)) / Double(requests) * 1e6, median(wrk), rate / median(wrk)))
        if !curl.isEmpty {
            let curlRate = Double(requests) / median(curl.map(\.wall))
            print(String(format: "   curl --parallel-max %d -K %.0f req/s (CPU %.1f µs/req): courier at %.2f× its rate",
                         jobs, curlRate, median(curl.map(\.cpu)) / Double(requests) * 1e6, rate / curlRate))
        }
    }
}
