import CourierHTTP
import Foundation
import Synchronization

/// Throughput against a server that is not the bottleneck: nginx on loopback serving a 25-byte JSON
/// file. Sequential keep-alive GETs (bare CurlTransport, the full pipeline, one `curl` process for
/// every URL) and 64 requests in flight (the pipeline over HTTP/1.1 and over HTTP/2 on a self-signed
/// certificate, against `curl --parallel --parallel-max 64` and `wrk`), in the same run. Prints req/s,
/// p50/p99 latency and CPU time per request.
enum NginxBench {
    static let sequential = 2_000
    static let concurrent = 8_000
    static let inFlight = 64
    static let rounds = 5

    static func run() {
        guard FileManager.default.isExecutableFile(atPath: "/usr/sbin/nginx") else {
            print("nginx: skipped (nginx-light is not installed)")
            return
        }
        guard let server = NginxServer() else {
            print("nginx: skipped (nginx did not start)")
            return
        }
        defer { server.stop() }
        let plain = URL(string: "http://127.0.0.1:\(server.port)/data.json")!
        let secure = URL(string: "https://127.0.0.1:\(server.tlsPort)/data.json")!
        print("== nginx on 127.0.0.1, a 25-byte JSON file")
        let transport = CurlTransport()
        let client = HTTPClient(configuration: .init(transport: transport))
        print("   sequential keep-alive GETs (\(sequential) per client per round, \(rounds) rounds, interleaved)")
        // On a shared machine one round can land in another process's busy spell: the clients take turns
        // round by round, and each is reported by its best round (its ceiling) and its median one.
        var bare: [Double] = []
        var pipeline: [Double] = []
        var curl: [(rate: Double, cpu: Double)] = []
        // CPU time per request hardly depends on how busy the machine is, unlike the rates.
        var courierCPU: [Double] = []
        for _ in 0..<rounds {
            let cpuBefore = processCPU()
            let rates = PipelineBench.blocking {
                await PipelineBench.interleaved([
                    { _ = try await transport.send(HTTPRequest(url: plain), context: RequestContext()) },
                    { _ = try await client.send(HTTPRequest(url: plain)) },
                ], count: sequential)
            }
            courierCPU.append((processCPU() - cpuBefore) / Double(2 * sequential))
            bare.append(rates[0])
            pipeline.append(rates[1])
            if let run = timeChild("/usr/bin/curl", ["-s", "-o", "/dev/null"]
                                   + Array(repeating: plain.absoluteString, count: sequential)) {
                curl.append((Double(sequential) / run.wall, run.cpu / Double(sequential)))
            }
        }
        let curlRates = curl.map(\.rate)
        line("bare CurlTransport", rate: bare.max() ?? 0, note: spread(bare, against: curlRates))
        line("full pipeline", rate: pipeline.max() ?? 0, note: spread(pipeline, against: curlRates))
        if let best = curl.max(by: { $0.rate < $1.rate }) {
            line("curl, one process", rate: best.rate, cpu: best.cpu, note: "median \(Int(median(curlRates))) req/s")
        }
        if let courier = courierCPU.min(), let curlCPU = curl.map(\.cpu).min() {
            print(String(format: "     CPU per request, best round: courier (bare and pipeline) %.1f µs, curl %.1f µs "
                         + "(%.2f× curl's)", courier * 1e6, curlCPU * 1e6, courier / curlCPU))
        }

        print("   \(inFlight) in flight (\(concurrent) requests)")
        let h1 = PipelineBench.blocking { await inFlightRun(client: client, url: plain) }
        line("pipeline HTTP/1.1", rate: h1.rate, p50: h1.p50, p99: h1.p99, cpu: h1.cpu)
        let tlsTransport = CurlTransport(configuration: .init(trustedCertificates: server.certificate))
        let tlsClient = HTTPClient(configuration: .init(transport: tlsTransport))
        let h2 = PipelineBench.blocking { await inFlightRun(client: tlsClient, url: secure) }
        line("pipeline HTTP/2 (TLS)", rate: h2.rate, p50: h2.p50, p99: h2.p99, cpu: h2.cpu)
        for (name, url, extra) in [("curl --parallel HTTP/1.1", plain, [String]()),
                                   ("curl --parallel HTTP/2", secure, ["--http2", "--cacert", server.certificate.path])] {
            let arguments = ["-s", "--parallel", "--parallel-max", String(inFlight)] + extra
                + Array(repeating: ["-o", "/dev/null", url.absoluteString], count: concurrent).joined()
            if let run = timeChild("/usr/bin/curl", arguments) {
                line(name, rate: Double(concurrent) / run.wall, cpu: run.cpu / Double(concurrent))
            }
        }
        if let wrk = wrkRun(url: plain) { line("wrk -c \(inFlight) HTTP/1.1", rate: wrk.rate, p50: wrk.p50, p99: wrk.p99) }
    }

