#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CourierDemo
import Foundation

/// `courier serve-demo`: the demo server alone, until Ctrl-C or SIGTERM.
enum ServeDemoCommand {
    /// The command's arguments and options, from which its help, parsing and completions are made.
    static let spec = CommandSpec(
        name: "serve-demo", summary: "Run the embedded demo server alone.",
        overview: "Run the embedded demo HTTP server alone.",
        discussion: """
            Serves the demo API (/users, /auth/login, /etag, /events, /chaos/*, /ws/echo, …) on a loopback
            address until interrupted. GET / lists every endpoint.
            """,
        options: [
            .option("--port", short: "p", "N", default: "0, any free port", help: "TCP port to listen on."),
            .option("--host", "H", default: "127.0.0.1",
                    help: "IPv4 address to bind. Other addresses expose the demo server to the network."),
        ])

    static func run(_ arguments: [String]) -> Int32 {
        spec.run(arguments) { reader throws(UsageError) in
            let portText = reader.value("--port")
            let host = reader.value("--host") ?? "127.0.0.1"
            let extra = reader.positionals
            if let first = extra.first { throw UsageError("unexpected argument '\(first)'", command: "serve-demo") }
            guard let parsed = UInt16(portText ?? "0") else {
                throw UsageError("--port takes a number from 0 to 65535, not '\(portText ?? "")'", command: "serve-demo")
            }
            return serve(port: parsed, host: host)
        }
    }

    private static func serve(port: UInt16, host: String) -> Int32 {
        // Block the signals before any server thread exists so they all inherit the mask and
        // sigwait below is the only place that receives them.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        let server: DemoServer
        do {
            server = try DemoServer.start(port: port, host: host)
        } catch let error as DemoError {
            Console.fail("cannot listen on \(host):\(port): \(error.message)")
            return 1
        } catch {
            Console.fail("cannot listen on \(host):\(port): \(error)")
            return 1
        }
        Console.out("Courier demo server listening on \(server.baseURL.absoluteString)")
        Console.out("GET \(server.baseURL.absoluteString)/ lists the endpoints. Press Ctrl-C to stop.")
        var received: Int32 = 0
        sigwait(&signals, &received)
        server.stop()
        Console.error("courier serve-demo: stopped (\(server.connectionCount) connections, \(server.log.count) requests)")
        return 0
    }
}
