import Foundation

/// What `courier run` costs per request as a whole process, where users and CI meet it: one `.http` file of
/// sequential keep-alive GETs to nginx on loopback, as text and as `--json`, against one `curl -K` process
/// fetching the same URLs, in interleaved rounds (medians), and 8 times the requests for linearity.
enum RunCommandBench {
    static let requests = 2_000
    static let rounds = 7

    static func run() {
        let binary = ProcessInfo.processInfo.environment["COURIER_BIN"]
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("courier").path
        guard FileManager.default.isExecutableFile(atPath: binary),
              FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else {
            print("run: needs the release courier beside this benchmark and /usr/bin/curl")
            return
        }
        guard let server = NginxServer() else {
            print("run: skipped (nginx did not start)")
            return
        }
        defer { server.stop() }
        let url = "http://127.0.0.1:\(server.port)/data.json"
        let folder = server.folder
        let small = write(requests: requests / 2, url: url, in: folder, name: "small")
        let file = write(requests: requests, url: url, in: folder, name: "run")
        let large = write(requests: requests * 4, url: url, in: folder, name: "large")
        let config = folder.appendingPathComponent("curl.cfg")
        let lines = Array(repeating: "url = \"\(url)\"\noutput = \"/dev/null\"\n", count: requests).joined()
        guard (try? Data(lines.utf8).write(to: config)) != nil else { return }

        var text: [(wall: Double, cpu: Double)] = []
        var json: [(wall: Double, cpu: Double)] = []
        var curl: [(wall: Double, cpu: Double)] = []
        var thousand: [Double] = []
        var eightThousand: [Double] = []
        for _ in 0..<rounds {
            if let run = NginxBench.timeChild(binary, ["run", file.path]) { text.append(run) }
            if let run = NginxBench.timeChild("/usr/bin/curl", ["-s", "-K", config.path]) { curl.append(run) }
            if let run = NginxBench.timeChild(binary, ["run", "--json", file.path]) { json.append(run) }
            if let run = NginxBench.timeChild(binary, ["run", small.path]) { thousand.append(run.wall) }
            if let run = NginxBench.timeChild(binary, ["run", large.path]) { eightThousand.append(run.wall) }
        }
        let median = NginxBench.median
        guard !text.isEmpty, !curl.isEmpty, !json.isEmpty else {
            print("run: a run failed")
            return
        }
        let textWall = median(text.map(\.wall)), curlWall = median(curl.map(\.wall)), jsonWall = median(json.map(\.wall))
        print("== courier run: \(requests) sequential keep-alive GETs to nginx (\(rounds) interleaved rounds, medians)")
        print(String(format: "   courier run %.0f req/s (CPU %.0f µs/req), curl -K %.0f req/s (CPU %.0f µs/req): "
                     + "%.2f× curl's rate", Double(requests) / textWall, median(text.map(\.cpu)) / Double(requests) * 1e6,
                     Double(requests) / curlWall, median(curl.map(\.cpu)) / Double(requests) * 1e6, curlWall / textWall))
        print(String(format: "   --json %.2f× the time of text output (goal ≤ 1.2×)", jsonWall / textWall))
        if !thousand.isEmpty, !eightThousand.isEmpty {
            print(String(format: "   %d requests take %.1f× the time of %d (8× is linear)", requests * 4,
                         median(eightThousand) / median(thousand), requests / 2))
        }
    }

    private static func write(requests: Int, url: String, in folder: URL, name: String) -> URL {
        let file = folder.appendingPathComponent("\(name).http")
        let text = (0..<requests).map { "### r\($0)\nGET \(url)\n" }.joined(separator: "\n")
        try? Data(text.utf8).write(to: file)
        return file
    }
}