    /// The median round and the ratios to curl: best round against best round, median against median.
    static func spread(_ rates: [Double], against curl: [Double]) -> String {
        var text = "median \(Int(median(rates))) req/s"
        if let best = rates.max(), let curlBest = curl.max(), curlBest > 0 {
            text += String(format: "; %.2f× curl (best rounds), %.2f× (medians)", best / curlBest,
                           median(rates) / max(median(curl), 1))
        }
        return text
    }

    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        return sorted[sorted.count / 2]
    }

    struct Figures {
        var rate: Double
        var p50: Double
        var p99: Double
        var cpu: Double
    }

    /// `concurrent` GETs through one client with `inFlight` of them at a time.
    static func inFlightRun(client: HTTPClient, url: URL) async -> Figures {
        _ = try? await client.send(HTTPRequest(url: url))
        let cpuBefore = processCPU()
        let start = ContinuousClock.now
        let latencies = await withTaskGroup(of: Double.self) { group -> [Double] in
            var started = 0
            var results: [Double] = []
            func add() {
                started += 1
                group.addTask {
                    let begin = ContinuousClock.now
                    _ = try? await client.send(HTTPRequest(url: url))
                    return (ContinuousClock.now - begin).seconds
                }
            }
            for _ in 0..<inFlight { add() }
            while let latency = await group.next() {
                results.append(latency)
                if started < concurrent { add() }
            }
            return results
        }
        let wall = (ContinuousClock.now - start).seconds
        let sorted = latencies.sorted()
        return Figures(rate: Double(concurrent) / wall, p50: sorted[sorted.count / 2],
                       p99: sorted[min(sorted.count - 1, sorted.count * 99 / 100)],
                       cpu: (processCPU() - cpuBefore) / Double(concurrent))
    }

    /// wrk for 3 s with `inFlight` connections; its own latency percentiles.
    static func wrkRun(url: URL) -> Figures? {
        guard let report = WrkReport.run(url: url, threads: 2, connections: inFlight, seconds: 3),
              let rate = report.rate else { return nil }
        return Figures(rate: rate, p50: report.latency("50%"), p99: report.latency("99%"), cpu: 0)
    }

    /// Wall time and CPU time (user + system) of a child process that must succeed.
    static func timeChild(_ path: String, _ arguments: [String]) -> (wall: Double, cpu: Double)? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let cpuBefore = childrenCPU()
        let start = ContinuousClock.now
        guard (try? process.run()) != nil else { return nil }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return ((ContinuousClock.now - start).seconds, childrenCPU() - cpuBefore)
    }

    static func processCPU() -> Double { cpu(RUSAGE_SELF.rawValue) }
    static func childrenCPU() -> Double { cpu(RUSAGE_CHILDREN.rawValue) }

    private static func cpu(_ who: Int32) -> Double {
        var usage = rusage()
        getrusage(who, &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    static func line(_ name: String, rate: Double, p50: Double? = nil, p99: Double? = nil, cpu: Double? = nil,
                     note: String? = nil) {
        var text = "     " + name.padding(toLength: 28, withPad: " ", startingAt: 0) + String(format: "%8.0f req/s", rate)
        if let p50, let p99 { text += String(format: "   p50 %6.2f ms  p99 %6.2f ms", p50 * 1000, p99 * 1000) }
        if let cpu, cpu > 0 { text += String(format: "   CPU %5.1f µs/req", cpu * 1e6) }
        if let note { text += "   " + note }
        print(text)
    }
}

/// nginx from Debian on two loopback ports (HTTP/1.1, and HTTPS with HTTP/2 on a self-signed
/// certificate) with a temporary configuration, serving `data.json` (25 bytes).
final class NginxServer {
    let port: UInt16
    let tlsPort: UInt16
    let folder: URL
    let certificate: URL
    private let process = Process()

    /// nginx's echo module, whose `echo_sleep` gives an endpoint a fixed service time.
    static let echoModule = "/usr/lib/nginx/modules/ngx_http_echo_module.so"
    /// The service times, in milliseconds, of the `/sleep/N` endpoints (with the echo module).
    static let serviceTimes = [1, 5]

    /// Whether `/sleep/N` endpoints are served.
    static var servesSleeps: Bool { FileManager.default.fileExists(atPath: echoModule) }

    init?() {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-nginx-\(UUID().uuidString)")
        certificate = folder.appendingPathComponent("cert.pem")
        let key = folder.appendingPathComponent("key.pem")
        guard let ports = Self.freePorts(2) else { return nil }
        (port, tlsPort) = (ports[0], ports[1])
        let www = folder.appendingPathComponent("www")
        do {
            try FileManager.default.createDirectory(at: www, withIntermediateDirectories: true)
            try Data(#"{"id":1,"name":"courier"}"#.utf8).write(to: www.appendingPathComponent("data.json"))
            // With the echo module (Debian libnginx-mod-http-echo), /sleep/N answers after N ms, as an
            // application endpoint with a fixed service time would.
            let echo = FileManager.default.fileExists(atPath: Self.echoModule)
            let sleeps = echo ? Self.serviceTimes.map { "location = /sleep/\($0) { echo_sleep \(Double($0) / 1000); echo ok; }" }
                .joined(separator: " ") : ""
            let config = """
                \(echo ? "load_module \(Self.echoModule);" : "")
                worker_processes 1; daemon off; pid \(folder.path)/nginx.pid; error_log \(folder.path)/error.log;
                events { worker_connections 4096; }
                http {
                    access_log off; keepalive_requests 1000000; types { application/json json; }
                    server { listen 127.0.0.1:\(port); root \(www.path); \(sleeps) }
                    server { listen 127.0.0.1:\(tlsPort) ssl http2; root \(www.path);
                             ssl_certificate \(certificate.path); ssl_certificate_key \(key.path); }
                }
                """
            try Data(config.utf8).write(to: folder.appendingPathComponent("nginx.conf"))
        } catch { return nil }
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        openssl.arguments = ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key.path, "-out", certificate.path,
                             "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"]
        openssl.standardOutput = FileHandle.nullDevice
        openssl.standardError = FileHandle.nullDevice
        guard (try? openssl.run()) != nil else { return nil }
        openssl.waitUntilExit()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/nginx")
        process.arguments = ["-p", folder.path, "-c", folder.appendingPathComponent("nginx.conf").path,
                             "-e", folder.appendingPathComponent("error.log").path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        // Ready once it answers.
        for _ in 0..<200 {
            if Self.connects(port) { return }
            usleep(20_000)
        }
        stop()
        return nil
    }

    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: folder)
    }

    private static func connects(_ port: UInt16) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }

    /// Ports the kernel hands out now (bound, then released for nginx to take).
    private static func freePorts(_ count: Int) -> [UInt16]? {
        var sockets: [Int32] = []
        defer { sockets.forEach { close($0) } }
        var ports: [UInt16] = []
        for _ in 0..<count {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            sockets.append(fd)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let ok = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
                }
            }
            guard ok else { return nil }
            ports.append(UInt16(bigEndian: address.sin_port))
        }
        return ports
    }
}
