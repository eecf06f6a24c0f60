import CourierHTTP
import Foundation

/// A running nginx (Debian's `nginx-light` with `libnginx-mod-http-echo`) on loopback whose
/// `/sleep/N` answers `ok` after N milliseconds (`echo_sleep`): an endpoint with a known service time,
/// as an application endpoint has, rather than a static file served in microseconds.
public final class NginxServer: Sendable {
    /// Where Debian installs nginx and its echo module; `make test` installs both, so a missing one is a
    /// failure that says what to install, never a silent skip.
    public static let nginxPath = "/usr/sbin/nginx"
    public static let echoModulePath = "/usr/lib/nginx/modules/ngx_http_echo_module.so"

    public let folder: URL
    public let port: UInt16
    private let child: ChildProcess

    /// Starts nginx serving `/sleep/N` for each N of `serviceTimes` (milliseconds), `files` (name → contents)
    /// from its root, and the `server` directives of `extra` (more locations, `keepalive_requests`), and returns
    /// once it answers. With `logsRequests`, every request it answers is a line of its access log
    /// (`answeredCount(path:)`). nginx is given a port just released; when another test took it meanwhile,
    /// nginx exits and is started again on another.
    public init(serviceTimes: [Int], files: [String: Data] = [:], extra: String = "", logsRequests: Bool = false)
        async throws {
        guard FileManager.default.isExecutableFile(atPath: Self.nginxPath) else {
            throw HTTP2Server.Unavailable(description: "nginx is not installed: apt-get install nginx-light")
        }
        guard FileManager.default.fileExists(atPath: Self.echoModulePath) else {
            throw HTTP2Server.Unavailable(description: "nginx's echo module is not installed: apt-get install "
                                              + "libnginx-mod-http-echo")
        }
        let folder = try HTTP2Server.temporaryFolder("courier-nginx")
        let root = folder.appendingPathComponent("www")
        do {
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            for (name, contents) in files { try contents.write(to: root.appendingPathComponent(name)) }
            let accessLog = logsRequests ? "access_log \(folder.path)/access.log;" : "access_log off;"
            for _ in 0..<5 {
                let port = try Self.freePort()
                let sleeps = serviceTimes.map { "location = /sleep/\($0) { echo_sleep \(Double($0) / 1000); echo ok; }" }
                let config = """
                    load_module \(Self.echoModulePath);
                    worker_processes 1; daemon off; pid \(folder.path)/nginx.pid; error_log \(folder.path)/error.log;
                    events { worker_connections 1024; }
                    http { \(accessLog) server { listen 127.0.0.1:\(port); root \(root.path);
                      \(sleeps.joined(separator: " ")) \(extra) } }
                    """
                try Data(config.utf8).write(to: folder.appendingPathComponent("nginx.conf"))
                let child = try ChildProcess(URL(fileURLWithPath: Self.nginxPath),
                                             ["-p", folder.path, "-c", "nginx.conf", "-e", "error.log"], in: folder)
                if await child.answers(URL(string: "http://127.0.0.1:\(port)/")!) {
                    (self.folder, self.port, self.child) = (folder, port, child)
                    return
                }
                child.signalGroup(SIGKILL)
            }
            let log = (try? String(contentsOf: folder.appendingPathComponent("error.log"), encoding: .utf8)) ?? ""
            throw HTTP2Server.Unavailable(description: "nginx did not answer on any of five ports: \(log)")
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
    }

    /// How many requests for `path` nginx has answered, by its access log (`logsRequests`).
    public func answeredCount(path: String) -> Int {
        let text = (try? String(contentsOf: folder.appendingPathComponent("access.log"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { $0.contains(" \(path) HTTP/") }.count
    }

    /// The address of a path on this server.
    public func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

    public func stop() {
        child.signalGroup(SIGKILL)
        try? FileManager.default.removeItem(at: folder)
    }

    /// A port the kernel just handed out and released.
    private static func freePort() throws -> UInt16 {
        let server = try LoopbackServer { _ in LoopbackServer.Reply() }
        let port = server.port
        server.stop()
        return port
    }
}
