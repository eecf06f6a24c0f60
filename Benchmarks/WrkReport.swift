import Foundation

/// One `wrk --latency` run and what it printed: requests/s and latency percentiles, in seconds. The nginx
/// and load benches measure beside it.
struct WrkReport {
    private let lines: [String]

    /// Runs wrk against `url`; nil when wrk is missing or printed no rate.
    static func run(url: URL, threads: Int, connections: Int, seconds: Int) -> WrkReport? {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/wrk") else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/wrk")
        process.arguments = ["-t", String(threads), "-c", String(connections), "-d", "\(seconds)s", "--latency",
                             url.absoluteString]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let report = WrkReport(lines: text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        return report.rate == nil ? nil : report
    }

    /// Requests per second.
    var rate: Double? { value(after: "Requests/sec:") }

    /// A latency percentile (`"50%"`, `"99%"`) in seconds; 0 when wrk printed none.
    func latency(_ percentile: String) -> Double { value(after: percentile) ?? 0 }

    /// The second field of the line starting with `label`, in seconds when it has a unit.
    private func value(after label: String) -> Double? {
        guard let line = lines.first(where: { $0.hasPrefix(label) }),
              let field = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first
        else { return nil }
        for (unit, scale) in [("us", 1e-6), ("ms", 1e-3), ("s", 1.0)] where field.hasSuffix(unit) {
            return Double(field.dropLast(unit.count)).map { $0 * scale }
        }
        return Double(field)
    }
}
